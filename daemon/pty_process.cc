#include "pty_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>

#include "platform.h"

extern char** environ;

namespace tuidriver {
namespace {

bool SetCloexec(int fd) {
  int flags = fcntl(fd, F_GETFD);
  return flags >= 0 && fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0;
}

bool SetNonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

std::string Errno(const char* what) {
  return std::string(what) + ": " + strerror(errno);
}

// True when `name` is stripped by `pattern`: an exact name, or a prefix
// followed by '*' ("CI_*" strips CI_TOKEN, the way is-in-ci looks for them).
bool StripMatches(const std::string& pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*') {
    return name.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  }
  return pattern == name;
}

// Builds the child's environment before fork: allocation after fork is not
// async-signal-safe.
std::vector<std::string> ChildEnvironment(const SpawnOptions& options) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string entry(*e);
    std::string name = entry.substr(0, entry.find('='));
    bool stripped = options.env_set.count(name) > 0;
    for (const std::string& s : options.env_strip) stripped |= StripMatches(s, name);
    if (!stripped) env.push_back(entry);
  }
  for (const auto& kv : options.env_set) env.push_back(kv.first + "=" + kv.second);
  return env;
}

// Finds argv0 on PATH the way execvp would, so that "not found" is known
// before fork and reported as a spawn error.
bool ResolveCommand(const std::string& argv0, const std::string& path_env,
                    std::string* resolved) {
  if (argv0.find('/') != std::string::npos) {
    *resolved = argv0;
    return access(argv0.c_str(), X_OK) == 0;
  }
  size_t start = 0;
  while (start <= path_env.size()) {
    size_t end = path_env.find(':', start);
    if (end == std::string::npos) end = path_env.size();
    std::string dir = path_env.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + argv0;
    if (access(candidate.c_str(), X_OK) == 0) {
      *resolved = candidate;
      return true;
    }
    start = end + 1;
  }
  return false;
}

// Runs in the child between fork and exec: only async-signal-safe calls.
[[noreturn]] void ExecChild(int slave, int error_pipe, int prompt_pipe, const char* path,
                            char* const* argv, char* const* envp,
                            const char* cwd) {
  for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
  // The daemon blocks SIGCHLD/SIGINT/... outside ppoll; the child starts
  // with nothing blocked, as it would from a shell.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  setsid();
  ioctl(slave, TIOCSCTTY, 0);
  dup2(slave, 0);
  dup2(slave, 1);
  dup2(slave, 2);
  // error_pipe is close-on-exec; the prompt pipe's read end is the child's.
  if (prompt_pipe >= 0) fcntl(prompt_pipe, F_SETFD, 0);
  CloseFdsExcept(error_pipe, prompt_pipe);
  if (cwd[0] != '\0' && chdir(cwd) != 0) {
    int e = errno;
    ssize_t unused = write(error_pipe, "C", 1);
    unused = write(error_pipe, &e, sizeof e);
    (void)unused;
    _exit(127);
  }
  execve(path, argv, envp);
  int e = errno;
  ssize_t unused = write(error_pipe, "E", 1);
  unused = write(error_pipe, &e, sizeof e);
  (void)unused;
  _exit(127);
}

bool OpenPty(int cols, int rows, int* master, int* slave, std::string* err) {
  int m = posix_openpt(O_RDWR | O_NOCTTY);
  if (m < 0) {
    *err = Errno("posix_openpt");
    return false;
  }
  if (grantpt(m) != 0 || unlockpt(m) != 0) {
    *err = Errno("grantpt/unlockpt");
    close(m);
    return false;
  }
  const char* name = ptsname(m);
  int s = name ? open(name, O_RDWR | O_NOCTTY) : -1;
  if (s < 0) {
    *err = Errno("open pty slave");
    close(m);
    return false;
  }
  struct winsize ws = {};
  ws.ws_col = static_cast<unsigned short>(cols);
  ws.ws_row = static_cast<unsigned short>(rows);
  ioctl(s, TIOCSWINSZ, &ws);
  // A sane terminal: UTF-8 input processing where the platform has it.
  struct termios t;
  if (tcgetattr(s, &t) == 0) {
#ifdef IUTF8
    t.c_iflag |= IUTF8;
#endif
    tcsetattr(s, TCSANOW, &t);
  }
  SetCloexec(m);
  SetCloexec(s);
  SetNonblocking(m);
  *master = m;
  *slave = s;
  return true;
}

// Reads the child's exec report: empty pipe means exec succeeded.
bool ReadExecReport(int fd, const std::string& argv0, const std::string& cwd,
                    std::string* err) {
  char kind = 0;
  int child_errno = 0;
  ssize_t n;
  do n = read(fd, &kind, 1); while (n < 0 && errno == EINTR);
  if (n <= 0) return true;
  ssize_t m;
  do m = read(fd, &child_errno, sizeof child_errno); while (m < 0 && errno == EINTR);
  if (kind == 'C') {
    *err = "cannot change directory to " + cwd + ": " + strerror(child_errno);
  } else {
    *err = argv0 + ": " + strerror(child_errno);
  }
  return false;
}

