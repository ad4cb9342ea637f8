// Regular expressions (RE2) compiled one way everywhere: engine files,
// screen rules, `expect` patterns.
#ifndef TUIDRIVER_COMPILE_REGEX_H_
#define TUIDRIVER_COMPILE_REGEX_H_

#include <re2/re2.h>

#include <memory>
#include <string>

namespace tuidriver {

// The compiled pattern, or null with *err saying why (RE2's own message).
// RE2 logs nothing to stderr: the caller reports the error where it belongs.
std::unique_ptr<RE2> CompileRegex(const std::string& pattern, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_COMPILE_REGEX_H_
