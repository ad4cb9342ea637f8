// The Windows loop (session.h): WaitForMultipleObjects on the console's
// overlapped output and input pipes, the child's process handle, our
// parent's process handle (its death closes the session, as SIGTERM does on
// POSIX), an event set on Ctrl-C, Ctrl-Break or the closing of our own
// console (the same again) and a thread reading stdin, which on Windows
// cannot be waited on.
// What to do with it all is SessionCore's, as on POSIX.
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "session.h"

namespace tuidriver {
namespace {

// Reads stdin on a thread into memory and signals an event when bytes or
// the end arrive. It stops reading while a lot waits untaken (the loop
// takes nothing while stdout is congested), which bounds the memory.
class StdinReader {
 public:
  explicit StdinReader(HANDLE in) : state_(std::make_shared<State>()) {
    state_->event = CreateEventW(nullptr, FALSE, FALSE, nullptr);
    // Detached: a thread blocked in ReadFile cannot be joined; the state it
    // uses is shared, so it outlives the reader.
    std::thread([state = state_, in] { Loop(state, in); }).detach();
  }
  HANDLE event() const { return state_->event; }
  // Moves what was read into *out; *eof once stdin has ended.
  void Take(std::string* out, bool* eof) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    out->swap(state_->bytes);
    state_->bytes.clear();
    *eof = state_->eof && out->empty();
    if (state_->eof && !out->empty()) SetEvent(state_->event);  // the end, next time
    state_->room.notify_one();
  }

 private:
  static constexpr size_t kMaxWaiting = 8 << 20;
  struct State {
    HANDLE event;
    std::mutex mutex;
    std::condition_variable room;
    std::string bytes;
    bool eof = false;
  };
  static void Loop(std::shared_ptr<State> state, HANDLE in) {
    char buf[65536];
    for (;;) {
      DWORD n = 0;
      bool ok = ReadFile(in, buf, sizeof buf, &n, nullptr) && n > 0;
      std::unique_lock<std::mutex> lock(state->mutex);
      if (!ok) {
        state->eof = true;
        SetEvent(state->event);
        return;
      }
      state->bytes.append(buf, n);
      SetEvent(state->event);
      state->room.wait(lock, [&] { return state->bytes.size() < kMaxWaiting; });
    }
  }
  std::shared_ptr<State> state_;
};

// A console control handler takes no argument: these two events are how it
// reaches the loop, as session.cc's signal handlers do through flags.
HANDLE g_console_ctrl = nullptr;  // set by the handler: end the session
HANDLE g_session_ended = nullptr;  // set by Run once the session has ended

// Ctrl-C, Ctrl-Break and the closing of tuidriver's own console end the
// session as SIGINT, SIGTERM and SIGHUP do on POSIX. On CTRL_CLOSE_EVENT
// Windows ends the process once the handler returns (or after about 5 s):
// it returns once the child is ended and `exit` written, if that is sooner.
BOOL WINAPI OnConsoleCtrl(DWORD type) {
  if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT && type != CTRL_CLOSE_EVENT) return FALSE;
  SetEvent(g_console_ctrl);
  if (type == CTRL_CLOSE_EVENT) WaitForSingleObject(g_session_ended, 4500);
  return TRUE;
}

// Once the program has exited, its last output is read until the pseudo
// console's pipe ends; this long at most.
constexpr int kDrainAfterExitMs = 2000;

}  // namespace

Session::Session(SessionOptions options, int in_fd, int out_fd)
    : options_(std::move(options)), in_fd_(in_fd), out_(out_fd), core_(options_, &child_, &sink_) {}

Session::~Session() = default;

