// The daemon: one child on a PTY, one terminal emulator, and the NDJSON
// protocol on stdin/stdout, driven by a single-threaded ppoll loop.
//
// The Session owns everything it uses, and is only the loop: it polls
// stdin, the PTY and stdout, reads requests and output, and hands them to
// the parts, each of which has one job, reads the time as a parameter
// (Update(..., now)) and says when it must run next (next_wakeup()); the
// loop sleeps until the earliest of those, as mosh's server does:
//   AskQueue         asks in arrival order, one at a time, and the resync
//                    (interrupt, wait for the reaction, nudge) after one
//                    that timed out, was cancelled or ended at a question;
//   DialogResponder  answers the engine's dialogs with their keys;
//   Waiters          expect and wait_idle;
//   Closer           settle, quit keys, SIGTERM, SIGKILL.
// The parts reach the child through ChildInput/ChildSignals and stdout
// through MessageSink, so each is tested with fakes and a fake clock.
// Requests other than ask, expect, wait_idle and close are answered at once.
#ifndef TUIDRIVER_SESSION_H_
#define TUIDRIVER_SESSION_H_

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "ask.h"
#include "ask_queue.h"
#include "closer.h"
#include "dialog_responder.h"
#include "engine_config.h"
#include "json_writer.h"
#include "output.h"
#include "pty_process.h"
#include "request.h"
#include "screen_matcher.h"
#include "terminal.h"
#include "transcript.h"
#include "utf8.h"
#include "waiters.h"

namespace tuidriver {

struct SessionOptions {
  // For a raw session only command and size are set. engine.command is the
  // full argv, agent_args and --extra-arg values already appended.
  EngineConfig engine;
  bool raw = false;     // no engine: ask is refused, ready comes at once
  std::string mode = "exec";  // "exec" or "agent": selects dialog rules
  std::string cwd;
  size_t scrollback_lines = 10000;
  // Engines with a transcript: this session's id and its file.
  std::string session_id;       // empty: the CLI names it (read from its file)
  std::string transcript_path;  // the file, or a glob (docs/engines.md)
  std::string transcript_cwd;   // absolute: how a glob's match names its session
};

class Session {
 public:
  Session(SessionOptions options, int in_fd, int out_fd);
  ~Session();

  // Spawns the child and runs until close or stdin EOF. Returns the exit
  // code: 0, or 3 when the program could not start or never became ready.
  int Run();

 private:
  enum class State { kStarting, kReady, kExited };

  // The parts reach the child and stdout through these (fakes in tests).
  class PtyChild : public ChildInput, public ChildSignals {
   public:
    explicit PtyChild(PtyProcess* pty) : pty_(pty) {}
    void Write(const std::string& bytes) override { pty_->Write(bytes); }
    void SignalForeground(int sig) override { pty_->SignalForeground(sig); }
    void SignalGroup(int sig) override { pty_->SignalGroup(sig); }
   private:
    PtyProcess* pty_;
  };
  class OutputSink : public MessageSink {
   public:
    explicit OutputSink(Output* out) : out_(out) {}
    void Send(const std::string& line) override { out_->Send(line); }
   private:
    Output* out_;
  };

  bool Spawn();
  // The poll timeout: until the earliest wake-up any part asks for.
  int PollTimeoutMs(TimePoint now) const;
  void HandleSignals();

  // Child side.
  void ReadChild(size_t budget);
  void FeedChild(const char* data, size_t len);
  void CheckChildExit();
  void ReportExit();
  // After output or a wake-up: each part looks at the screen and the time.
  void OnScreen(TimePoint now);
  bool MidFrame(TimePoint now);
  void CheckReady(TimePoint now);
  void ReportNotReady(const std::string& error);
  // Every request still waiting (queued asks, expect, wait_idle) gets its
  // one reply: the program is gone or never became ready.
  void FailPending(const std::string& kind, const std::string& why);
  // No more requests can come and none waits: close, as EOF implies.
  bool NothingPending() const { return asks_.empty() && waiters_.empty(); }
  void UpdateWaiters(TimePoint now);

  // Client side: request framing and dispatch.
  void ReadRequests();
  // Adds bytes of the current request line to in_buf_; false (and the line
  // refused) once it would pass kMaxRequestBytes.
  bool AppendRequestBytes(const char* data, size_t len);
  void HandleLine(const std::string& line);
  void Dispatch(Request& request);
  void HandleAsk(Request& request);
  void HandleInput(const Request& request);
  void HandleScrollback(const Request& request);
  void HandleExpect(Request& request);
  void HandleWaitIdle(Request& request);
  void HandleSignal(const Request& request);
  void HandleStatus(const Request& request);
  void HandleSubscribe(const Request& request);
  bool IdInUse(const RequestId& id) const;
  // send, keys and paste are refused while more than this much input the
  // program has not read waits (see PtyProcess::Write).
  static constexpr size_t kMaxPendingInput = 1 << 20;

  // Close: the Closer runs the phases; these start and end it.
  void BeginClose(const RequestId* id);
  void AdvanceClose(TimePoint now);
  void FinishClose();

  // Replies. Every line goes through messages.h.
  void ReplyOk(const RequestId& id, const JsonObject& fields = JsonObject());
  void ReplyError(const RequestId& id, const std::string& kind,
                  const std::string& error, const JsonObject& fields = JsonObject());
  JsonObject ScreenFields() const;
  // "exit_code":N,"signal":null or "exit_code":null,"signal":"SIGKILL".
  JsonObject ExitFields() const;
  // A close's reply: "text":"" and the exit fields.
  JsonObject CloseFields() const {
    JsonObject o;
    o.Add("text", "");
    return o.Merge(ExitFields());
  }
  // The same for people: "the program exited with code 3".
  std::string ExitDescription() const;

  SessionOptions options_;
  int in_fd_;
  Output out_;
  OutputSink sink_{&out_};
  PtyProcess pty_;
  PtyChild child_{&pty_};
  Terminal term_;
  ScreenMatcher matcher_;
  RequestParser parser_;
  Utf8Sanitizer output_utf8_;
  TranscriptReader transcript_;

  // The parts, each with Update(..., now) and next_wakeup().
  AskQueue asks_;             // asks, their replies, and the resync between them
  DialogResponder dialogs_;   // the engine's dialogs
  Waiters waiters_;           // expect and wait_idle
  Closer closer_;             // settle, quit keys, SIGTERM, SIGKILL

  State state_ = State::kStarting;
  TimePoint ready_deadline_;
  TimePoint ready_wake_ = TimePoint::max();  // the ready screen's settle time
  bool stdin_open_ = true;
  bool stdin_tty_ = false;
  std::string in_buf_;
  bool discarding_long_line_ = false;
  bool subscribed_output_ = false;
  bool child_reaped_ = false;
  bool quit_ = false;
  int exit_code_ = 0;
  TimePoint last_output_;
  // Program output read before requests are looked at again: about 4 ms of
  // rendering, so a flood never holds up a `screen` or `cancel` for long.
  static constexpr size_t kReadBudget = 256 << 10;
  // The synchronized update (frame) the screen was last seen inside, and
  // since when; see MidFrame.
  uint64_t frame_seen_ = 0;
  TimePoint frame_started_;
  static constexpr int kFrameLimitMs = 500;

  std::vector<RequestId> close_ids_;
  bool closing_ = false;
  bool closed_ = false;  // FinishClose ran: a later close is answered at once
  // Closing because we were signalled, our parent died, or the program
  // never became ready: no quit keys and a short SIGTERM grace.
  bool urgent_close_ = false;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_SESSION_H_
