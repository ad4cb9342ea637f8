#include "compile_regex.h"

namespace tuidriver {

std::unique_ptr<RE2> CompileRegex(const std::string& pattern, std::string* err) {
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, options);
  if (re->ok()) return re;
  *err = re->error();
  return nullptr;
}

}  // namespace tuidriver
