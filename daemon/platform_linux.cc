// Linux side of platform.h.
#include "platform.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

#include <cctype>
#include <cstring>

#include "home.h"

namespace tuidriver {

int PollWithSignalMask(struct pollfd* fds, nfds_t nfds, int timeout_ms,
                       const sigset_t* mask) {
  struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
  return ppoll(fds, nfds, timeout_ms < 0 ? nullptr : &ts, mask);
}

void CloseFdsExcept(int keep, int also_keep) {
  // One close_range call costs one syscall; the loop below costs one per
  // possible fd, tens of milliseconds at startup.
#ifdef SYS_close_range
  int low = std::min(keep, also_keep), high = std::max(keep, also_keep);
  if (low < 0) low = high;  // one fd to keep
  auto close_between = [](int from, int to) {  // [from, to], if not empty
    return from > to || syscall(SYS_close_range, from, to, 0) == 0;
  };
  if (low >= 3 && close_between(3, low - 1) && close_between(low + 1, high - 1) &&
      syscall(SYS_close_range, high + 1, ~0U, 0) == 0) {
    return;
  }
#endif
  long max_fd = sysconf(_SC_OPEN_MAX);
  if (max_fd < 0 || max_fd > 65536) max_fd = 65536;
  for (int fd = 3; fd < max_fd; ++fd) {
    if (fd != keep && fd != also_keep) close(fd);
  }
}

bool SetNonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

void WaitWritable(int fd, int timeout_ms) {
  struct pollfd p = {fd, POLLOUT, 0};
  poll(&p, 1, timeout_ms);
}

void ReleaseFreeMemory() { malloc_trim(0); }

bool TryLockFile(int fd, bool shared) { return flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0; }

std::string TempDir() {
  const char* dir = getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

std::string DefaultHome() { return UserHome(getenv("HOME"), "/etc/passwd", getuid()); }

int StartPlatform(int, char**) { return -1; }

std::vector<std::string> ProgramArguments(int argc, char** argv) { return {argv, argv + argc}; }

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

namespace {

// The terminal as a process's fds show it: the PTY's slave, or /dev/tty
// (the controlling terminal opened by that name, as less does).
struct TerminalIds {
  dev_t slave = 0;
  dev_t tty = makedev(5, 0);
};

std::string ProcPath(pid_t pid, const char* what, long n = -1) {
  std::string path = "/proc/" + std::to_string(pid) + "/" + what;
  return n < 0 ? path : path + "/" + std::to_string(n);
}

bool IsTerminalFd(pid_t pid, long fd, const TerminalIds& ids) {
  struct stat st;
  if (fd < 0 || stat(ProcPath(pid, "fd", fd).c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) return false;
  return st.st_rdev == ids.slave || st.st_rdev == ids.tty;
}

// The call the process's main thread is blocked in (/proc/PID/syscall:
// "running", or the number and six arguments in hex).
struct BlockedCall {
  bool running = false;
  long nr = -1;
  unsigned long args[6] = {};
};

bool ReadBlockedCall(pid_t pid, BlockedCall* call) {
  int fd = open(ProcPath(pid, "syscall").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[256];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = 0;
  if (strncmp(buf, "running", 7) == 0) {
    call->running = true;
    return true;
  }
  unsigned long* a = call->args;
  return sscanf(buf, "%ld %lx %lx %lx %lx %lx %lx", &call->nr, &a[0], &a[1], &a[2], &a[3], &a[4],
                &a[5]) >= 4;
}

bool ReadMemory(pid_t pid, unsigned long addr, void* buf, size_t len) {
  int fd = open(ProcPath(pid, "mem").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = pread(fd, buf, len, static_cast<off_t>(addr));
  close(fd);
  return n == static_cast<ssize_t>(len);
}

TerminalReader Reads(bool yes) { return yes ? TerminalReader::kReading : TerminalReader::kNotReading; }

// select/pselect6: the read set, a bitmap of nfds bits.
TerminalReader SelectReads(pid_t pid, unsigned long nfds, unsigned long readfds, const TerminalIds& ids) {
  if (readfds == 0 || nfds == 0) return TerminalReader::kNotReading;
  if (nfds > FD_SETSIZE) nfds = FD_SETSIZE;
  unsigned char bits[FD_SETSIZE / 8];
  if (!ReadMemory(pid, readfds, bits, (nfds + 7) / 8)) return TerminalReader::kUnknown;
  for (unsigned long fd = 0; fd < nfds; ++fd) {
    if ((bits[fd / 8] >> (fd % 8) & 1) && IsTerminalFd(pid, static_cast<long>(fd), ids)) {
      return TerminalReader::kReading;
    }
  }
  return TerminalReader::kNotReading;
}

// poll/ppoll: an array of struct pollfd.
TerminalReader PollReads(pid_t pid, unsigned long fds, unsigned long nfds, const TerminalIds& ids) {
  constexpr unsigned long kMaxFds = 256;
  if (fds == 0 || nfds == 0) return TerminalReader::kNotReading;
  if (nfds > kMaxFds) nfds = kMaxFds;
  struct pollfd set[kMaxFds];
  if (!ReadMemory(pid, fds, set, nfds * sizeof set[0])) return TerminalReader::kUnknown;
  for (unsigned long i = 0; i < nfds; ++i) {
    if ((set[i].events & POLLIN) && IsTerminalFd(pid, set[i].fd, ids)) return TerminalReader::kReading;
  }
  return TerminalReader::kNotReading;
}

// epoll_wait and its kin: the epoll fd's fdinfo lists "tfd: FD events: HEX".
TerminalReader EpollReads(pid_t pid, long epfd, const TerminalIds& ids) {
  FILE* f = fopen(ProcPath(pid, "fdinfo", epfd).c_str(), "re");
  if (!f) return TerminalReader::kUnknown;
  char line[256];
  bool reading = false;
  while (!reading && fgets(line, sizeof line, f)) {
    long fd;
    unsigned events;
    if (sscanf(line, "tfd: %ld events: %x", &fd, &events) == 2 && (events & EPOLLIN)) {
      reading = IsTerminalFd(pid, fd, ids);
    }
  }
  fclose(f);
  return Reads(reading);
}

TerminalReader ProcessReads(pid_t pid, pid_t group, const TerminalIds& ids, int depth);

// Every process of a group.
std::vector<pid_t> GroupMembers(pid_t group) {
  std::vector<pid_t> pids;
  DIR* proc = opendir("/proc");
  if (!proc) return pids;
  while (struct dirent* e = readdir(proc)) {
    if (!isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
    pid_t pid = static_cast<pid_t>(atoi(e->d_name));
    if (getpgid(pid) == group) pids.push_back(pid);
  }
  closedir(proc);
  return pids;
}

// A process waiting for a child: whether one of its children in the
// foreground group reads (a shell running a command, python running less).
TerminalReader ChildReads(pid_t pid, pid_t group, const TerminalIds& ids, int depth) {
  constexpr int kMaxDepth = 4;
  if (depth >= kMaxDepth) return TerminalReader::kNotReading;
  TerminalReader answer = TerminalReader::kNotReading;
  for (pid_t child : ChildPids(pid)) {
    if (getpgid(child) != group) continue;
    TerminalReader r = ProcessReads(child, group, ids, depth + 1);
    if (r == TerminalReader::kReading) return r;
    if (r == TerminalReader::kUnknown) answer = r;
  }
  return answer;
}

TerminalReader ProcessReads(pid_t pid, pid_t group, const TerminalIds& ids, int depth) {
  BlockedCall call;
  if (!ReadBlockedCall(pid, &call)) return TerminalReader::kUnknown;
  if (call.running) return TerminalReader::kNotReading;
  const unsigned long* a = call.args;
  switch (call.nr) {
    case SYS_read:
    case SYS_readv:
      return Reads(IsTerminalFd(pid, static_cast<long>(a[0]), ids));
#ifdef SYS_select
    case SYS_select:
#endif
    case SYS_pselect6:
      return SelectReads(pid, a[0], a[1], ids);
#ifdef SYS_poll
    case SYS_poll:
#endif
    case SYS_ppoll:
      return PollReads(pid, a[0], a[1], ids);
#ifdef SYS_epoll_wait
    case SYS_epoll_wait:
#endif
#ifdef SYS_epoll_pwait2
    case SYS_epoll_pwait2:
#endif
    case SYS_epoll_pwait:
      return EpollReads(pid, static_cast<long>(a[0]), ids);
    case SYS_wait4:
    case SYS_waitid:
      return ChildReads(pid, group, ids, depth);
    default:
      return TerminalReader::kNotReading;
  }
}

}  // namespace

TerminalReader ForegroundReadsTerminal(int master_fd) {
  pid_t group = tcgetpgrp(master_fd);
  const char* slave = ptsname(master_fd);
  struct stat st;
  if (group <= 0 || !slave || stat(slave, &st) != 0) return TerminalReader::kUnknown;
  TerminalIds ids;
  ids.slave = st.st_rdev;
  // From the group's leader down; a group whose leader is gone or a zombie
  // (a pipeline's first command exited) from each of its members.
  TerminalReader r = ProcessReads(group, group, ids, 0);
  if (r != TerminalReader::kUnknown) return r;
  for (pid_t pid : GroupMembers(group)) {
    r = ProcessReads(pid, group, ids, 0);
    if (r == TerminalReader::kReading) return r;
  }
  return r;
}

}  // namespace tuidriver
