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
  // The wait comes before the signal handlers: SIGTERM, or the parent's
  // end, stops a waiting session at once (it has no child yet).
  DieWithParent();
  WaitToStartAlone();
  sigset_t wait_mask;
  InstallSignals(&wait_mask);
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
    ReleaseMemoryWhenIdle(now);
    ReleaseStartLockOnceStarted();
  }
  out_.Drain(2000);
  return core_.exit_code();
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
    output_since_release_ += static_cast<size_t>(n);
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
      EndOfRequests();
      return;
    }
    TakeRequestBytes(buf, static_cast<size_t>(n));
    if (stdin_tty_) return;  // a second read would block until the next line
    // A pipe's read returns all it holds: a short one left it empty, and a
    // second read would only say EAGAIN.
    if (static_cast<size_t>(n) < sizeof buf) return;
  }
}

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
