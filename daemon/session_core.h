// What a session does, without the I/O: requests in, program output in,
// replies and events out, each part asked for its wake-up. The loop
// (session.h) owns the fds, the PTY and the clock, and calls these entry
// points with the time; tests call them with a fake child, a fake sink and
// a fake clock (session_core_test.cc).
//
// The parts, each with one job, Update(..., now) and next_wakeup():
//   AskQueue         asks in arrival order, one at a time, and the resync
//                    (interrupt, wait for the reaction, nudge) after one
//                    that timed out, was cancelled or ended at a question;
//   DialogResponder  answers the engine's dialogs with their keys;
//   Waiters          expect and wait_idle;
//   Closer           settle, quit keys, SIGTERM, SIGKILL;
//   ProgramState     what a raw session's program does (ready, running,
//                    needs_input, fullscreen), for status and its event;
//   RawRun           a raw session's `run`: a line typed, its output once
//                    the program no longer runs.
// This class starts the program's life (ready or not_ready), dispatches
// requests, answers the ones that need no waiting, and ends the session:
// every request gets its one reply, also after not_ready, after the
// program exited, and after stdin's end (which waits for pending ones).
#ifndef TUIDRIVER_SESSION_CORE_H_
#define TUIDRIVER_SESSION_CORE_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "ask_queue.h"
#include "child.h"
#include "clock.h"
#include "closer.h"
#include "dialog_responder.h"
#include "engine_config.h"
#include "json_writer.h"
#include "output_batch.h"
#include "program_state.h"
#include "raw_run.h"
#include "recorder.h"
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
  std::string record_path;      // --record FILE: an asciicast v2 recording from the start
  std::string start_alone_until;  // engine's, {home} filled in: start_lock.h
};

// The child as the session's parts see it: what they write to it goes to
// the recording too (an asciicast "i" event). Terminal replies and secrets
// go to the child itself, unrecorded.
class RecordedChild : public SessionChild {
 public:
  RecordedChild(SessionChild* child, Recorder* recorder) : child_(child), recorder_(recorder) {}
  void Write(const std::string& bytes) override {
    recorder_->Input(bytes);
    child_->Write(bytes);
  }
  // (The recording has the line typed with it: the prompt's number.)
  uint64_t PipePrompt(const std::string& prompt) override { return child_->PipePrompt(prompt); }
  void DropPrompt(uint64_t number) override { child_->DropPrompt(number); }
  void SignalForeground(int sig) override { child_->SignalForeground(sig); }
  void SignalGroup(int sig) override { child_->SignalGroup(sig); }
  bool Signal(int sig, std::string* err) override { return child_->Signal(sig, err); }
  void Resize(int cols, int rows) override { child_->Resize(cols, rows); }
  int64_t pid() const override { return child_->pid(); }
  int64_t ForegroundPid() const override { return child_->ForegroundPid(); }
  std::string Cwd() const override { return child_->Cwd(); }
  size_t input_pending() const override { return child_->input_pending(); }
  TerminalReader ReadsTerminal() const override { return child_->ReadsTerminal(); }
  ExitStatus exit_status() const override { return child_->exit_status(); }
  void KillLeftovers() override { child_->KillLeftovers(); }

 private:
  SessionChild* child_;
  Recorder* recorder_;
};

class SessionCore {
 public:
  // `child` and `out` must outlive the core.
  SessionCore(const SessionOptions& options, SessionChild* child, MessageSink* out);
  ~SessionCore();

  // The program was spawned: the ready timeout starts.
  void Start(TimePoint now);
  // Program output, as read from the PTY.
  void OnOutput(const char* data, size_t len, TimePoint now);
  // One request line, without its newline.
  void OnLine(const std::string& line, TimePoint now);
  // No more requests will come.
  void OnStdinEof(TimePoint now);
  // The program was reaped, and all its output passed to OnOutput.
  void OnChildExit(TimePoint now);
  // We were signalled (or our parent died): close quickly.
  void OnTerminate(TimePoint now);
  // Nobody reads our stdout any more.
  void OnStdoutGone(TimePoint now);
  // After output or a wake-up: each part looks at the screen and the time.
  void Tick(TimePoint now);
  // The earliest wake-up after `now` any part waits for; max() if none.
  TimePoint NextWakeup(TimePoint now) const;

