// Everything the daemon needs from the operating system beyond POSIX.
//
// One interface, one file per platform (platform_linux.cc, platform_darwin.cc),
// chosen by CMake: the rest of the daemon stays free of #ifdefs.
#ifndef TUIDRIVER_PLATFORM_H_
#define TUIDRIVER_PLATFORM_H_

#include <poll.h>
#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace tuidriver {

// Waits like poll(2) for up to timeout_ms (< 0: forever) with the signal
// mask set to *mask for the wait only (ppoll semantics). Linux: ppoll.
// macOS has no ppoll: the mask is swapped around poll and the wait capped
// at a few milliseconds, so a signal landing in between costs at most
// that much latency instead of a lost wake-up.
int PollWithSignalMask(struct pollfd* fds, nfds_t nfds, int timeout_ms,
                       const sigset_t* mask);

// Closes every fd above stderr except `keep` and `also_keep` (-1: none).
// Async-signal-safe: it runs between fork and exec. Linux: close_range
// calls where the kernel has them; otherwise a loop up to the fd limit.
void CloseFdsExcept(int keep, int also_keep = -1);

// Ends this process with SIGTERM when its parent dies. Linux: prctl
// PR_SET_PDEATHSIG. macOS: a thread waiting on kqueue EVFILT_PROC
// NOTE_EXIT for the parent. Returns false if it could not be arranged.
bool DieWithParent();

// Makes orphaned descendants become our children instead of init's, so
// close can find and end them. Linux prctl; false where unsupported.
bool BecomeSubreaper();

// Pids of the processes whose parent is `parent`. Linux: /proc/*/stat;
// macOS: proc_listchildpids.
std::vector<pid_t> ChildPids(pid_t parent);

// The current working directory of `pid`; empty when it cannot be read.
// Linux: /proc/PID/cwd; macOS: proc_pidinfo(PROC_PIDVNODEPATHINFO).
std::string ProcessCwd(pid_t pid);

// The running binary's own path, canonical; empty if unknown.
std::string SelfExePath();

// Whether the terminal's foreground process group waits for the user: a
// process of it blocked reading the terminal, or waiting in select, poll or
// epoll with the terminal among what it waits for.
enum class TerminalReader { kReading, kNotReading, kUnknown };

// `master_fd` is the PTY's master. Linux: tcgetpgrp, then /proc/PID/syscall
// of the group's leader (and, while it waits for a child, of its children in
// the group); the fds it waits on from /proc/PID/fd, /proc/PID/fdinfo (epoll)
// and /proc/PID/mem (select and poll sets). macOS: kUnknown (the engine's
// needs_input patterns decide; docs/engines.md).
TerminalReader ForegroundReadsTerminal(int master_fd);

}  // namespace tuidriver

#endif  // TUIDRIVER_PLATFORM_H_
