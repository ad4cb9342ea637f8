#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "json_writer.h"
#include "messages.h"
#include "keys.h"
#include "compile_regex.h"
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

std::chrono::milliseconds Ms(long ms) { return std::chrono::milliseconds(ms); }



}  // namespace

Session::Session(SessionOptions options, int in_fd, int out_fd)
    : options_(std::move(options)),
      in_fd_(in_fd),
      out_(out_fd),
      term_(options_.engine.cols, options_.engine.rows, options_.scrollback_lines),
      matcher_(options_.engine),
      transcript_(options_.engine.transcript.format, options_.transcript_path, options_.transcript_cwd,
                  options_.session_id),
      asks_(options_.engine, matcher_, options_.mode, &transcript_, &sink_),
      dialogs_(options_.engine, matcher_, options_.mode),
      closer_(options_.engine) {
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
  last_output_ = now;
  ready_deadline_ = now + Ms(options_.engine.timeouts.ready_ms);
  if (options_.raw) CheckReady(now);
  while (!quit_) {
    // `now` is the time OnScreen last looked at everything: a wake-up time
    // at or before it was due then, so PollTimeoutMs can ignore it.
    std::vector<struct pollfd> fds;
    bool want_stdin = stdin_open_ && !out_.congested();
    fds.push_back({want_stdin ? in_fd_ : -1, POLLIN, 0});
    short child_events = static_cast<short>(POLLIN | (pty_.input_pending() ? POLLOUT : 0));
    fds.push_back({child_reaped_ ? -1 : pty_.master_fd(), child_events, 0});
    fds.push_back({out_.pending() ? out_.fd() : -1, POLLOUT, 0});
    int timeout = PollTimeoutMs(now);
    int n = PollWithSignalMask(fds.data(), fds.size(), timeout, &wait_mask);
    if (n < 0 && errno != EINTR) break;
    HandleSignals();
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) ReadChild(kReadBudget);
    if (fds[1].revents & POLLOUT) pty_.FlushInput();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) ReadRequests();
    // No waitpid here: SIGCHLD is blocked outside ppoll, so an exit always
    // wakes ppoll and HandleSignals reaps it (one syscall less per read).
    now = Clock::now();
    OnScreen(now);
    if (!out_.Flush() && state_ != State::kExited) BeginClose(nullptr);
  }
  out_.Drain(2000);
  return exit_code_;
}

bool Session::Spawn() {
  SpawnOptions spawn;
  spawn.argv = options_.engine.command;
  spawn.env_set = options_.engine.env;
  // The emulator behaves like xterm; say so unless the engine says otherwise.
  spawn.env_set.emplace("TERM", "xterm-256color");
  spawn.env_strip = options_.engine.env_strip;
  spawn.cwd = options_.cwd;
  spawn.cols = options_.engine.cols;
  spawn.rows = options_.engine.rows;
  std::string err;
  if (pty_.Spawn(spawn, &err)) return true;
  out_.Send(SessionErrorMessage("spawn", err));
  out_.Drain(1000);
  fprintf(stderr, "tuidriver: %s\n", err.c_str());
  return false;
}

int Session::PollTimeoutMs(TimePoint now) const {
  TimePoint wake = now + Ms(60000);
  // Each part gives only times it waits for. One already passed would be a
  // defect there (it was handled when OnScreen ran at `now`): it is ignored
  // rather than let it spin the CPU.
  auto consider = [&wake, now](TimePoint t) {
    if (t > now) wake = std::min(wake, t);
  };
  if (state_ == State::kStarting && !closing_) {
    consider(ready_deadline_);
    consider(ready_wake_);
  }
  if (state_ == State::kReady) consider(asks_.next_wakeup());
  if (state_ != State::kExited) {
    consider(dialogs_.next_wakeup());
    if (term_.synchronized_update()) consider(frame_started_ + Ms(kFrameLimitMs));
  }
  consider(waiters_.next_wakeup());
  consider(closer_.next_wakeup());
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count();
  return static_cast<int>(std::max<long long>(0, ms + 1));
}

void Session::HandleSignals() {
  if (g_child_changed) {
    g_child_changed = 0;
    CheckChildExit();
  }
  if (g_terminate) {
    // Killed, or our parent died (PDEATHSIG): no time for quit keys.
    g_terminate = 0;
    stdin_open_ = false;
    urgent_close_ = true;
    if (closing_) closer_.Hurry(Clock::now());
    else BeginClose(nullptr);
  }
}

