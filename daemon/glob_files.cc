#include "glob_files.h"

#include <fnmatch.h>

#include <algorithm>

#include "platform.h"

namespace tuidriver {

std::vector<std::string> GlobFiles(const std::string& pattern) {
  if (pattern.empty()) return {};
  // The candidates so far, one component at a time: "" is the current directory.
  std::vector<std::string> current = {pattern[0] == '/' ? "/" : ""};
  size_t pos = 0;
  while (pos < pattern.size()) {
    size_t end = pattern.find('/', pos);
    if (end == std::string::npos) end = pattern.size();
    std::string part = pattern.substr(pos, end - pos);
    pos = end + 1;
    if (part.empty()) continue;  // "//" or a leading '/'
    auto join = [](const std::string& dir, const char* name) {
      return dir.empty() ? std::string(name) : dir == "/" ? "/" + std::string(name) : dir + "/" + name;
    };
    std::vector<std::string> next;
    bool magic = part.find_first_of("*?[\\") != std::string::npos;
    for (const std::string& dir : current) {
      if (!magic) {  // a plain name: checked once the whole path is built
        next.push_back(join(dir, part.c_str()));
        continue;
      }
      std::vector<std::string> names;
      if (!ListDirectory(dir.empty() ? "." : dir, &names)) continue;  // missing, or not a directory
      for (const std::string& name : names) {
        if (fnmatch(part.c_str(), name.c_str(), FNM_PERIOD) == 0) next.push_back(join(dir, name.c_str()));
      }
    }
    current.swap(next);
  }
  std::vector<std::string> found;
  for (const std::string& path : current) {
    struct stat st;
    if (!path.empty() && StatPath(path, &st, false)) found.push_back(path);
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace tuidriver
