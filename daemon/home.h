// The user's home directory without NSS: the binary is fully static
// (docs/platforms.md), so getpwuid would need glibc's shared NSS modules.
#ifndef TUIDRIVER_HOME_H_
#define TUIDRIVER_HOME_H_

#include <sys/types.h>

#include <string>

namespace tuidriver {

// The home field of the first line of `passwd` (the text of /etc/passwd)
// whose uid is `uid`; "" when there is none.
std::string HomeFromPasswd(const std::string& passwd, uid_t uid);

// $HOME when set and not empty; else the entry for `uid` in the file at
// `passwd_path` (what an agent CLI falls back to on a usual system); else "".
std::string UserHome(const char* home_env, const char* passwd_path, uid_t uid);

}  // namespace tuidriver

#endif  // TUIDRIVER_HOME_H_
