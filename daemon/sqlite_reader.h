// Reads a SQLite database another program is writing (an agent CLI's
// session store): opened read-only, never created, a short busy timeout,
// and no transaction held between queries, so the CLI is never locked out.
// In WAL mode (opencode, Kilo) a reader does not block the writer at all.
#ifndef TUIDRIVER_SQLITE_READER_H_
#define TUIDRIVER_SQLITE_READER_H_

#include <functional>
#include <string>
#include <vector>

struct sqlite3;

namespace tuidriver {

class SqliteReader {
 public:
  // One result row: each column as text (NULL as "").
  using RowFn = std::function<void(const std::vector<std::string>& row)>;

  SqliteReader() = default;
  ~SqliteReader();
  SqliteReader(const SqliteReader&) = delete;
  SqliteReader& operator=(const SqliteReader&) = delete;

  // False with *err when the file is missing or not a database.
  bool Open(const std::string& path, std::string* err);
  // Runs one statement, its `?` bound to `params` in order, as one
  // snapshot. False with *err (SQLite's message) on any error.
  bool Query(const std::string& sql, const std::vector<std::string>& params, const RowFn& row,
             std::string* err);
  // The last Query failed because the writer held the database past the
  // busy timeout: worth trying again.
  bool busy() const { return busy_; }

 private:
  sqlite3* db_ = nullptr;
  bool busy_ = false;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_SQLITE_READER_H_