void ClosePair(int ends[2]) {
  for (int i = 0; i < 2; ++i) {
    if (ends[i] >= 0) close(ends[i]);
  }
}

// The prompt pipe's two ends, close-on-exec (the read end is opened for the
// child after fork), the write end non-blocking. False if there is none.
bool OpenPromptPipe(int ends[2]) {
  if (pipe(ends) != 0) return false;
  SetCloexec(ends[0]);
  SetCloexec(ends[1]);
  SetNonblocking(ends[1]);
  return true;
}

// Bytes wait to be read from fd. poll, unlike FIONREAD, first moves what is
// still in the kernel's flip buffer (written a moment ago) to where it is read.
bool Readable(int fd) {
  struct pollfd pfd = {fd, POLLIN, 0};
  return fd >= 0 && poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN);
}

}  // namespace

PtyProcess::~PtyProcess() {
  if (master_ >= 0) close(master_);
  if (slave_ >= 0) close(slave_);
  if (prompt_fd_ >= 0) close(prompt_fd_);
}

bool PtyProcess::Spawn(const SpawnOptions& options, std::string* err) {
  if (options.argv.empty() || options.argv[0].empty()) {
    *err = "empty command";
    return false;
  }
  int prompt_pipe[2] = {-1, -1};
  SpawnOptions with_pipe = options;
  if (options.prompt_pipe && OpenPromptPipe(prompt_pipe)) {
    with_pipe.env_set["TUIDRIVER_PROMPT_FD"] = std::to_string(prompt_pipe[0]);
  } else {
    with_pipe.env_strip.push_back("TUIDRIVER_PROMPT_FD");  // not ours: a session we run in
  }
  std::vector<std::string> env = ChildEnvironment(with_pipe);
  std::string path_env = "/usr/local/bin:/usr/bin:/bin";
  for (const std::string& e : env) {
    if (e.compare(0, 5, "PATH=") == 0) path_env = e.substr(5);
  }
  std::string path;
  if (!ResolveCommand(options.argv[0], path_env, &path)) {
    *err = options.argv[0] + ": command not found";
    ClosePair(prompt_pipe);
    return false;
  }
  executable_ = path;
  if (!OpenPty(options.cols, options.rows, &master_, &slave_, err)) {
    ClosePair(prompt_pipe);
    return false;
  }

  std::vector<char*> argv, envp;
  for (const std::string& a : options.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  int report[2];
  if (pipe(report) != 0) {
    *err = Errno("pipe");
    ClosePair(prompt_pipe);
    return false;
  }
  SetCloexec(report[0]);
  SetCloexec(report[1]);

  sigset_t all, old_mask;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old_mask);
  pid_t pid = fork();
  if (pid == 0) {
    ExecChild(slave_, report[1], prompt_pipe[0], path.c_str(), argv.data(), envp.data(),
              options.cwd.c_str());
  }
  int fork_errno = errno;
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  close(report[1]);
  if (prompt_pipe[0] >= 0) close(prompt_pipe[0]);  // the child's end
  prompt_fd_ = prompt_pipe[1];
  prompts_run_ = options.prompts_run;
  if (pid < 0) {
    close(report[0]);
    errno = fork_errno;
    *err = Errno("fork");
    return false;
  }
  pid_ = pid;
  bool ok = ReadExecReport(report[0], options.argv[0], options.cwd, err);
  close(report[0]);
  if (!ok) {
    while (!TryReap()) usleep(1000);
    return false;
  }
  return true;
}

bool PendingWrites::Write(int fd, const char* data, size_t len) {
  bytes_.append(data, len);
  return Flush(fd);
}