  // The release of the engine's CLI that runs (empty: not known), for
  // `ready` and `status`, and its warning when it is not a verified one.
  void SetCliVersion(const std::string& version);
  const std::string& cli_warning() const { return cli_warning_; }

  // The session is over (closed, or the program gone and stdin closed).
  bool done() const { return quit_; }
  // 0, or 3 when the program never became ready.
  int exit_code() const { return exit_code_; }
  bool child_exited() const { return child_exited_; }
  // Neither ready nor gone yet.
  bool starting() const { return state_ == State::kStarting; }

 private:
  enum class State { kStarting, kReady, kExited };

  void FeedChild(const char* data, size_t len);
  void ReportExit();
  void OnScreen(TimePoint now);
  bool MidFrame(TimePoint now);
  void CheckReady(TimePoint now);
  void ReportNotReady(const std::string& error);
  // Every request still waiting (queued asks, expect, wait_idle) gets its
  // one reply: the program is gone or never became ready.
  void FailPending(ErrorKind kind, const std::string& why);
  // No more requests can come and none waits: close, as EOF implies.
  bool NothingPending() const { return asks_.empty() && waiters_.empty() && !run_ && runs_queued_.empty(); }
  void UpdateWaiters(TimePoint now);

  void HandleLine(const std::string& line);
  void Dispatch(Request& request);
  void HandleAsk(Request& request);
  void HandleCancel(const Request& request);
  void HandleInput(const Request& request);
  void HandleResize(const Request& request);
  void HandleScreen(const Request& request);
  void HandleRecord(const Request& request);
  bool StartRecording(const std::string& path, std::string* err);
  void HandleScrollback(const Request& request);
  void HandleExpect(Request& request);
  void HandleWaitIdle(Request& request);
  void HandleRun(const Request& request);
  // Drives the run going on, and starts the next queued one when it ends.
  void UpdateRun(TimePoint now);
  bool CancelRun(const RequestId& target, const std::string& why);
  void ReplyRun(const RawRun::Result& result);
  void HandleSignal(const Request& request);
  void HandleStatus(const Request& request);
  void HandleHistory(const Request& request);
  const char* IdleState() const;
  // status.program_state and its question: ProgramState's judgement for a
  // raw session; for an engine, what `state` (an ask, or the process
  // between asks) and the engine's rules say.
  ProgramLook ProgramLookNow(const std::string& state, const std::vector<RuleMatch>& rules) const;
  ProgramLook EngineLook(const std::string& state, const std::vector<RuleMatch>& rules) const;
  void UpdateProgramState(TimePoint now);
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
  void ReplyError(const RequestId& id, ErrorKind kind,
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
  Recorder recorder_;      // stamps events with now_
  SessionChild* program_;  // the child itself: terminal replies, secrets
  RecordedChild recorded_child_;
  SessionChild* child_;    // &recorded_child_: everything else
  OutputBatch batch_;      // output events; every line goes through it
  MessageSink* out_;       // &batch_
  Terminal term_;
  ScreenMatcher matcher_;
  StartedLatch started_;  // the engine's `started` patterns, once seen
  RequestParser parser_;
  Utf8Sanitizer output_utf8_;
  TranscriptReader transcript_;

  AskQueue asks_;
  std::string cli_version_;
  std::string cli_warning_;
  DialogResponder dialogs_;
  Waiters waiters_;
  Closer closer_;
  ProgramState program_state_;  // raw sessions only
  std::optional<RawRun> run_;        // the raw session's run going on
  std::deque<Request> runs_queued_;  // runs after it, in arrival order
  static constexpr size_t kMaxRunsQueued = 100;

  TimePoint now_;  // the time of the current entry point
  State state_ = State::kStarting;
  TimePoint ready_deadline_;
  TimePoint ready_wake_ = TimePoint::max();  // the ready screen's settle time
  bool stdin_open_ = true;
  bool subscribed_output_ = false;
  bool subscribed_state_ = false;  // program_state events
  bool child_exited_ = false;
  bool quit_ = false;
  int exit_code_ = 0;
  TimePoint last_output_;
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

#endif  // TUIDRIVER_SESSION_CORE_H_
