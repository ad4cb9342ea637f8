#include "files.h"

#include <limits.h>

#include <algorithm>

#include "platform.h"

namespace tuidriver {

bool ReadWholeFile(const std::string& path, std::string* bytes, uint64_t offset) {
  bytes->clear();
  FILE* f = OpenStream(path, "rb");
  if (!f) return false;
  // In steps of a long, which Windows keeps at 32 bits.
  bool ok = true;
  for (uint64_t left = offset; ok && left > 0;) {
    long step = static_cast<long>(std::min<uint64_t>(left, LONG_MAX));
    ok = fseek(f, step, SEEK_CUR) == 0;
    left -= static_cast<uint64_t>(step);
  }
  char buf[65536];
  for (size_t n; ok && (n = fread(buf, 1, sizeof buf, f)) > 0;) bytes->append(buf, n);
  ok = ok && !ferror(f);
  fclose(f);
  return ok;
}

bool ReadFirstLine(const std::string& path, std::string* line) {
  line->clear();
  FILE* f = OpenStream(path, "rb");
  if (!f) return false;
  int c = EOF;
  while ((c = getc(f)) != EOF && c != '\n') line->push_back(static_cast<char>(c));
  fclose(f);
  return c == '\n' || !line->empty();
}

}  // namespace tuidriver
