// libFuzzer target: one request line, as read from stdin, through the
// parser. Any input must give either a Request or an error with a message,
// never a crash, and never an id that is not valid JSON text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "request.h"
#include "utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tuidriver::RequestParser parser;  // long-lived, as in the daemon
  std::string line(reinterpret_cast<const char*>(data), size);
  tuidriver::Request request;
  tuidriver::RequestError kind;
  std::string err;
  bool ok = parser.Parse(line, &request, &kind, &err);
  if (!ok && err.empty()) abort();  // a refusal always says why
  if (!ok && kind == tuidriver::RequestError::kNone) abort();
  // Everything echoed back must be valid UTF-8 (the reply is JSON).
  if (!tuidriver::IsValidUtf8(request.id.json) || !tuidriver::IsValidUtf8(err)) abort();
  return 0;
}
