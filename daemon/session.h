// The daemon's loop: one child on a PTY and the NDJSON protocol on
// stdin/stdout, driven by a single-threaded ppoll loop (session.cc; on
// Windows a WaitForMultipleObjects loop around a ConPTY, session_windows.cc;
// what both share is in session_common.cc). It only polls,
// reads (program output, request lines), writes (stdout, queued PTY input)
// and handles signals; what to do with all that is SessionCore's, which it
// gives the time and asks for the next wake-up (session_core.h lists the
// parts). The loop sleeps until the earliest of those, as mosh's server
// does, and never for a wake-up that has passed.
#ifndef TUIDRIVER_SESSION_H_
#define TUIDRIVER_SESSION_H_

#include <string>

#include "output.h"
#include "pty_process.h"
#include "session_core.h"
#include "start_lock.h"
#ifdef _WIN32
#include "conpty_process.h"
#endif

namespace tuidriver {

class Session {
 public:
  Session(SessionOptions options, int in_fd, int out_fd);
  ~Session();

  // Spawns the child and runs until close or stdin EOF. Returns the exit
  // code: 0, or 3 when the program could not start or never became ready.
  int Run();

 private:
#ifdef _WIN32
  using ChildProcess = ConptyProcess;
#else
  using ChildProcess = PtyProcess;
#endif
  // The core reaches the program and stdout through these.
  class PtyChild : public SessionChild {
   public:
    explicit PtyChild(ChildProcess* pty) : pty_(pty) {}
    void Write(const std::string& bytes) override { pty_->Write(bytes); }
    uint64_t PipePrompt(const std::string& prompt) override { return pty_->PipePrompt(prompt); }
    void DropPrompt(uint64_t number) override { pty_->DropPrompt(number); }
    void SignalForeground(int sig) override { pty_->SignalForeground(sig); }
    void SignalGroup(int sig) override { pty_->SignalGroup(sig); }
    bool Signal(int sig, std::string* err) override;
    void Resize(int cols, int rows) override { pty_->Resize(cols, rows); }
    int64_t pid() const override { return pty_->pid(); }
    int64_t ForegroundPid() const override { return pty_->ForegroundPid(); }
    std::string Cwd() const override { return pty_->Cwd(); }
    size_t input_pending() const override { return pty_->input_pending(); }
    TerminalReader ReadsTerminal() const override { return pty_->ReadsTerminal(); }
    ExitStatus exit_status() const override { return pty_->exit_status(); }
    void KillLeftovers() override;
   private:
    ChildProcess* pty_;
  };
  class OutputSink : public MessageSink {
   public:
    explicit OutputSink(Output* out) : out_(out) {}
    void Send(const std::string& line) override { out_->Send(line); }
    void SendDroppable(const std::string& line, size_t raw_bytes) override {
      out_->SendDroppable(line, raw_bytes);
    }
   private:
    Output* out_;
  };

  // A CLI whose first start cannot share the home waits for the one under
  // way (start_lock.h); the lock is held until the program is ready.
  void WaitToStartAlone();
  void ReleaseStartLockOnceStarted();
  bool Spawn();
  int PollTimeoutMs(TimePoint now) const;
  void ReleaseMemoryWhenIdle(TimePoint now);
  void HandleSignals();
  void ReadChild(size_t budget);
  void CheckChildExit();
  // Request framing: lines from stdin, of any kind (pipe, file, socket, TTY).
  void ReadRequests();
  // Bytes read from stdin, cut into request lines; then its end.
  void TakeRequestBytes(const char* data, size_t len);
  void EndOfRequests();
  // Adds bytes of the current request line to in_buf_; false (and the line
  // refused) once it would pass kMaxRequestBytes.
  bool AppendRequestBytes(const char* data, size_t len);
  void HandleLine(const std::string& line);

  SessionOptions options_;
  int in_fd_;
  Output out_;
  OutputSink sink_{&out_};
  ChildProcess pty_;
  PtyChild child_{&pty_};
  SessionCore core_;

  bool stdin_open_ = true;
  bool stdin_tty_ = false;
  std::string in_buf_;
  bool discarding_long_line_ = false;
  bool child_reaped_ = false;
  std::unique_ptr<StartLock> start_lock_;
  // Program output read before requests are looked at again: about 4 ms of
  // rendering, so a flood never holds up a `screen` or `cancel` for long.
  static constexpr size_t kReadBudget = 256 << 10;
  // Program output read since the heap's free pages last went back to the
  // OS; past kReleaseAfterBytes, they go once the session is idle.
  size_t output_since_release_ = 0;
  static constexpr size_t kReleaseAfterBytes = 256 << 10;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_SESSION_H_
