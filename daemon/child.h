// The running program and the daemon's stdout as the pure parts see them:
// small interfaces, implemented over the PTY and stdout in session.h and by
// fakes in tests (test_fakes.h). Nothing here does I/O.
#ifndef TUIDRIVER_CHILD_H_
#define TUIDRIVER_CHILD_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "platform.h"

namespace tuidriver {

// Where keystrokes go: the child's PTY, or a fake in tests.
class ChildInput {
 public:
  virtual ~ChildInput() = default;
  virtual void Write(const std::string& bytes) = 0;
  // Sends a prompt through the program's prompt pipe (SpawnOptions in
  // pty_process.h) and returns its number; 0 where there is no pipe.
  virtual uint64_t PipePrompt(const std::string&) { return 0; }
  // Tells the helper through the pipe that prompt `number` (and any before
  // it) is void: its ask ended before the helper took it, so an Enter meant
  // for something else must not run it.
  virtual void DropPrompt(uint64_t) {}
  // Whether the program waits reading the terminal (platform.h). Unknown
  // where it cannot be observed: the engine's patterns decide then.
  virtual TerminalReader ReadsTerminal() const = 0;
};

// Signals to the child: the PTY's foreground job and the child's group.
class ChildSignals {
 public:
  virtual ~ChildSignals() = default;
  virtual void SignalForeground(int sig) = 0;
  virtual void SignalGroup(int sig) = 0;
};

// How a child ended, as waitpid reported it.
struct ExitStatus {
  bool exited = false;  // false until reaped
  int code = -1;        // exit code, or -1 when killed by a signal
  int signal = 0;       // terminating signal, 0 when it exited normally
};

// The running program, as the session sees it: the PTY, or a fake.
class SessionChild : public ChildInput, public ChildSignals {
 public:
  // The `signal` request: to the foreground job. False with *err.
  virtual bool Signal(int sig, std::string* err) = 0;
  virtual void Resize(int cols, int rows) = 0;
  virtual int64_t pid() const = 0;
  virtual int64_t ForegroundPid() const = 0;
  virtual std::string Cwd() const = 0;
  // Input written but not yet read by the program.
  virtual size_t input_pending() const = 0;
  // Valid once OnChildExit was called.
  virtual ExitStatus exit_status() const = 0;
  // The end of a close: the process group and any descendants re-parented
  // to us are killed.
  virtual void KillLeftovers() = 0;
};

// Where outgoing lines (replies, chunks, events; built by messages.h) go:
// the daemon's stdout, or a fake in tests.
class MessageSink {
 public:
  virtual ~MessageSink() = default;
  virtual void Send(const std::string& line) = 0;
  // Raw program output for subscribers: may be dropped when the reader
  // lags (see Output::SendDroppable).
  virtual void SendDroppable(const std::string& line, size_t raw_bytes) { Send(line); }
};

// Maps "INT", "SIGINT", "int" or "2" to a signal number; 0 if unknown.
int SignalFromName(const std::string& name);
// "INT" for SIGINT; the number as text if unknown.
std::string SignalName(int sig);

}  // namespace tuidriver

#endif  // TUIDRIVER_CHILD_H_
