#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "messages.h"
#include "platform.h"

namespace tuidriver {
namespace {

// Set by signal handlers, read by the loop. Signals are blocked except
// inside ppoll, so the loop sees them right after waking.
volatile sig_atomic_t g_child_changed = 0;
volatile sig_atomic_t g_terminate = 0;

void OnSigchld(int) { g_child_changed = 1; }
void OnTerminate(int) { g_terminate = 1; }

void InstallSignals(sigset_t* wait_mask) {
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGCHLD);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, wait_mask);
  sigdelset(wait_mask, SIGCHLD);
  sigdelset(wait_mask, SIGTERM);
  sigdelset(wait_mask, SIGHUP);
  sigdelset(wait_mask, SIGINT);
  struct sigaction sa = {};
  sa.sa_handler = OnSigchld;
  sigaction(SIGCHLD, &sa, nullptr);
  sa.sa_handler = OnTerminate;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a closed stdout is an EPIPE, not a death
}

}  // namespace

Session::Session(SessionOptions options, int in_fd, int out_fd)
    : options_(std::move(options)),
      in_fd_(in_fd),
      out_(out_fd),
      core_(options_, &child_, &sink_) {
  // A TTY is left blocking: O_NONBLOCK would stay set on the terminal the
  // user's shell shares. ReadRequests then reads it once per wake-up.
  stdin_tty_ = isatty(in_fd_);
  int flags = fcntl(in_fd_, F_GETFL);
  if (flags >= 0 && !stdin_tty_) fcntl(in_fd_, F_SETFL, flags | O_NONBLOCK);
}

Session::~Session() = default;

int Session::Run() {
  sigset_t wait_mask;
  InstallSignals(&wait_mask);
  DieWithParent();
  BecomeSubreaper();
  if (!Spawn()) return 3;
  TimePoint now = Clock::now();
  core_.Start(now);
  while (!core_.done()) {
    // `now` is the time Tick last looked at everything: a wake-up time at
    // or before it was due then, so NextWakeup leaves it out.
    std::vector<struct pollfd> fds;
    bool want_stdin = stdin_open_ && !out_.congested();
    fds.push_back({want_stdin ? in_fd_ : -1, POLLIN, 0});
    short child_events = static_cast<short>(POLLIN | (pty_.input_pending() ? POLLOUT : 0));
    fds.push_back({child_reaped_ ? -1 : pty_.master_fd(), child_events, 0});
    fds.push_back({out_.pending() ? out_.fd() : -1, POLLOUT, 0});
    fds.push_back({pty_.prompts_pending() ? pty_.prompt_fd() : -1, POLLOUT, 0});
    int timeout = PollTimeoutMs(now);
    int n = PollWithSignalMask(fds.data(), fds.size(), timeout, &wait_mask);
    if (n < 0 && errno != EINTR) break;
    HandleSignals();
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) ReadChild(kReadBudget);
    if (fds[1].revents & POLLOUT) pty_.FlushInput();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) ReadRequests();
    if (fds[3].revents) pty_.FlushPrompts();  // POLLOUT, or POLLERR: the reader is gone
    pty_.ReleasePrompts();
    // No waitpid here: SIGCHLD is blocked outside ppoll, so an exit always
    // wakes ppoll and HandleSignals reaps it (one syscall less per read).
    now = Clock::now();
    core_.Tick(now);
    if (!out_.Flush()) core_.OnStdoutGone(now);
  }
  out_.Drain(2000);
  return core_.exit_code();
}

bool Session::Spawn() {
  SpawnOptions spawn;
  spawn.argv = options_.engine.command;
  spawn.env_set = options_.engine.env;
  // The emulator behaves like xterm and keeps 24-bit colours (SGR 38;2 and
  // 48;2, in `screen` with styles and in recordings); say so unless the
  // engine or the caller (--env) says otherwise.
  spawn.env_set.emplace("TERM", "xterm-256color");
  spawn.env_set.emplace("COLORTERM", "truecolor");
  spawn.env_strip = options_.engine.env_strip;
  spawn.cwd = options_.cwd;
  spawn.cols = options_.engine.cols;
  spawn.rows = options_.engine.rows;
  spawn.prompt_pipe = options_.engine.submit.wrap.find("{pipe}") != std::string::npos;
  spawn.prompts_run = options_.engine.submit.pipe_only;
  std::string err;
  if (pty_.Spawn(spawn, &err)) return true;
  out_.Send(SessionErrorMessage(ErrorKind::kSpawn, err));
  out_.Drain(1000);
  fprintf(stderr, "tuidriver: %s\n", err.c_str());
  return false;
}