// ---- child side -----------------------------------------------------------

void Session::ReadChild(size_t budget) {
  char buf[65536];
  size_t total = 0;
  while (total < budget) {
    ssize_t n = ReadAvailable(pty_.master_fd(), buf, sizeof buf);
    if (n <= 0) return;  // EAGAIN, or EOF
    FeedChild(buf, static_cast<size_t>(n));
    total += static_cast<size_t>(n);
    // A PTY read returns at most a few KiB however big the buffer, so a short
    // read does not mean the PTY is empty: while the program floods, reading
    // on saves a ppoll per read; once it pauses, one read says EAGAIN.
  }
}

void Session::FeedChild(const char* data, size_t len) {
  term_.Feed(data, len);
  std::string replies = term_.TakeReplies();
  if (!replies.empty() && !child_reaped_) pty_.Write(replies);
  last_output_ = Clock::now();
  if (subscribed_output_) {
    std::string text;
    output_utf8_.Append(data, len, &text);
    if (!text.empty()) out_.SendDroppable(OutputEvent(text), len);
  }
  if (!waiters_.empty()) waiters_.OnOutput(SanitizePrompt(std::string(data, len)), last_output_);
}

void Session::CheckChildExit() {
  if (child_reaped_ || !pty_.TryReap()) return;
  // Everything the child wrote is in the master now: read it all before
  // reporting the exit (the slave stays open, so this ends at EAGAIN).
  ReadChild(SIZE_MAX);
  child_reaped_ = true;
  pty_.DropInput();  // nobody will read it
  ReportExit();
}

void Session::ReportExit() {
  TimePoint now = Clock::now();
  asks_.LastLook(term_, &child_, now);
  if (subscribed_output_) {
    std::string tail;
    output_utf8_.Flush(&tail);
    if (!tail.empty()) out_.Send(OutputEvent(tail));
  }
  UpdateWaiters(now);
  bool was_starting = state_ == State::kStarting;
  state_ = State::kExited;
  out_.Send(ExitEvent(ExitFields()));
  std::string why = ExitDescription();
  asks_.ChildExited(&term_, why, now);
  FailPending("exited", why);
  if (was_starting && !options_.raw && !closing_) {
    // Nothing more can happen: the daemon ends with 3 (ReportNotReady).
    ReportNotReady(options_.engine.name + " exited before it showed its prompt: " + why);
    BeginClose(nullptr);
  }
  if (closing_) FinishClose();
  else if (!stdin_open_) BeginClose(nullptr);
}

void Session::FailPending(const std::string& kind, const std::string& why) {
  asks_.FailQueued(kind, why);
  for (const RequestId& id : waiters_.TakeAll()) ReplyError(id, kind, why, ScreenFields());
}

