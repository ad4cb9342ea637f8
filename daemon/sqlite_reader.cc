#include "sqlite_reader.h"

#include <sqlite3.h>

namespace tuidriver {
namespace {

// Long enough for a writer's commit, short enough to never stall a reply.
const int kBusyTimeoutMs = 100;

}  // namespace

SqliteReader::~SqliteReader() {
  if (db_) sqlite3_close(db_);
}

bool SqliteReader::Open(const std::string& path, std::string* err) {
  if (db_) sqlite3_close(db_);
  db_ = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    *err = path + ": " + (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
    sqlite3_close(db_);
    db_ = nullptr;
    return false;
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  return true;
}

bool SqliteReader::Query(const std::string& sql, const std::vector<std::string>& params, const RowFn& row,
                         std::string* err) {
  if (!db_) {
    *err = "no database open";
    return false;
  }
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr);
  busy_ = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
  if (rc != SQLITE_OK) {
    *err = sqlite3_errmsg(db_);
    return false;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    sqlite3_bind_text(stmt, static_cast<int>(i + 1), params[i].data(), static_cast<int>(params[i].size()),
                      SQLITE_TRANSIENT);
  }
  std::vector<std::string> values;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    int n = sqlite3_column_count(stmt);
    values.assign(static_cast<size_t>(n), "");
    for (int c = 0; c < n; ++c) {
      const unsigned char* text = sqlite3_column_text(stmt, c);
      if (text) values[static_cast<size_t>(c)].assign(reinterpret_cast<const char*>(text),
                                                      static_cast<size_t>(sqlite3_column_bytes(stmt, c)));
    }
    row(values);
  }
  bool ok = rc == SQLITE_DONE;
  busy_ = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
  if (!ok) *err = sqlite3_errmsg(db_);
  sqlite3_finalize(stmt);  // ends the read: the writer may checkpoint
  return ok;
}

}  // namespace tuidriver