bool PendingWrites::Flush(int fd) {
  while (sent_ < bytes_.size()) {
    ssize_t n = write(fd, bytes_.data() + sent_, bytes_.size() - sent_);
    if (n > 0) {
      sent_ += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;  // the reader is not reading
    Drop();
    return false;
  }
  if (sent_ == bytes_.size()) {
    bytes_.clear();
    sent_ = 0;
  } else if (sent_ > (1u << 20)) {
    bytes_.erase(0, sent_);  // amortised, as in Output::Flush
    sent_ = 0;
  }
  return true;
}

void PendingWrites::Drop() {
  std::string().swap(bytes_);
  sent_ = 0;
}

uint64_t PtyProcess::PipePrompt(const std::string& prompt) {
  if (prompt_fd_ < 0) return 0;
  std::string message = std::to_string(++prompts_sent_) + " " + std::to_string(prompt.size()) +
                        (prompts_run_ ? " run\n" : "\n");
  message += prompt;
  if (prompts_run_ && (prompts_held() || TypedInputUnread())) {
    held_prompts_.emplace_back(prompts_sent_, std::move(message));
    return prompts_sent_;
  }
  // The reader is gone (EPIPE: the code closed the helper's end): 0, so that
  // the engine types the prompt itself, as for a program without a pipe.
  if (!prompts_.Write(prompt_fd_, message.data(), message.size())) {
    ClosePromptPipe();
    return 0;
  }
  return prompts_sent_;
}

void PtyProcess::DropPrompt(uint64_t number) {
  if (prompt_fd_ < 0) return;
  for (auto held = held_prompts_.begin(); held != held_prompts_.end(); ++held) {
    if (held->first != number) continue;
    held_prompts_.erase(held);
    return;
  }
  std::string message = std::to_string(number) + " drop\n";
  if (!prompts_.Write(prompt_fd_, message.data(), message.size())) ClosePromptPipe();
}

void PtyProcess::ReleasePrompts() {
  if (!prompts_held() || TypedInputUnread()) return;
  for (const auto& held : held_prompts_) {
    if (prompt_fd_ >= 0 && !prompts_.Write(prompt_fd_, held.second.data(), held.second.size())) ClosePromptPipe();
  }
  held_prompts_.clear();
}

bool PtyProcess::FlushPrompts() {
  if (prompt_fd_ < 0) return false;
  if (prompts_.Flush(prompt_fd_)) return true;
  ClosePromptPipe();
  return false;
}

// The program closed its end: nothing will read the pipe any more.
void PtyProcess::ClosePromptPipe() {
  close(prompt_fd_);
  prompt_fd_ = -1;
}

bool PtyProcess::TypedInputUnread() const {
  // (A poll of the slave also moves what the kernel's worker has not moved
  // yet into its queue: n_tty_poll.)
  return input_pending() > 0 || Readable(slave_);
}

TerminalReader PtyProcess::ReadsTerminal() const {
  // Input is looked at before the process: once none waits, the process
  // has taken all of it, and a read it is in waits for more.
  if (TypedInputUnread()) return TerminalReader::kNotReading;
  TerminalReader reader = ForegroundReadsTerminal(master_);
  // Output after: all it wrote before it began to read is there by then.
  if (reader == TerminalReader::kReading && Readable(master_)) return TerminalReader::kNotReading;
  return reader;
}

bool PtyProcess::Resize(int cols, int rows) {
  struct winsize ws = {};
  ws.ws_col = static_cast<unsigned short>(cols);
  ws.ws_row = static_cast<unsigned short>(rows);
  // Setting the size on the master makes the kernel send SIGWINCH to the
  // foreground process group.
  return ioctl(master_, TIOCSWINSZ, &ws) == 0;
}

bool PtyProcess::SignalForeground(int sig) {
  pid_t pgrp = tcgetpgrp(master_);
  if (pgrp > 0 && kill(-pgrp, sig) == 0) return true;
  return SignalGroup(sig);
}

bool PtyProcess::SignalGroup(int sig) {
  if (pid_ <= 0) return false;
  // The child is a session leader, so its pid is also its group id.
  return kill(-pid_, sig) == 0 || kill(pid_, sig) == 0;
}

bool PtyProcess::TryReap() {
  if (status_.exited) return true;
  if (pid_ <= 0) return false;
  int wstatus = 0;
  pid_t r;
  for (;;) {
    r = waitpid(-1, &wstatus, WNOHANG);
    if (r < 0 && errno == EINTR) continue;
    if (r > 0 && r != pid_) continue;  // an orphan we adopted: just reap it
    break;
  }
  if (r == 0) return false;
  if (r < 0 && kill(pid_, 0) == 0) return false;  // ECHILD race: still there
  status_.exited = true;
  if (r < 0) return true;  // not our child any more; treat as gone
  if (WIFEXITED(wstatus)) {
    status_.code = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    status_.signal = WTERMSIG(wstatus);
  }
  return true;
}

pid_t PtyProcess::ForegroundPid() const {
  if (master_ < 0) return -1;
  pid_t pgrp = tcgetpgrp(master_);
  return pgrp > 0 ? pgrp : pid_;
}

std::string PtyProcess::Cwd() const {
  pid_t pid = ForegroundPid();
  if (pid <= 0) return "";
  return ProcessCwd(pid);
}

ssize_t ReadAvailable(int fd, char* buf, size_t len) {
  for (;;) {
    ssize_t n = read(fd, buf, len);
    if (n > 0) return n;
    if (n == 0) return -1;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
    return -1;  // EIO on a PTY master: the slave side is gone
  }
}

int SignalOrphans(int sig) {
  int count = 0;
  for (pid_t pid : ChildPids(getpid())) {
    if (kill(pid, sig) == 0) ++count;
  }
  return count;
}

void ReapOrphans(int max_ms) {
  for (int waited = 0; waited <= max_ms; waited += 5) {
    pid_t r;
    do r = waitpid(-1, nullptr, WNOHANG); while (r > 0);
    if (r < 0 && errno == ECHILD) return;
    usleep(5000);
  }
}

}  // namespace tuidriver