void Session::OnScreen(TimePoint now) {
  if (state_ != State::kExited && !MidFrame(now)) {
    int rule = dialogs_.Update(term_, last_output_, !options_.raw && !closing_, &child_, now);
    if (rule >= 0) {
      asks_.OnDialog(&term_);
      const DialogRule& d = options_.engine.dialogs[static_cast<size_t>(rule)];
      out_.Send(DialogEvent(d.name, d.keys));
    }
    if (state_ == State::kStarting) CheckReady(now);
    if (state_ == State::kReady) asks_.Update(&term_, last_output_, dialogs_.sending(), &child_, now);
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
bool Session::MidFrame(TimePoint now) {
  if (!term_.synchronized_update()) return false;
  if (term_.synchronized_updates() != frame_seen_) {
    frame_seen_ = term_.synchronized_updates();
    frame_started_ = now;
  }
  return now < frame_started_ + Ms(kFrameLimitMs);
}

void Session::CheckReady(TimePoint now) {
  ready_wake_ = TimePoint::max();
  if (options_.raw || (ReadySettled(term_, matcher_, options_.engine, options_.mode, dialogs_.sending(),
                                    last_output_, now, &ready_wake_) &&
                       matcher_.Started(term_))) {
    state_ = State::kReady;
    asks_.OnReady(now);
    JsonObject o;
    o.Add("type", "ready");
    if (options_.raw) o.AddNull("engine");
    else o.Add("engine", options_.engine.name);
    o.Add("pid", static_cast<int64_t>(pty_.pid()))
        .Add("cols", term_.cols())
        .Add("rows", term_.rows());
    if (!transcript_.session_id().empty()) o.Add("session_id", transcript_.session_id());
    out_.Send(o.Finish());
    return;
  }
  if (now >= ready_deadline_ && !closing_) {
    // The prompt alone is not enough when the engine lists `started`
    // patterns: say which is missing.
    std::string missing = matcher_.Ready(term_) && !matcher_.Started(term_)
                              ? " showed its prompt but none of its `started` patterns"
                              : " did not show its prompt";
    std::string error = options_.engine.name + missing + " within " +
                        std::to_string(options_.engine.timeouts.ready_ms) + " ms";
    ReportNotReady(error);
    FailPending("not_ready", error);
    // Closed as `close` would, without the quit keys: its whole process
    // group goes, and the daemon ends (with 3) once the child is reaped.
    urgent_close_ = true;
    BeginClose(nullptr);
  }
}

// The program never became ready: say so on stdout (with the screen) and on
// stderr (with the screen's last lines, which usually tell why), and make
// the daemon exit with 3.
void Session::ReportNotReady(const std::string& error) {
  std::vector<std::string> screen = term_.ScreenLines();
  JsonObject fields;
  fields.AddStringArray("screen", screen);
  out_.Send(SessionErrorMessage("not_ready", error, fields));
  while (!screen.empty() && screen.back().empty()) screen.pop_back();
  size_t first = screen.size() > 8 ? screen.size() - 8 : 0;
  std::string tail;
  for (size_t i = first; i < screen.size(); ++i) tail += "\n  | " + screen[i];
  fprintf(stderr, "tuidriver: %s%s\n", error.c_str(),
          tail.empty() ? "; its screen is blank" : ("; the end of its screen:" + tail).c_str());
  exit_code_ = 3;
}

void Session::UpdateWaiters(TimePoint now) {
  auto screen = [this] {
    std::string text;
    for (const std::string& l : term_.ScreenLines()) text += l + "\n";
    return text;
  };
  for (Waiters::Outcome& o : waiters_.Update(screen, now)) {
    if (o.met) ReplyOk(o.id, o.fields);
    else ReplyError(o.id, "timeout", "condition not met before the timeout", ScreenFields());
  }
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
      // OnScreen closes once nothing is pending. Before ready it waits for
      // ready (or the ready timeout), so a bare EOF still shows `ready`.
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
  ReplyError(RequestId(), "protocol", "request line longer than " +
             std::to_string(kMaxRequestBytes) + " bytes; discarded");
  std::string().swap(in_buf_);
  discarding_long_line_ = true;
  return false;
}

void Session::HandleLine(const std::string& line) {
  if (!line.empty() && line.back() == '\r') {
    HandleLine(line.substr(0, line.size() - 1));
    return;
  }
  Request request;
  RequestError kind;
  std::string err;
  if (!parser_.Parse(line, &request, &kind, &err)) {
    ReplyError(request.id, kind == RequestError::kUnknownType ? "unknown_type" : "protocol", err);
    return;
  }
  if (request.id.kind != RequestId::Kind::kNone && IdInUse(request.id)) {
    ReplyError(request.id, "protocol", "id " + request.id.json + " is already in use by a pending request");
    return;
  }
  Dispatch(request);
}

bool Session::IdInUse(const RequestId& id) const {
  if (asks_.Has(id) || waiters_.Has(id)) return true;
  for (const RequestId& c : close_ids_) {
    if (c == id) return true;
  }
  return false;
}

void Session::Dispatch(Request& r) {
  const std::string& t = r.type;
  if (t == "ask" || t == "ask_stream") HandleAsk(r);
  else if (t == "cancel") asks_.Cancel(r, &term_, &child_, Clock::now());
  else if (t == "answer") asks_.Answer(r, term_, &child_, Clock::now());
  else if (t == "send" || t == "send_secret" || t == "keys" || t == "paste") HandleInput(r);
  else if (t == "resize") {
    if (state_ != State::kExited) pty_.Resize(r.cols, r.rows);
    term_.Resize(r.cols, r.rows);
    JsonObject fields;
    fields.Add("cols", r.cols).Add("rows", r.rows);
    ReplyOk(r.id, fields);
  } else if (t == "screen") ReplyOk(r.id, ScreenFields());
  else if (t == "scrollback") HandleScrollback(r);
  else if (t == "expect") HandleExpect(r);
  else if (t == "wait_idle") HandleWaitIdle(r);
  else if (t == "signal") HandleSignal(r);
  else if (t == "status") HandleStatus(r);
  else if (t == "subscribe" || t == "unsubscribe") HandleSubscribe(r);
  else if (t == "close") BeginClose(&r.id);
}

void Session::HandleAsk(Request& r) {
  if (options_.raw) {
    ReplyError(r.id, "error", "this is a raw session with no engine; ask needs an engine (tuidriver ENGINE)");
  } else if (state_ == State::kExited) {
    ReplyError(r.id, "exited", ExitDescription(), ExitFields());
  } else if (closing_) {
    ReplyError(r.id, "error", "the session is closing");
  } else if (!asks_.Add(r, Clock::now())) {
    ReplyError(r.id, "busy", "too many asks queued (" + std::to_string(AskQueue::kMaxQueued) + ")");
  }
}

void Session::HandleInput(const Request& r) {
  if (state_ == State::kExited) {
    ReplyError(r.id, "exited", ExitDescription(), ExitFields());
    return;
  }
  if (pty_.input_pending() > kMaxPendingInput) {
    // Input waits for the program without blocking the daemon, but not
    // without bound.
    ReplyError(r.id, "busy", "the program has not read the " + std::to_string(pty_.input_pending()) +
               " bytes sent to it earlier; nothing was sent");
    return;
  }
  asks_.OnInput();  // what the program does with input is unknown
  JsonObject extra;
  if (r.type == "send" || r.type == "send_secret") {
    pty_.Write(r.data);
  } else if (r.type == "keys") {
    WriteKeys(r.keys, term_, &child_);
  } else {
    bool bracketed = term_.bracketed_paste();
    pty_.Write(bracketed ? BracketedPaste(r.text) : r.text);
    extra.Add("bracketed", bracketed);
  }
  ReplyOk(r.id, extra);
}

void Session::HandleScrollback(const Request& r) {
  // Rows below the last non-blank one on screen are not history, and do not
  // count against `lines`.
  int last_row = term_.rows() - 1;
  while (last_row >= 0 && term_.RowText(last_row).empty()) --last_row;
  uint64_t end = term_.lines_scrolled() + static_cast<uint64_t>(last_row + 1);
  uint64_t first = term_.first_retained_row();
  if (r.lines >= 0 && end - first > static_cast<uint64_t>(r.lines)) first = end - static_cast<uint64_t>(r.lines);
  std::vector<std::string> lines;
  for (uint64_t row = first; row < end; ++row) {
    std::string text;
    bool wrapped;
    if (term_.LineAt(row, &text, &wrapped)) lines.push_back(std::move(text));
  }
  JsonObject fields;
  fields.AddStringArray("lines", lines);
  ReplyOk(r.id, fields);
}

void Session::HandleExpect(Request& r) {
  std::string err;
  if (!waiters_.AddExpect(r, Clock::now(), &err)) {
    ReplyError(r.id, "protocol", "field 'pattern' is not a valid regular expression: " + err);
    return;
  }
  UpdateWaiters(Clock::now());
  // The program is gone: the final screen matches now or never.
  if (state_ == State::kExited && waiters_.Has(r.id)) {
    FailPending("exited", ExitDescription());
  }
}

void Session::HandleWaitIdle(Request& r) {
  if (state_ == State::kExited) {
    ReplyError(r.id, "exited", ExitDescription(), ScreenFields());
    return;
  }
  waiters_.AddWaitIdle(r, Clock::now());
}

void Session::HandleSignal(const Request& r) {
  int sig = SignalFromName(r.signal);
  if (sig == 0) {
    ReplyError(r.id, "protocol", "unknown signal '" + r.signal + "'");
  } else if (state_ == State::kExited) {
    ReplyError(r.id, "exited", ExitDescription(), ExitFields());
  } else if (!pty_.SignalForeground(sig)) {
    ReplyError(r.id, "error", std::string("could not send the signal: ") + strerror(errno));
  } else {
    JsonObject fields;
    fields.Add("signal", "SIG" + SignalName(sig));
    ReplyOk(r.id, fields);
  }
}

void Session::HandleStatus(const Request& r) {
  const char* state = "starting";
  if (state_ == State::kExited) state = "exited";
  else if (state_ == State::kReady) state = asks_.busy() ? "busy" : "ready";
  JsonObject o;
  o.Add("state", state).Add("pid", static_cast<int64_t>(pty_.pid()));
  if (state_ == State::kExited) o.AddNull("foreground_pid").AddNull("cwd");
  else o.Add("foreground_pid", static_cast<int64_t>(pty_.ForegroundPid())).Add("cwd", pty_.Cwd());
  o.Add("cols", term_.cols()).Add("rows", term_.rows());
  if (options_.raw) o.AddNull("engine");
  else o.Add("engine", options_.engine.name);
  o.Add("mode", options_.mode).Add("queued", static_cast<int64_t>(asks_.queued()));
  if (transcript_.session_id().empty()) o.AddNull("session_id");
  else o.Add("session_id", transcript_.session_id());
  o.AddRaw("explain", ScreenMatcher::ExplainJson(matcher_.Explain(term_, options_.mode)));
  if (state_ == State::kExited) o.Merge(ExitFields());
  else o.AddNull("exit_code").AddNull("signal");
  ReplyOk(r.id, o);
}

void Session::HandleSubscribe(const Request& r) {
  subscribed_output_ = r.type == "subscribe";
  JsonObject fields;
  fields.AddStringArray("events", subscribed_output_ ? r.events : std::vector<std::string>());
  ReplyOk(r.id, fields);
}

// ---- close ----------------------------------------------------------------

void Session::BeginClose(const RequestId* id) {
  if (id && closed_) {
    ReplyOk(*id, CloseFields());
    return;
  }
  if (id) close_ids_.push_back(*id);
  if (closing_) return;
  closing_ = true;
  TimePoint now = Clock::now();
  asks_.ReleaseHeld(now);
  if (id) {
    asks_.CancelActive("the session is closing", &term_, &child_, now);
    asks_.CancelQueued("the session is closing", term_, &child_);
  }
  if (state_ == State::kExited) {
    FinishClose();
    return;
  }
  // An interrupted program is still reacting: quit keys typed now would be
  // lost in its reaction, and the close would end in signals.
  closer_.Begin(asks_.resyncing(), urgent_close_, term_, &child_, now);
}

void Session::AdvanceClose(TimePoint now) {
  if (closer_.phase() == Closer::Phase::kNone) return;
  if (closer_.phase() == Closer::Phase::kSettle && state_ != State::kExited) {
    asks_.SendDueInterrupt(term_, &child_, now);
  }
  closer_.Update(asks_.Settled(term_, last_output_, now), last_output_ + Ms(AskQueue::kQuietMs), term_,
                 &child_, &child_, now);
  if (closer_.gave_up()) FinishClose();  // SIGKILL did not reap the child within a second
}

void Session::FinishClose() {
  if (closed_) return;
  // Whatever the program left behind goes with it: its process group, and
  // detached descendants that were re-parented to us.
  pty_.SignalGroup(SIGKILL);
  if (SignalOrphans(SIGKILL) > 0) ReapOrphans(1000);
  for (const RequestId& id : close_ids_) ReplyOk(id, CloseFields());
  close_ids_.clear();
  closed_ = true;
  quit_ = true;
}

// ---- replies --------------------------------------------------------------

void Session::ReplyOk(const RequestId& id, const JsonObject& fields) {
  out_.Send(ReplyOkMessage(id, fields));
}

void Session::ReplyError(const RequestId& id, const std::string& kind,
                         const std::string& error, const JsonObject& fields) {
  out_.Send(ReplyErrorMessage(id, kind, error, fields));
}

JsonObject Session::ScreenFields() const {
  Cursor c = term_.cursor();
  JsonObject cursor;
  cursor.Add("row", c.row).Add("col", c.col).Add("visible", c.visible);
  JsonObject o;
  o.AddStringArray("lines", term_.ScreenLines());
  o.AddRaw("cursor", cursor.Finish()).Add("cols", term_.cols()).Add("rows", term_.rows())
      .Add("alt_screen", term_.alt_screen()).Add("title", term_.title());
  return o;
}

std::string Session::ExitDescription() const {
  const ExitStatus& s = pty_.exit_status();
  if (s.signal) return "the program was killed by SIG" + SignalName(s.signal);
  return "the program exited with code " + std::to_string(s.code);
}

// "exit_code":N,"signal":null  or  "exit_code":null,"signal":"SIGKILL": one
// spelling everywhere (exit event, close reply, status, exited errors).
JsonObject Session::ExitFields() const {
  const ExitStatus& s = pty_.exit_status();
  JsonObject o;
  if (s.signal) o.AddNull("exit_code").Add("signal", "SIG" + SignalName(s.signal));
  else o.Add("exit_code", s.code).AddNull("signal");
  return o;
}

}  // namespace tuidriver
