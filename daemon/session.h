// The daemon: one child on a PTY, one terminal emulator, and the NDJSON
// protocol on stdin/stdout, driven by a single-threaded ppoll loop.
//
// The Session owns everything it uses. Requests are answered at once,
// except asks, which run one at a time in arrival order, and expect,
// wait_idle and close, which reply when their condition is met.
#ifndef TUIDRIVER_SESSION_H_
#define TUIDRIVER_SESSION_H_

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "ask.h"
#include "engine_config.h"
#include "json_writer.h"
#include "output.h"
#include "pty_process.h"
#include "request.h"
#include "screen_matcher.h"
#include "terminal.h"
#include "transcript.h"
#include "utf8.h"
#include "recorder.h"
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
  // kSettle: an interrupted program gets back to its prompt before the quit keys.
  enum class ClosePhase { kNone, kSettle, kQuitKeys, kTerm, kKill };


  // What asks type goes to the PTY; the time of the last write is kept.
  class PtyInput : public ChildInput {
   public:
    PtyInput(PtyProcess* pty, Recorder* recorder) : pty_(pty), recorder_(recorder) {}
    void Write(const std::string& bytes) override {
      recorder_->Input(bytes);
      pty_->Write(bytes);
      last_write_ = Clock::now();
    }
    TimePoint last_write() const { return last_write_; }
   private:
    PtyProcess* pty_;
    Recorder* recorder_;
    TimePoint last_write_;
  };
  // Swallows writes: a cancelled ask's interrupt is sent by the session
  // itself, a little later (see HandleCancel).
  class NoInput : public ChildInput {
   public:
    void Write(const std::string&) override {}
  };

  bool Spawn();
  void Loop();
  int PollTimeoutMs(TimePoint now) const;
  void HandleSignals();

  // Child side.
  void ReadChild(size_t budget);
  void FeedChild(const char* data, size_t len);
  void CheckChildExit();
  void ReportExit();
  void OnScreen(TimePoint now);
  bool MidFrame(TimePoint now);
  void AnswerDialogs(TimePoint now);
  void SendDialogKeys(TimePoint now);
  void CheckReady(TimePoint now);
  void ReportNotReady(const std::string& error);
  // Every request still waiting (queued and active asks, expect, wait_idle,
  // close) gets its one reply: the program is gone or never became ready.
  void FailPending(const std::string& kind, const std::string& why);
  // No more requests can come and none waits: close, as EOF implies.
  bool NothingPending() const;
  void RunAsks(TimePoint now);
  void StartNextAsk(TimePoint now);
  void FinishAsk();
  // A finished agent ask waits for its turn in the transcript, up to
  // kTranscriptWaitMs, so the reply carries the exact markdown.
  void ReleaseHeldReply(TimePoint now, bool final);
  bool BackToPrompt(TimePoint now);
  bool NudgeAfterInterrupt(TimePoint now);
  void SendPendingInterrupt(TimePoint now);
  // The prompt shows, no dialog does, and the screen has been quiet for
  // the engine's settle time.
  bool ReadySettled(TimePoint now);
  void UpdateWaiters(TimePoint now);

  // Client side.
  void ReadRequests();
  // Adds bytes of the current request line to in_buf_; false (and the line
  // refused) once it would pass kMaxRequestBytes.
  bool AppendRequestBytes(const char* data, size_t len);
  void HandleLine(const std::string& line);
  void Dispatch(Request& request);
  void HandleAsk(Request& request);
  void HandleCancel(const Request& request);
  void HandleAnswer(const Request& request);
  // Fails the active ask as cancelled; its interrupt keys follow shortly.
  void CancelActive(const std::string& why);
  void HandleInput(const Request& request);
  void HandleScreen(const Request& request);
  void HandleRecord(const Request& request);
  bool StartRecording(const std::string& path, std::string* err);
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

  // Close.
  void BeginClose(const RequestId* id);
  void SendQuitKeys(TimePoint now);
  // Key names to bytes in the program's current cursor/keypad modes, to the PTY.
  void WriteKeys(const std::vector<std::string>& keys);
  void AdvanceClose(TimePoint now);
  void FinishClose();

  // Replies.
  // Every reply goes through these (messages.h builds the lines).
  void ReplyOk(const RequestId& id, const JsonObject& fields = JsonObject());
  void ReplyError(const RequestId& id, const std::string& kind,
                  const std::string& error, const JsonObject& fields = JsonObject());
  void ReplyAsk(const Ask& ask, const JsonObject& extra = JsonObject());
  JsonObject ScreenFields() const;
  // `"code":N,"signal":null` or `"code":null,"signal":"SIGKILL"`.
  JsonObject ExitFields() const;
  // A close's reply: `"text":"",` and the exit fields.
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
  PtyProcess pty_;
  Recorder recorder_;
  PtyInput pty_input_{&pty_, &recorder_};
  Terminal term_;
  ScreenMatcher matcher_;
  RequestParser parser_;
  Utf8Sanitizer output_utf8_;

  State state_ = State::kStarting;
  TimePoint ready_deadline_;
  bool stdin_open_ = true;
  bool stdin_tty_ = false;
  std::string in_buf_;
  bool discarding_long_line_ = false;
  bool subscribed_output_ = false;
  bool child_reaped_ = false;
  bool quit_ = false;
  int exit_code_ = 0;

  std::unique_ptr<Ask> active_;
  TranscriptReader transcript_;
  std::unique_ptr<Ask> held_;  // finished, its reply waiting for the transcript
  TimePoint held_until_;
  TimePoint held_poll_;
  static constexpr int kTranscriptWaitMs = 200;
  static constexpr int kTranscriptPollMs = 10;
  std::deque<std::unique_ptr<Ask>> queue_;
  // After a cancelled or timed-out ask: the next ask waits until the
  // program has shown its prompt again, so leftovers are not attributed.
  bool resync_ = false;
  TimePoint settle_wake_;
  // A cancel's interrupt keys, due at this time (unset: none pending).
  bool interrupt_pending_ = false;
  TimePoint interrupt_due_;
  static constexpr int kInterruptAfterInputMs = 100;
  // A dialog took an ask's keystrokes (see Ask::TurnNotStarted): once it
  // is gone, whatever reached the input box is cleared before the retry.
  bool clear_after_dialog_ = false;
  int resync_nudges_ = 0;  // keys sent since, for want of a reaction (NudgeAfterInterrupt)
  // BackToPrompt: the last ask ended at the prompt and no input was sent
  // since; the last one ended in needs_input; the screen last nudged.
  bool idle_at_prompt_ = true;
  bool interrupt_before_next_ = false;
  uint64_t nudged_generation_ = ~0ull;
  static constexpr int kBackgroundQuietMs = 300;
  bool resync_cleared_ = false;
  static constexpr int kResyncQuietMs = 150;
  // How long an interrupted program has to show a reaction before it is
  // nudged (a second interrupt at a continuation prompt). Generous: on a
  // loaded machine a late reaction plus a nudge interrupted the next ask.
  static constexpr int kResyncReactMs = 2000;
  // Program output read before requests are looked at again: about 4 ms of
  // rendering, so a flood never holds up a `screen` or `cancel` for long.
  static constexpr size_t kReadBudget = 256 << 10;
  uint64_t resync_generation_ = 0;
  TimePoint resync_give_up_;
  Waiters waiters_;  // expect and wait_idle
  TimePoint last_output_;
  uint64_t seen_generation_ = ~0ull;
  // The synchronized update (frame) the screen was last seen inside, and
  // since when; see MidFrame.
  uint64_t frame_seen_ = 0;
  TimePoint frame_started_;
  static constexpr int kFrameLimitMs = 500;

  // Dialog answers: the last rule answered (re-armed once it is gone), how
  // often, when to look again, and the keys still to send.
  struct DialogKey {
    std::string key;
    TimePoint due;
  };
  int dialog_armed_ = -1;
  int dialog_tries_ = 0;
  TimePoint dialog_retry_at_;
  TimePoint dialog_wake_;
  std::deque<DialogKey> dialog_keys_;
  static constexpr int kDialogSettleMs = 150;
  static constexpr int kDialogRetryMs = 2000;
  static constexpr int kDialogKeyGapMs = 50;

  ClosePhase close_phase_ = ClosePhase::kNone;
  TimePoint close_deadline_;
  std::vector<RequestId> close_ids_;
  bool closing_ = false;
  bool closed_ = false;  // FinishClose ran: a later close is answered at once
  // Closing because we were signalled or our parent died: skip the quit
  // keys and keep the SIGTERM grace short, so nothing outlives us long.
  bool urgent_close_ = false;
  static constexpr int kUrgentGraceMs = 300;
  static constexpr int kCloseSettleMs = 1000;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_SESSION_H_
