#include "home.h"

#include <stdio.h>

#include <string>

namespace tuidriver {

std::string HomeFromPasswd(const std::string& passwd, uid_t uid) {
  // name:password:uid:gid:gecos:home:shell
  const std::string want = std::to_string(uid);
  size_t start = 0;
  while (start < passwd.size()) {
    size_t end = passwd.find('\n', start);
    if (end == std::string::npos) end = passwd.size();
    std::string fields[7];
    int n = 0;
    for (size_t p = start; n < 7; ++n) {
      size_t colon = passwd.find(':', p);
      if (colon == std::string::npos || colon > end) colon = end;
      fields[n] = passwd.substr(p, colon - p);
      if (colon == end) { ++n; break; }
      p = colon + 1;
    }
    if (n >= 6 && fields[2] == want) return fields[5];
    start = end + 1;
  }
  return "";
}

std::string UserHome(const char* home_env, const char* passwd_path, uid_t uid) {
  if (home_env && *home_env) return home_env;
  FILE* f = fopen(passwd_path, "re");
  if (!f) return "";
  std::string text;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  fclose(f);
  return HomeFromPasswd(text, uid);
}

}  // namespace tuidriver
