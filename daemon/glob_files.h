// The files a path pattern names, as glob(3) with no flags finds them, but
// without glob(3): glibc's glob looks up `~user` through NSS, so a static
// link of it carries NSS and the DNS resolver (about 150 KB of the binary,
// docs/platforms.md), which the daemon, never given a `~`, does not need.
#ifndef TUIDRIVER_GLOB_FILES_H_
#define TUIDRIVER_GLOB_FILES_H_

#include <string>
#include <vector>

namespace tuidriver {

// `*`, `?` and `[...]` in any component (fnmatch(3) with FNM_PERIOD: a leading
// `.` only matched by a `.`, so `.*` matches `.` and `..` as in glob(3)), a
// backslash escapes. The existing paths (lstat), sorted by byte value as
// glob(3) sorts them in the C locale; none when nothing matches. Unlike
// glob(3), a trailing '/' is ignored (transcript paths name files).
std::vector<std::string> GlobFiles(const std::string& pattern);

}  // namespace tuidriver

#endif  // TUIDRIVER_GLOB_FILES_H_
