#include "session_core.h"

#include <algorithm>
#include <cstdio>

#include "cli_version.h"
#include "keys.h"
#include "messages.h"
#include "question_watch.h"

namespace tuidriver {
SessionCore::SessionCore(const SessionOptions& options, SessionChild* child, MessageSink* out)
    : options_(options),
      recorder_(&now_),
      program_(child),
      recorded_child_(child, &recorder_),
      child_(&recorded_child_),
      batch_(out),
      out_(&batch_),
      term_(options_.engine.cols, options_.engine.rows, options_.scrollback_lines),
      matcher_(options_.engine),
      transcript_(options_.engine.transcript.format, options_.transcript_path, options_.transcript_cwd,
                  options_.session_id),
      asks_(options_.engine, matcher_, options_.mode, &transcript_, out_),
      dialogs_(options_.engine, matcher_, options_.mode),
      closer_(options_.engine) {
  asks_.set_recorder(&recorder_);
}

SessionCore::~SessionCore() = default;

void SessionCore::Start(TimePoint now) {
  now_ = now;
  last_output_ = now;
  ready_deadline_ = now + Ms(options_.engine.timeouts.ready_ms);
  std::string err;
  if (!options_.record_path.empty() && !StartRecording(options_.record_path, &err)) {
    // The session runs on, unrecorded, and says why.
    out_->Send(SessionErrorMessage(ErrorKind::kRecord, err));
    fprintf(stderr, "tuidriver: %s\n", err.c_str());
  }
  if (options_.raw) CheckReady(now);
}

void SessionCore::OnOutput(const char* data, size_t len, TimePoint now) {
  now_ = now;
  FeedChild(data, len);
}

void SessionCore::OnLine(const std::string& line, TimePoint now) {
  now_ = now;
  HandleLine(line);
}

void SessionCore::OnStdinEof(TimePoint now) {
  // Tick closes once nothing is pending. Before ready it waits for ready
  // (or the ready timeout), so a bare EOF still shows `ready`.
  now_ = now;
  stdin_open_ = false;
}

void SessionCore::OnChildExit(TimePoint now) {
  if (child_exited_) return;
  now_ = now;
  child_exited_ = true;
  ReportExit();
}

void SessionCore::OnTerminate(TimePoint now) {
  // Killed, or our parent died (PDEATHSIG): no time for quit keys.
  now_ = now;
  stdin_open_ = false;
  urgent_close_ = true;
  if (closing_) closer_.Hurry(now);
  else BeginClose(nullptr);
}

void SessionCore::OnStdoutGone(TimePoint now) {
  now_ = now;
  if (state_ == State::kExited || closing_) return;
  BeginClose(nullptr);
  // This comes after the Tick at `now`: the close's first step is due now,
  // and a wake-up at `now` would be taken for one already handled.
  OnScreen(now);
}

void SessionCore::Tick(TimePoint now) {
  now_ = now;
  OnScreen(now);
  batch_.Update(now);
}

TimePoint SessionCore::NextWakeup(TimePoint now) const {
  TimePoint wake = TimePoint::max();
  // Each part gives only times it waits for (its tests check that an idle
  // part gives none). A time at or before `now` was handled by the Tick at
  // `now`, or belongs to a part that is not run then (the asks mid-frame,
  // whose wake-up is the frame limit): it is left out rather than let it
  // spin the CPU.
  auto consider = [&wake, now](TimePoint t) {
    if (t > now) wake = std::min(wake, t);
  };
  if (state_ == State::kStarting && !closing_) {
    consider(ready_deadline_);
    consider(ready_wake_);
  }
  if (state_ == State::kReady) consider(asks_.next_wakeup());
  if (state_ == State::kReady && options_.raw) consider(program_state_.next_wakeup(subscribed_state_));
  if (state_ == State::kReady && run_) consider(run_->next_wakeup());
  if (state_ != State::kExited) {
    consider(dialogs_.next_wakeup());
    if (term_.synchronized_update()) consider(frame_started_ + Ms(kFrameLimitMs));
  }
  consider(waiters_.next_wakeup());
  consider(closer_.next_wakeup());
  consider(batch_.next_wakeup());
  return wake;
}

void SessionCore::FeedChild(const char* data, size_t len) {
  recorder_.Output(data, len);
  term_.Feed(data, len);
  std::string replies = term_.TakeReplies();
  if (!replies.empty() && !child_exited_) program_->Write(replies);
  last_output_ = now_;
  if (subscribed_output_) {
    // base64: the bytes as they are. Else a JSON string: a character split
    // between reads waits for its end, invalid UTF-8 becomes U+FFFD.
    std::string_view bytes = batch_.base64() ? std::string_view(data, len) : output_utf8_.Complete(data, len);
    batch_.AddOutput(bytes, len, now_);
  }
  if (!waiters_.empty()) waiters_.OnOutput(SanitizePrompt(std::string(data, len)), last_output_);
}

void SessionCore::ReportExit() {
  TimePoint now = now_;
  asks_.LastLook(term_, child_, now);
  if (subscribed_output_) {
    std::string tail;
    output_utf8_.Flush(&tail);
    batch_.AddOutput(tail, tail.size(), now);
  }
  UpdateWaiters(now);
  bool was_starting = state_ == State::kStarting;
  state_ = State::kExited;
  out_->Send(ExitEvent(ExitFields()));
  if (subscribed_state_ && options_.raw) out_->Send(ProgramStateEvent("exited", ""));
  std::string why = ExitDescription();
  asks_.ChildExited(&term_, why, now);
  if (run_) ReplyRun(run_->Exited(term_));
  FailPending(ErrorKind::kExited, why);
  if (was_starting && !options_.raw && !closing_) {
    // Nothing more can happen: the daemon ends with 3 (ReportNotReady).
    ReportNotReady(options_.engine.name + " exited before it showed its prompt: " + why);
    BeginClose(nullptr);
  }
  if (closing_) FinishClose();
  else if (!stdin_open_) BeginClose(nullptr);
}

void SessionCore::FailPending(ErrorKind kind, const std::string& why) {
  asks_.FailQueued(kind, why);
  for (const Request& q : runs_queued_) ReplyError(q.id, kind, why, ScreenFields());
  runs_queued_.clear();
  for (const RequestId& id : waiters_.TakeAll()) ReplyError(id, kind, why, ScreenFields());
}

void SessionCore::OnScreen(TimePoint now) {
  // Every update, even mid-frame: a banner may be drawn and cleared in one.
  if (state_ == State::kStarting) matcher_.UpdateStarted(term_, &started_);
  if (state_ != State::kExited && !MidFrame(now)) {
    int rule = dialogs_.Update(term_, last_output_, !options_.raw && !closing_, child_, now);
    if (rule >= 0) {
      asks_.OnDialog(&term_);
      const DialogRule& d = options_.engine.dialogs[static_cast<size_t>(rule)];
      out_->Send(DialogEvent(d.name, d.keys));
    }
    if (state_ == State::kStarting) CheckReady(now);
    if (state_ == State::kReady) asks_.Update(&term_, last_output_, dialogs_.sending(), child_, now);
    UpdateProgramState(now);
    UpdateRun(now);
  }
  UpdateWaiters(now);
  // After stdin's end, requests already received finish first (each within
  // its own timeout); then the session closes.
  if (!stdin_open_ && !closing_ && state_ != State::kStarting && NothingPending()) BeginClose(nullptr);
  AdvanceClose(now);
}

// A read can end in the middle of a frame the program draws inside a
// synchronized update (Codex draws every frame so). Its prompt, busy state
// and questions are judged only between frames, as a terminal would show
// them, but a frame that never ends is ignored after kFrameLimitMs.
bool SessionCore::MidFrame(TimePoint now) {
  if (!term_.synchronized_update()) return false;
  if (term_.synchronized_updates() != frame_seen_) {
    frame_seen_ = term_.synchronized_updates();
    frame_started_ = now;
  }
  return now < frame_started_ + Ms(kFrameLimitMs);
}

void SessionCore::CheckReady(TimePoint now) {
  ready_wake_ = TimePoint::max();
  bool started = matcher_.UpdateStarted(term_, &started_);
  if (options_.raw || (ReadySettled(term_, matcher_, options_.engine, options_.mode, dialogs_.sending(),
                                    last_output_, now, &ready_wake_) &&
                       started)) {
    state_ = State::kReady;
    asks_.OnReady(now);
    out_->Send(ReadyEvent(options_.raw ? std::string() : options_.engine.name, child_->pid(), term_.cols(),
                          term_.rows(), transcript_.session_id(), cli_version_));
    return;
  }
  if (now >= ready_deadline_ && !closing_) {
    // The prompt alone is not enough when the engine lists `started`
    // patterns: say which is missing.
    std::string missing = matcher_.Ready(term_) && !started
                              ? " showed its prompt but none of its `started` patterns"
                              : " did not show its prompt";
    std::string error = options_.engine.name + missing + " within " +
                        std::to_string(options_.engine.timeouts.ready_ms) + " ms";
    // Which dialogs it answered tells a dialog that stayed after its keys
    // (a TUI too slow to listen yet) from one no rule knows (a new step).
    std::string dialogs = dialogs_.Answered();
    if (!dialogs.empty()) error += " (dialogs answered: " + dialogs + ")";
    ReportNotReady(error);
    FailPending(ErrorKind::kNotReady, error);
    // Closed as `close` would, without the quit keys: its whole process
    // group goes, and the daemon ends (with 3) once the child is reaped.
    urgent_close_ = true;
    BeginClose(nullptr);
  }
}

// The program never became ready: say so on stdout (with the screen) and on
// stderr (with the screen's last lines, which usually tell why), and make
// the daemon exit with 3.
void SessionCore::ReportNotReady(const std::string& error) {
  std::vector<std::string> screen = term_.ScreenLines();
  JsonObject fields;
  fields.AddStringArray("screen", screen);
  out_->Send(SessionErrorMessage(ErrorKind::kNotReady, error, fields));
  while (!screen.empty() && screen.back().empty()) screen.pop_back();
  size_t first = screen.size() > 8 ? screen.size() - 8 : 0;
  std::string tail;
  for (size_t i = first; i < screen.size(); ++i) tail += "\n  | " + screen[i];
  fprintf(stderr, "tuidriver: %s%s\n", error.c_str(),
          tail.empty() ? "; its screen is blank" : ("; the end of its screen:" + tail).c_str());
  exit_code_ = 3;
}

void SessionCore::UpdateWaiters(TimePoint now) {
  auto screen = [this] {
    std::string text;
    for (const std::string& l : term_.ScreenLines()) text += l + "\n";
    return text;
  };
  for (Waiters::Outcome& o : waiters_.Update(screen, now)) {
    if (o.met) ReplyOk(o.id, o.fields);
    else ReplyError(o.id, ErrorKind::kTimeout, "condition not met within " + std::to_string(o.timeout_ms) + " ms", ScreenFields());
  }
}

// ---- client side ----------------------------------------------------------

void SessionCore::HandleLine(const std::string& line) {
  if (!line.empty() && line.back() == '\r') {
    HandleLine(line.substr(0, line.size() - 1));
    return;
  }
  Request request;
  RequestError kind;
  std::string err;
  if (!parser_.Parse(line, &request, &kind, &err)) {
    ReplyError(request.id, RequestErrorKind(kind), err);
    return;
  }
  if (request.id.kind != RequestId::Kind::kNone && IdInUse(request.id)) {
    ReplyError(request.id, ErrorKind::kProtocol, "id " + request.id.json + " is already in use by a pending request");
    return;
  }
  Dispatch(request);
}

bool SessionCore::IdInUse(const RequestId& id) const {
  if (asks_.Has(id) || waiters_.Has(id) || (run_ && run_->id() == id)) return true;
  for (const Request& q : runs_queued_) {
    if (q.id == id) return true;
  }
  for (const RequestId& c : close_ids_) {
    if (c == id) return true;
  }
  return false;
}

void SessionCore::Dispatch(Request& r) {
  switch (r.type) {  // no default: -Wswitch names a type with no handler
    case RequestType::kAsk:
    case RequestType::kAskStream: HandleAsk(r); return;
    case RequestType::kCancel: HandleCancel(r); return;
    case RequestType::kAnswer: asks_.Answer(r, term_, child_, now_); return;
    case RequestType::kSend:
    case RequestType::kSendSecret:
    case RequestType::kKeys:
    case RequestType::kPaste: HandleInput(r); return;
    case RequestType::kResize: HandleResize(r); return;
    case RequestType::kScreen: HandleScreen(r); return;
    case RequestType::kRecord: HandleRecord(r); return;
    case RequestType::kScrollback: HandleScrollback(r); return;
    case RequestType::kExpect: HandleExpect(r); return;
    case RequestType::kWaitIdle: HandleWaitIdle(r); return;
    case RequestType::kRun: HandleRun(r); return;
    case RequestType::kSignal: HandleSignal(r); return;
    case RequestType::kStatus: HandleStatus(r); return;
    case RequestType::kHistory: HandleHistory(r); return;
    case RequestType::kSubscribe:
    case RequestType::kUnsubscribe: HandleSubscribe(r); return;
    case RequestType::kClose: BeginClose(&r.id); return;
  }
}

// A cancel ends a waiting expect or wait_idle at once, or interrupts a run
// or an ask.
void SessionCore::HandleCancel(const Request& r) {
  if (CancelRun(r.target, "cancelled by request " + r.id.json)) {
    ReplyOk(r.id);
    UpdateRun(now_);  // the next queued run
    return;
  }
  if (!waiters_.Remove(r.target)) {
    asks_.Cancel(r, &term_, child_, now_);
    return;
  }
  ReplyError(r.target, ErrorKind::kCancelled, "cancelled by request " + r.id.json, ScreenFields());
  ReplyOk(r.id);
}

// The run `target`, going on (its line, if typed, is interrupted) or
// queued, ends with kind cancelled; false when there is none.
bool SessionCore::CancelRun(const RequestId& target, const std::string& why) {
  if (run_ && run_->id() == target) {
    run_->Cancel(child_);
    run_.reset();
    program_state_.LookSoon(now_);
  } else {
    auto queued = std::find_if(runs_queued_.begin(), runs_queued_.end(),
                               [&target](const Request& q) { return q.id == target; });
    if (queued == runs_queued_.end()) return false;
    runs_queued_.erase(queued);
  }
  ReplyError(target, ErrorKind::kCancelled, why, ScreenFields());
  return true;
}

void SessionCore::HandleAsk(Request& r) {
  if (options_.raw) {
    ReplyError(r.id, ErrorKind::kError, "this is a raw session with no engine; ask needs an engine (tuidriver ENGINE)");
  } else if (state_ == State::kExited) {
    ReplyError(r.id, ErrorKind::kExited, ExitDescription(), ExitFields());
  } else if (closing_) {
    ReplyError(r.id, ErrorKind::kError, "the session is closing");
  } else if (!asks_.Add(r, now_)) {
    ReplyError(r.id, ErrorKind::kBusy, "too many asks queued (" + std::to_string(AskQueue::kMaxQueued) + ")");
  }
}

void SessionCore::HandleInput(const Request& r) {
  if (state_ == State::kExited) {
    ReplyError(r.id, ErrorKind::kExited, ExitDescription(), ExitFields());
    return;
  }
  std::string bad_key;
  if (r.type == RequestType::kKeys && !CheckKeyNames(r.keys, &bad_key)) {
    ReplyError(r.id, ErrorKind::kProtocol, bad_key);  // nothing of the list is sent
    return;
  }
  if (child_->input_pending() > kMaxPendingInput) {
    // Input waits for the program without blocking the daemon, but not
    // without bound.
    ReplyError(r.id, ErrorKind::kBusy, "the program has not read the " + std::to_string(child_->input_pending()) +
               " bytes sent to it earlier; nothing was sent");
    return;
  }
  asks_.OnInput(now_);  // what the program does with input is unknown
  program_state_.LookSoon(now_);
  JsonObject extra;
  if (r.type == RequestType::kSendSecret) {
    recorder_.Marker("[secret]");  // the secret itself is never recorded
    program_->Write(r.data);
  } else if (r.type == RequestType::kSend) {
    child_->Write(r.data);
  } else if (r.type == RequestType::kKeys) {
    WriteKeys(r.keys, term_, child_);
  } else {
    bool bracketed = term_.bracketed_paste();
    child_->Write(bracketed ? BracketedPaste(r.text) : r.text);
    extra.Add("bracketed", bracketed);
  }
  ReplyOk(r.id, extra);
}

void SessionCore::HandleResize(const Request& r) {
  if (state_ != State::kExited) child_->Resize(r.cols, r.rows);
  term_.Resize(r.cols, r.rows);
  asks_.FollowResize(term_);  // reflow renumbered the rows an ask keeps
  recorder_.Resize(r.cols, r.rows);
  JsonObject fields;
  fields.Add("cols", r.cols).Add("rows", r.rows);
  // A reader that numbers rows (a server's read cursor) learns where its row went.
  if (r.follow_row >= 0) {
    fields.Add("follow_row", static_cast<int64_t>(term_.RowAfterResize(static_cast<uint64_t>(r.follow_row))));
  }
  ReplyOk(r.id, fields);
}

void SessionCore::HandleScreen(const Request& r) {
  JsonObject fields = ScreenFields();
  if (r.styles) AddScreenStyles(term_, &fields);
  ReplyOk(r.id, fields);
}

void SessionCore::HandleRecord(const Request& r) {
  JsonObject fields;
  if (r.stop) {
    bool was = recorder_.recording();
    recorder_.Stop();
    fields.Add("stopped", was);
    ReplyOk(r.id, fields);
    return;
  }
  std::string err;
  if (!StartRecording(r.path, &err)) {
    ReplyError(r.id, ErrorKind::kRecord, err);
    return;
  }
  fields.Add("path", r.path);
  ReplyOk(r.id, fields);
}

// The header names the terminal the program was told it runs in.
bool SessionCore::StartRecording(const std::string& path, std::string* err) {
  auto term = options_.engine.env.find("TERM");
  return recorder_.Start(path, term_.cols(), term_.rows(),
                         term == options_.engine.env.end() ? "xterm-256color" : term->second, err);
}

void SessionCore::HandleScrollback(const Request& r) {
  // Rows below the last non-blank one on screen are not history, and do not
  // count against `lines`.
  int last_row = term_.rows() - 1;
  while (last_row >= 0 && term_.RowText(last_row).empty()) --last_row;
  uint64_t end = term_.lines_scrolled() + static_cast<uint64_t>(last_row + 1);
  uint64_t first = term_.first_retained_row();
  if (r.lines >= 0 && end - first > static_cast<uint64_t>(r.lines)) first = end - static_cast<uint64_t>(r.lines);
  std::vector<std::string> lines;
  std::string flags = "[";
  for (uint64_t row = first; row < end; ++row) {
    std::string text;
    bool wrapped;
    if (!term_.LineAt(row, &text, &wrapped, true)) continue;
    lines.push_back(std::move(text));
    flags += flags.size() > 1 ? (wrapped ? ",true" : ",false") : (wrapped ? "true" : "false");
  }
  JsonObject fields;
  fields.AddStringArray("lines", lines);
  if (r.wrapped) {
    // What a reader needs to tell finished lines from the one still being written.
    fields.AddRaw("wrapped", flags + "]");
    fields.Add("cursor_row", static_cast<int64_t>(term_.lines_scrolled() + static_cast<uint64_t>(term_.cursor().row)));
    fields.Add("alt_screen", term_.alt_screen());
  }
  // Rows counted from the session's start: a reader can ask again later and
  // know which lines are new, even after old ones left the history.
  fields.Add("first_row", static_cast<int64_t>(first));
  ReplyOk(r.id, fields);
}

void SessionCore::HandleExpect(Request& r) {
  std::string err;
  if (!waiters_.AddExpect(r, now_, &err)) {
    ReplyError(r.id, ErrorKind::kProtocol, "field 'pattern' is not a valid regular expression: " + err);
    return;
  }
  UpdateWaiters(now_);
  // The program is gone: the final screen matches now or never.
  if (state_ == State::kExited && waiters_.Has(r.id)) {
    FailPending(ErrorKind::kExited, ExitDescription());
  }
}

void SessionCore::HandleWaitIdle(Request& r) {
  if (state_ == State::kExited) {
    ReplyError(r.id, ErrorKind::kExited, ExitDescription(), ScreenFields());
    return;
  }
  waiters_.AddWaitIdle(r, now_);
}

void SessionCore::HandleRun(const Request& r) {
  if (!options_.raw) {
    ReplyError(r.id, ErrorKind::kError, "run is for raw sessions; an engine session answers with ask");
  } else if (state_ == State::kExited) {
    ReplyError(r.id, ErrorKind::kExited, ExitDescription(), ExitFields());
  } else if (closing_) {
    ReplyError(r.id, ErrorKind::kError, "the session is closing");
  } else if (runs_queued_.size() >= kMaxRunsQueued) {
    ReplyError(r.id, ErrorKind::kBusy, "too many runs queued (" + std::to_string(kMaxRunsQueued) + ")");
  } else {
    runs_queued_.push_back(r);
    UpdateRun(now_);
  }
}

void SessionCore::UpdateRun(TimePoint now) {
  while (state_ == State::kReady && (run_ || !runs_queued_.empty())) {
    if (!run_) {
      run_.emplace(runs_queued_.front(), now);  // its timeout counts from its start
      runs_queued_.pop_front();
    }
    RawRun::Result result;
    switch (run_->Update(term_, child_, program_state_, last_output_, now, &result)) {
      case RawRun::Step::kGoing: return;
      case RawRun::Step::kDone: ReplyRun(result); break;
      case RawRun::Step::kStillRunning:
        ReplyError(run_->id(), ErrorKind::kBusy,
                   "the command before is still running after " + std::to_string(run_->timeout_ms()) +
                       " ms; the line was not typed: read its output, or interrupt it with signal",
                   ScreenFields());
        run_.reset();
        break;
    }
  }
}

void SessionCore::ReplyRun(const RawRun::Result& result) {
  JsonObject fields;
  fields.Add("output", result.output).Add("program_state", result.state);
  AddQuestion(&fields, result.state, result.question);
  fields.Add("running", result.state == "running");
  RequestId id = run_->id();
  run_.reset();
  program_state_.LookSoon(now_);
  ReplyOk(id, fields);
}

void SessionCore::HandleSignal(const Request& r) {
  int sig = SignalFromName(r.signal);
  if (sig == 0) {
    ReplyError(r.id, ErrorKind::kProtocol, "unknown signal '" + r.signal + "'");
  } else if (state_ == State::kExited) {
    ReplyError(r.id, ErrorKind::kExited, ExitDescription(), ExitFields());
  } else if (std::string err; !child_->Signal(sig, &err)) {
    ReplyError(r.id, ErrorKind::kError, "could not send the signal: " + err);
  } else {
    JsonObject fields;
    fields.Add("signal", "SIG" + SignalName(sig));
    ReplyOk(r.id, fields);
  }
}

// No ask running: at the prompt, or, for an engine whose questions are
// decided from its process, still asking the question an ask ended at (a
// pager, input()) or still working (what an interrupt did not stop).
const char* SessionCore::IdleState() const {
  if (options_.raw || !options_.engine.needs_input_from_process || matcher_.Ready(term_)) return "ready";
  switch (child_->ReadsTerminal()) {
    case TerminalReader::kReading: return "needs_input";
    case TerminalReader::kNotReading: return "busy";
    default: return "ready";
  }
}

void SessionCore::UpdateProgramState(TimePoint now) {
  if (!options_.raw || state_ != State::kReady) return;
  ProgramLook look;
  if (program_state_.Update(term_, *child_, last_output_, subscribed_state_, now, &look)) {
    out_->Send(ProgramStateEvent(look.state, look.question));
  }
}

ProgramLook SessionCore::ProgramLookNow(const std::string& state, const std::vector<RuleMatch>& rules) const {
  if (state_ == State::kExited) return {"exited", ""};
  if (state_ == State::kStarting) return {"starting", ""};
  return options_.raw ? program_state_.Judge(term_, *child_) : EngineLook(state, rules);
}

// A question an ask met with on_input "wait" comes in its needs_input event;
// between asks the process (IdleState) or a dialog or needs_input rule that
// shows without the prompt says one is up. `rules`: the matcher's Explain
// of the screen now, which `status` also reports.
ProgramLook SessionCore::EngineLook(const std::string& state, const std::vector<RuleMatch>& rules) const {
  std::string question;
  bool certain = false;
  if (state == "needs_input" && QuestionShows(options_.engine, matcher_, term_, TerminalReader::kReading,
                                              &question, &certain)) {
    return {"needs_input", question};
  }
  bool prompt = std::any_of(rules.begin(), rules.end(), [](const RuleMatch& m) { return m.rule == "prompt"; });
  if (!rules.empty() && rules[0].verdict == "dialog") return {"needs_input", rules[0].text};
  if (!rules.empty() && rules[0].verdict == "needs_input" && !prompt && matcher_.NeedsInput(term_, &question)) {
    return {"needs_input", question};
  }
  if (term_.alt_screen()) return {"fullscreen", ""};
  return {state == "busy" ? "running" : "ready", ""};
}

void SessionCore::SetCliVersion(const std::string& version) {
  cli_version_ = version;
  cli_warning_ = UnverifiedVersionWarning(options_.engine.name, version, options_.engine.cli.verified);
  asks_.set_cli_version(version);
}

void SessionCore::HandleStatus(const Request& r) {
  const char* state = "starting";
  if (state_ == State::kExited) state = "exited";
  else if (state_ == State::kReady) state = asks_.busy() ? "busy" : IdleState();
  JsonObject o;
  if (options_.raw && state_ == State::kReady) program_state_.LearnPrompt(term_, *child_, last_output_, now_);
  std::vector<RuleMatch> rules = matcher_.Explain(term_, options_.mode);
  ProgramLook look = ProgramLookNow(state, rules);
  o.Add("state", state).Add("program_state", look.state);
  AddQuestion(&o, look.state, look.question);
  o.Add("pid", child_->pid());
  if (state_ == State::kExited) o.AddNull("foreground_pid").AddNull("cwd");
  else o.Add("foreground_pid", child_->ForegroundPid()).Add("cwd", child_->Cwd());
  // Raw sessions too: whether the foreground waits reading the terminal (null: unknown).
  TerminalReader reader = state_ == State::kExited ? TerminalReader::kUnknown : child_->ReadsTerminal();
  if (reader == TerminalReader::kUnknown) o.AddNull("reads_terminal");
  else o.Add("reads_terminal", reader == TerminalReader::kReading);
  o.Add("cols", term_.cols()).Add("rows", term_.rows());
  if (options_.raw) o.AddNull("engine");
  else o.Add("engine", options_.engine.name);
  o.Add("mode", options_.mode).Add("queued", static_cast<int64_t>(asks_.queued()));
  if (transcript_.session_id().empty()) o.AddNull("session_id");
  else o.Add("session_id", transcript_.session_id());
  if (cli_version_.empty()) o.AddNull("cli_version");
  else o.Add("cli_version", cli_version_);
  o.AddStringArray("warnings", cli_warning_.empty() ? std::vector<std::string>() : std::vector<std::string>{cli_warning_});
  if (state_ == State::kStarting) matcher_.UpdateStarted(term_, &started_);
  o.AddRaw("explain", matcher_.ExplainJson(rules, started_, state_ == State::kStarting));
  if (state_ == State::kExited) o.Merge(ExitFields());
  else o.AddNull("exit_code").AddNull("signal");
  ReplyOk(r.id, o);
}

// The resumed session's past turns, read from the transcript as it is now
// (a client replays them: tuidriver-acp's session/load).
void SessionCore::HandleHistory(const Request& r) {
  if (!transcript_.enabled()) {
    std::string what = options_.raw ? "a raw session" : "the engine " + options_.engine.name;
    ReplyError(r.id, ErrorKind::kHistory, what + " keeps no transcript, so it has no history to read");
    return;
  }
  std::vector<Turn> turns;
  std::string err;
  if (!transcript_.ReadHistory(&turns, &err)) {
    ReplyError(r.id, ErrorKind::kHistory, err);
    return;
  }
  ReplyOk(r.id, HistoryJson(turns, transcript_.session_id()));
}

void SessionCore::HandleSubscribe(const Request& r) {
  bool on = r.type == RequestType::kSubscribe;
  bool output = false;
  for (const std::string& e : r.events) {
    if (e == "output") {
      subscribed_output_ = on;
      output = true;
    } else {
      subscribed_state_ = on;
      if (on) program_state_.LookSoon(now_);  // the subscriber hears the state soon
    }
  }
  if (on && output && r.output_base64 != batch_.base64()) {
    // A character held back for its end goes out in the old encoding.
    std::string tail;
    output_utf8_.Flush(&tail);
    batch_.AddOutput(tail, tail.size(), now_);
    batch_.set_base64(r.output_base64);
  }
  std::vector<std::string> events;  // what the client is subscribed to now
  if (subscribed_output_) events.push_back("output");
  if (subscribed_state_) events.push_back("program_state");
  JsonObject fields;
  fields.AddStringArray("events", events);
  if (subscribed_output_) fields.Add("encoding", batch_.base64() ? "base64" : "utf8");
  ReplyOk(r.id, fields);
}

// ---- close ----------------------------------------------------------------

void SessionCore::BeginClose(const RequestId* id) {
  if (id && closed_) {
    ReplyOk(*id, CloseFields());
    return;
  }
  if (id) close_ids_.push_back(*id);
  if (closing_) return;
  closing_ = true;
  TimePoint now = now_;
  asks_.ReleaseHeld(now);
  if (id) {
    asks_.CancelActive("the session is closing", &term_, child_, now);
    asks_.CancelQueued("the session is closing", term_);
    while (run_ || !runs_queued_.empty()) CancelRun(run_ ? run_->id() : runs_queued_.front().id, "the session is closing");
  }
  if (state_ == State::kExited) {
    FinishClose();
    return;
  }
  // An interrupted program is still reacting: quit keys typed now would be
  // lost in its reaction, and the close would end in signals.
  closer_.Begin(asks_.resyncing(), urgent_close_, term_, child_, now);
}

void SessionCore::AdvanceClose(TimePoint now) {
  if (closer_.phase() == Closer::Phase::kNone) return;
  if (closer_.phase() == Closer::Phase::kSettle && state_ != State::kExited) {
    asks_.SendDueInterrupt(term_, child_, now);
  }
  closer_.Update(asks_.Settled(term_, last_output_, now), last_output_ + Ms(AskQueue::kQuietMs), term_,
                 child_, child_, now);
  if (closer_.gave_up()) FinishClose();  // SIGKILL did not reap the child within a second
}

void SessionCore::FinishClose() {
  if (closed_) return;
  // Whatever the program left behind goes with it: its process group, and
  // detached descendants that were re-parented to us.
  child_->KillLeftovers();
  batch_.Flush();
  for (const RequestId& id : close_ids_) ReplyOk(id, CloseFields());
  close_ids_.clear();
  closed_ = true;
  quit_ = true;
}

// ---- replies --------------------------------------------------------------

void SessionCore::ReplyOk(const RequestId& id, const JsonObject& fields) {
  out_->Send(ReplyOkMessage(id, fields));
}

void SessionCore::ReplyError(const RequestId& id, ErrorKind kind,
                         const std::string& error, const JsonObject& fields) {
  out_->Send(ReplyErrorMessage(id, kind, error, fields));
}

JsonObject SessionCore::ScreenFields() const {
  Cursor c = term_.cursor();
  JsonObject cursor;
  cursor.Add("row", c.row).Add("col", c.col).Add("visible", c.visible);
  JsonObject o;
  o.AddStringArray("lines", term_.ScreenLines());
  o.AddRaw("cursor", cursor.Finish()).Add("cols", term_.cols()).Add("rows", term_.rows())
      .Add("alt_screen", term_.alt_screen()).Add("title", term_.title());
  return o;
}

std::string SessionCore::ExitDescription() const {
  const ExitStatus& s = child_->exit_status();
  if (s.signal) return "the program was killed by SIG" + SignalName(s.signal);
  return "the program exited with code " + std::to_string(s.code);
}

// "exit_code":N,"signal":null  or  "exit_code":null,"signal":"SIGKILL": one
// spelling everywhere (exit event, close reply, status, exited errors).
JsonObject SessionCore::ExitFields() const {
  const ExitStatus& s = child_->exit_status();
  JsonObject o;
  if (s.signal) o.AddNull("exit_code").Add("signal", "SIG" + SignalName(s.signal));
  else o.Add("exit_code", s.code).AddNull("signal");
  return o;
}

}  // namespace tuidriver