int Session::PollTimeoutMs(TimePoint now) const {
  TimePoint wake = std::min(core_.NextWakeup(now), now + Ms(60000));
  // Held prompts go once the program has read the input before them, which
  // wakes nothing here: look again each millisecond.
  if (pty_.prompts_held()) wake = std::min(wake, now + Ms(1));
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count();
  return static_cast<int>(std::max<long long>(0, ms + 1));
}

void Session::HandleSignals() {
  if (g_child_changed) {
    g_child_changed = 0;
    CheckChildExit();
  }
  if (g_terminate) {
    g_terminate = 0;
    stdin_open_ = false;
    core_.OnTerminate(Clock::now());
  }
}

// ---- child side -----------------------------------------------------------

void Session::ReadChild(size_t budget) {
  char buf[65536];
  size_t total = 0;
  while (total < budget) {
    ssize_t n = ReadAvailable(pty_.master_fd(), buf, sizeof buf);
    if (n <= 0) return;  // EAGAIN, or EOF
    core_.OnOutput(buf, static_cast<size_t>(n), Clock::now());
    total += static_cast<size_t>(n);
    // A PTY read returns at most a few KiB however big the buffer, so a short
    // read does not mean the PTY is empty: while the program floods, reading
    // on saves a ppoll per read; once it pauses, one read says EAGAIN. (A
    // small read is no sign it paused: a TUI's frame can come in two, and
    // the screen is looked at between reads only when the PTY is empty.)
  }
}

void Session::CheckChildExit() {
  if (child_reaped_ || !pty_.TryReap()) return;
  // Everything the child wrote is in the master now: read it all before
  // reporting the exit (the slave stays open, so this ends at EAGAIN).
  ReadChild(SIZE_MAX);
  child_reaped_ = true;
  pty_.DropInput();  // nobody will read it
  core_.OnChildExit(Clock::now());
}

// ---- client side ----------------------------------------------------------

void Session::ReadRequests() {
  char buf[65536];
  for (int rounds = 0; rounds < 64 && !out_.congested(); ++rounds) {
    ssize_t n = read(in_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0) {
      stdin_open_ = false;
      if (!in_buf_.empty() && !discarding_long_line_) HandleLine(in_buf_);
      in_buf_.clear();
      core_.OnStdinEof(Clock::now());
      return;
    }
    size_t start = 0;
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
      if (buf[i] != '\n') continue;
      if (AppendRequestBytes(buf + start, i - start)) HandleLine(in_buf_);
      discarding_long_line_ = false;
      in_buf_.clear();
      // One long line must not keep its memory for the rest of the session.
      if (in_buf_.capacity() > (1u << 20)) std::string().swap(in_buf_);
      start = i + 1;
    }
    AppendRequestBytes(buf + start, static_cast<size_t>(n) - start);
    if (stdin_tty_) return;  // a second read would block until the next line
    // A pipe's read returns all it holds: a short one left it empty, and a
    // second read would only say EAGAIN.
    if (static_cast<size_t>(n) < sizeof buf) return;
  }
}

bool Session::AppendRequestBytes(const char* data, size_t len) {
  if (discarding_long_line_) return false;
  if (in_buf_.size() + len <= kMaxRequestBytes) {
    // A long line gets its room once, not by doubling: no copies, and no
    // trail of freed buffers behind it.
    if (in_buf_.size() + len > (1u << 20) && in_buf_.capacity() < kMaxRequestBytes) {
      in_buf_.reserve(kMaxRequestBytes);
    }
    in_buf_.append(data, len);
    return true;
  }
  // Refuse now, and discard the rest of the line as it arrives: the line
  // is never held whole, and no more than the limit is ever buffered.
  out_.Send(ReplyErrorMessage(RequestId(), ErrorKind::kProtocol, "request line longer than " +
                              std::to_string(kMaxRequestBytes) + " bytes; discarded"));
  std::string().swap(in_buf_);
  discarding_long_line_ = true;
  return false;
}

void Session::HandleLine(const std::string& line) { core_.OnLine(line, Clock::now()); }

bool Session::PtyChild::Signal(int sig, std::string* err) {
  if (pty_->SignalForeground(sig)) return true;
  *err = strerror(errno);
  return false;
}

void Session::PtyChild::KillLeftovers() {
  pty_->SignalGroup(SIGKILL);
  if (SignalOrphans(SIGKILL) > 0) ReapOrphans(1000);
}

}  // namespace tuidriver
