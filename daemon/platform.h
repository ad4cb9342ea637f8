// Everything the daemon needs from the operating system beyond POSIX.
//
// One interface, one file per platform (platform_linux.cc, platform_darwin.cc,
// platform_windows.cc), chosen by CMake: the rest of the daemon stays free of
// #ifdefs. Windows (docs/windows.md) has no poll, no signal masks and no
// fork: the POSIX-only calls below are used by the POSIX loop and PTY only
// (session.cc, pty_process.cc), whose Windows twins are session_windows.cc and
// conpty_process.cc; the few POSIX names the shared code uses are given here.
#ifndef TUIDRIVER_PLATFORM_H_
#define TUIDRIVER_PLATFORM_H_

#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifndef _WIN32
#include <poll.h>
#else
#include <fcntl.h>
#include <stdlib.h>
#endif

#include <string>
#include <vector>

#ifdef _WIN32
// The POSIX signal numbers mingw lacks, with Linux's values: they are
// protocol names (`signal` requests, exit reports); ConptyProcess maps them
// to a job object's termination or a Ctrl-C.
#define SIGHUP 1
#define SIGQUIT 3
#define SIGKILL 9
#define SIGUSR1 10
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGWINCH 28
#undef NSIG
#define NSIG 65
// Files are opened binary (no \n to \r\n) and not inherited by children.
#define O_CLOEXEC (_O_NOINHERIT | _O_BINARY)
typedef int uid_t;
inline uid_t getuid() { return 0; }
#endif

namespace tuidriver {

#ifndef _WIN32
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
#endif

// Files and directories by their UTF-8 names: every path the daemon opens,
// lists or checks goes through these. POSIX (platform_posix.cc): the calls
// themselves. Windows: the C library's narrow calls read a name in the ANSI
// code page, which cannot hold every name (a --record into 日本/ is not
// found), so these convert it to UTF-16 and call _wopen, _wfopen, _wstat64,
// _wopendir and _wfullpath.
int OpenFd(const std::string& path, int flags, int mode = 0);  // open(2): -1 and errno on failure
FILE* OpenStream(const std::string& path, const char* mode);  // fopen(3)
// stat(2), or lstat(2) when !follow_links (Windows has no links to tell apart).
bool StatPath(const std::string& path, struct stat* st, bool follow_links = true);
// The names in `dir` as readdir(3) gives them, `.` and `..` included, in no
// order; false when it cannot be opened.
bool ListDirectory(const std::string& dir, std::vector<std::string>* names);
// realpath(3) (Windows: the full path, not resolving links); empty on failure.
std::string RealPath(const std::string& path);
// Where `path`'s last directory separator is (npos: none): '/', and on
// Windows a backslash too (an engine file given as Z:\dir\node.json).
size_t LastPathSeparator(const std::string& path);
// The environment variable `name`; empty when unset. Windows: _wgetenv in UTF-8.
std::string EnvVar(const char* name);

// Makes fd non-blocking; false where it cannot be (a Windows pipe: writes
// to it block, see docs/windows.md).
bool SetNonblocking(int fd);

// Waits up to timeout_ms for fd to take more bytes (POLLOUT).
void WaitWritable(int fd, int timeout_ms);

// Gives the heap's free pages back to the OS. The allocator keeps its peak
// otherwise: a session that once took in a flood would hold it for life.
void ReleaseFreeMemory();

// Takes a lock on the open file `fd` without waiting: exclusive, or shared
// (many shared holders at once, none beside an exclusive one). False while
// another open of the file (any process) holds a lock in the way. Closing
// fd, or the process's end, releases it. POSIX: flock; Windows: LockFileEx.
bool TryLockFile(int fd, bool shared);

// Where temporary files go: $TMPDIR, else /tmp. Windows: GetTempPath.
std::string TempDir();

// The home directory the child gets when the engine sets none: $HOME, else
// /etc/passwd's entry for our uid (home.h). Windows: %USERPROFILE%.
std::string DefaultHome();

// Called first in main. Windows: stdin and stdout in binary mode, and the
// exec helper (conpty_process.h) when this process was started as one;
// returns its exit code then. -1: go on (every other platform).
int StartPlatform(int argc, char** argv);

// The program's arguments (argv[0] first) in UTF-8. POSIX: argv as given.
// Windows: main's argv is in the ANSI code page, which cannot hold every
// name (a --cwd of 日本 comes out as "??"), so the UTF-16 command line is
// split again (GetCommandLineW, CommandLineToArgvW) and converted.
std::vector<std::string> ProgramArguments(int argc, char** argv);

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
