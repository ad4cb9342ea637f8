// The POSIX side of platform.h's file calls, shared by Linux and macOS:
// names are bytes there, so each is the call itself.
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>

#include "platform.h"

namespace tuidriver {

int OpenFd(const std::string& path, int flags, int mode) { return open(path.c_str(), flags, mode); }

FILE* OpenStream(const std::string& path, const char* mode) { return fopen(path.c_str(), mode); }

bool StatPath(const std::string& path, struct stat* st, bool follow_links) {
  return (follow_links ? stat(path.c_str(), st) : lstat(path.c_str(), st)) == 0;
}

bool ListDirectory(const std::string& dir, std::vector<std::string>* names) {
  DIR* d = opendir(dir.c_str());
  if (!d) return false;
  while (const dirent* e = readdir(d)) names->push_back(e->d_name);
  closedir(d);
  return true;
}

std::string RealPath(const std::string& path) {
  char real[PATH_MAX];
  return realpath(path.c_str(), real) ? real : "";
}

size_t LastPathSeparator(const std::string& path) { return path.rfind('/'); }

std::string EnvVar(const char* name) {
  const char* value = getenv(name);
  return value ? value : "";
}

}  // namespace tuidriver