int Session::Run() {
  HANDLE parent = OpenParentProcess();
  // After the wait, as on POSIX: until then Ctrl-C ends us at once.
  WaitToStartAlone();
  g_console_ctrl = CreateEventW(nullptr, TRUE, FALSE, nullptr);  // reset below
  g_session_ended = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  SetConsoleCtrlHandler(OnConsoleCtrl, TRUE);
  if (!Spawn()) return 3;
  StdinReader reader(reinterpret_cast<HANDLE>(_get_osfhandle(in_fd_)));
  bool exited = false;
  TimePoint drain_until = TimePoint::max();
  TimePoint now = Clock::now();
  core_.Start(now);
  while (!core_.done()) {
    std::vector<HANDLE> handles;
    if (stdin_open_ && !out_.congested()) handles.push_back(reader.event());
    if (!child_reaped_ && !pty_.output_ended()) handles.push_back(pty_.read_event());
    if (!child_reaped_ && pty_.input_pending()) handles.push_back(pty_.write_event());
    if (!exited) handles.push_back(pty_.process());
    handles.push_back(g_console_ctrl);
    if (parent) handles.push_back(parent);
    int timeout = PollTimeoutMs(now);
    if (exited) timeout = std::min(timeout, 20);
    DWORD woke = WAIT_TIMEOUT;
    if (handles.empty()) Sleep(static_cast<DWORD>(timeout));
    else woke = WaitForMultipleObjects(static_cast<DWORD>(handles.size()), handles.data(), FALSE,
                                       static_cast<DWORD>(timeout));
    if (parent && woke == WAIT_OBJECT_0 + handles.size() - 1) {
      CloseHandle(parent);  // our parent is gone: close, as on SIGTERM
      parent = nullptr;
      stdin_open_ = false;
      core_.OnTerminate(Clock::now());
    }
    if (WaitForSingleObject(g_console_ctrl, 0) == WAIT_OBJECT_0) {
      ResetEvent(g_console_ctrl);  // a second one hurries the close, as on POSIX
      stdin_open_ = false;
      core_.OnTerminate(Clock::now());
    }
    // Each source is cheap to look at: look at all of them.
    if (!child_reaped_) ReadChild(kReadBudget);
    if (pty_.input_pending()) pty_.FlushInput();
    if (stdin_open_ && !out_.congested()) {
      std::string bytes;
      bool eof = false;
      reader.Take(&bytes, &eof);
      if (!bytes.empty()) TakeRequestBytes(bytes.data(), bytes.size());
      if (eof) EndOfRequests();
    }
    if (!exited && pty_.TryReap()) {
      exited = true;
      drain_until = Clock::now() + Ms(kDrainAfterExitMs);
    }
    if (exited && !child_reaped_ && (pty_.output_ended() || Clock::now() >= drain_until)) CheckChildExit();
    now = Clock::now();
    core_.Tick(now);
    if (!out_.Flush()) core_.OnStdoutGone(now);
    ReleaseMemoryWhenIdle(now);
    ReleaseStartLockOnceStarted();
  }
  out_.Drain(2000);
  if (parent) CloseHandle(parent);
  SetEvent(g_session_ended);
  return core_.exit_code();
}

void Session::ReadChild(size_t budget) {
  std::string chunk;
  size_t total = 0;
  while (total < budget) {
    chunk.clear();
    if (pty_.ReadOutput(&chunk) <= 0) return;  // nothing now, or EOF
    core_.OnOutput(chunk.data(), chunk.size(), Clock::now());
    total += chunk.size();
    output_since_release_ += chunk.size();
  }
}

// The program has exited and its output has ended (or the drain timed out).
void Session::CheckChildExit() {
  ReadChild(SIZE_MAX);
  child_reaped_ = true;
  pty_.DropInput();  // nobody will read it
  core_.OnChildExit(Clock::now());
}

bool Session::PtyChild::Signal(int sig, std::string* err) {
  if (pty_->SignalForeground(sig)) return true;
  *err = "SIG" + SignalName(sig) + " has no Windows equivalent here (INT, TERM, KILL, HUP and QUIT do)";
  return false;
}

void Session::PtyChild::KillLeftovers() { pty_->KillTree(); }

}  // namespace tuidriver
