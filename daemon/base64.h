// Standard base64 (RFC 4648, with padding): `output` events in the
// "base64" encoding carry the program's bytes exactly, and cost a table
// lookup per twelve bits instead of JSON's escaping of every control byte.
#ifndef TUIDRIVER_BASE64_H_
#define TUIDRIVER_BASE64_H_

#include <string>
#include <string_view>

namespace tuidriver {

// Appends the base64 of `bytes` to *out.
void AppendBase64(std::string_view bytes, std::string* out);

}  // namespace tuidriver

#endif  // TUIDRIVER_BASE64_H_
