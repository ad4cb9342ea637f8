// macOS side of platform.h. Built (cross, with zig c++), not yet run on a Mac.
#include "platform.h"

#include <fcntl.h>
#include <sys/file.h>
#include <libproc.h>
#include <limits.h>
#include <malloc/malloc.h>
#include <mach-o/dyld.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/event.h>
#include <unistd.h>

#include "home.h"

namespace tuidriver {
namespace {

// Longest single poll while signals are unmasked: bounds the delay a signal
// that lands between the mask swap and poll can cause.
constexpr int kMaxPollSliceMs = 20;

void* WatchParent(void* arg) {
  int kq = static_cast<int>(reinterpret_cast<intptr_t>(arg));
  struct kevent ev;
  for (;;) {
    int n = kevent(kq, nullptr, 0, &ev, 1, nullptr);
    if (n > 0) break;
  }
  kill(getpid(), SIGTERM);
  return nullptr;
}

}  // namespace

int PollWithSignalMask(struct pollfd* fds, nfds_t nfds, int timeout_ms,
                       const sigset_t* mask) {
  int slice = timeout_ms < 0 || timeout_ms > kMaxPollSliceMs ? kMaxPollSliceMs : timeout_ms;
  sigset_t old;
  pthread_sigmask(SIG_SETMASK, mask, &old);
  int n = poll(fds, nfds, slice);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return n;
}

void CloseFdsExcept(int keep, int also_keep) {
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

void ReleaseFreeMemory() { malloc_zone_pressure_relief(nullptr, 0); }

bool TryLockFile(int fd, bool shared) { return flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0; }

std::string TempDir() {
  const char* dir = getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

std::string DefaultHome() { return UserHome(getenv("HOME"), "/etc/passwd", getuid()); }

int StartPlatform(int, char**) { return -1; }

std::vector<std::string> ProgramArguments(int argc, char** argv) { return {argv, argv + argc}; }

bool DieWithParent() {
  pid_t parent = getppid();
  if (parent == 1) return false;
  int kq = kqueue();
  if (kq < 0) return false;
  struct kevent ev;
  EV_SET(&ev, parent, EVFILT_PROC, EV_ADD, NOTE_EXIT, 0, nullptr);
  if (kevent(kq, &ev, 1, nullptr, 0, nullptr) != 0) {
    close(kq);
    return false;  // ESRCH: the parent is already gone
  }
  // The watcher must not take the daemon's signals: block them all in it.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  pthread_t thread;
  int rc = pthread_create(&thread, nullptr, WatchParent,
                          reinterpret_cast<void*>(static_cast<intptr_t>(kq)));
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (rc != 0) {
    close(kq);
    return false;
  }
  pthread_detach(thread);
  return true;
}

bool BecomeSubreaper() { return false; }  // macOS has no subreaper

std::vector<pid_t> ChildPids(pid_t parent) {
  std::vector<pid_t> pids(256);
  int n = proc_listchildpids(parent, pids.data(),
                             static_cast<int>(pids.size() * sizeof(pid_t)));
  pids.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return pids;
}

std::string ProcessCwd(pid_t pid) {
  struct proc_vnodepathinfo info;
  int n = proc_pidinfo(pid, PROC_PIDVNODEPATHINFO, 0, &info, sizeof info);
  if (n != static_cast<int>(sizeof info)) return "";
  return info.pvi_cdir.vip_path;
}

std::string SelfExePath() {
  char buf[PATH_MAX];
  uint32_t size = sizeof buf;
  char real[PATH_MAX];
  if (_NSGetExecutablePath(buf, &size) == 0 && realpath(buf, real)) return real;
  return "";
}

// No /proc: a process's blocking call is not visible without privileges.
TerminalReader ForegroundReadsTerminal(int) { return TerminalReader::kUnknown; }

}  // namespace tuidriver
