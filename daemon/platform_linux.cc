// Linux side of platform.h.
#include "platform.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cctype>

namespace tuidriver {

int PollWithSignalMask(struct pollfd* fds, nfds_t nfds, int timeout_ms,
                       const sigset_t* mask) {
  struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
  return ppoll(fds, nfds, timeout_ms < 0 ? nullptr : &ts, mask);
}

void CloseFdsExcept(int keep) {
  // One close_range call costs one syscall; the loop below costs one per
  // possible fd, tens of milliseconds at startup.
#ifdef SYS_close_range
  if (keep > 3 && syscall(SYS_close_range, 3, keep - 1, 0) == 0 &&
      syscall(SYS_close_range, keep + 1, ~0U, 0) == 0) {
    return;
  }
#endif
  long max_fd = sysconf(_SC_OPEN_MAX);
  if (max_fd < 0 || max_fd > 65536) max_fd = 65536;
  for (int fd = 3; fd < max_fd; ++fd) {
    if (fd != keep) close(fd);
  }
}

bool DieWithParent() {
  if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) return false;
  // The parent may have died before prctl: then we were already re-parented.
  return getppid() != 1;
}

bool BecomeSubreaper() { return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0; }

std::vector<pid_t> ChildPids(pid_t parent) {
  std::vector<pid_t> pids;
  DIR* proc = opendir("/proc");
  if (!proc) return pids;
  while (struct dirent* e = readdir(proc)) {
    if (!isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
    char path[300];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE* f = fopen(path, "r");
    if (!f) continue;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const char* close_paren = strrchr(buf, ')');
    int ppid = 0;
    char state = 0;
    if (!close_paren || sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2) continue;
    if (ppid == parent) pids.push_back(static_cast<pid_t>(atoi(e->d_name)));
  }
  closedir(proc);
  return pids;
}

std::string ProcessCwd(pid_t pid) {
  char buf[4096];
  std::string link = "/proc/" + std::to_string(pid) + "/cwd";
  ssize_t n = readlink(link.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

std::string SelfExePath() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

}  // namespace tuidriver
