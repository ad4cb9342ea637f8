// The parts of Session both loops share: session.cc (POSIX: ppoll, a PTY)
// and session_windows.cc (WaitForMultipleObjects, a ConPTY).
#include "session.h"

#include <stdio.h>

#include <algorithm>

#include "cli_version.h"
#include "messages.h"

namespace tuidriver {

void Session::WaitToStartAlone() {
  std::string note;
  start_lock_ = StartLock::WaitFor(options_.start_alone_until, options_.engine.timeouts.ready_ms, &note);
  if (!note.empty()) fprintf(stderr, "tuidriver: %s\n", note.c_str());
}

void Session::ReleaseStartLockOnceStarted() {
  if (start_lock_ && !core_.starting()) start_lock_.reset();
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
  if (pty_.Spawn(spawn, &err)) {
    core_.SetCliVersion(NpmPackageVersion(pty_.executable(), options_.engine.cli.npm));
    if (!core_.cli_warning().empty()) fprintf(stderr, "tuidriver: warning: %s\n", core_.cli_warning().c_str());
    return true;
  }
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

// A flood (a 100k-line reply: 0.6 MB of output) raises the heap's peak by
// several MB (the reply, the history's growth, the events), and the
// allocator keeps it. Given back once the program has written enough since
// the last time and the core waits for nothing, so a busy session never
// pays for it and an idle one holds what it uses (issue 46).
void Session::ReleaseMemoryWhenIdle(TimePoint now) {
  if (output_since_release_ < kReleaseAfterBytes || out_.pending()) return;
  if (core_.NextWakeup(now) != TimePoint::max()) return;
  ReleaseFreeMemory();
  output_since_release_ = 0;
}

void Session::TakeRequestBytes(const char* data, size_t len) {
  size_t start = 0;
  for (size_t i = 0; i < len; ++i) {
    if (data[i] != '\n') continue;
    if (AppendRequestBytes(data + start, i - start)) HandleLine(in_buf_);
    discarding_long_line_ = false;
    in_buf_.clear();
    // One long line must not keep its memory for the rest of the session.
    if (in_buf_.capacity() > (1u << 20)) std::string().swap(in_buf_);
    start = i + 1;
  }
  AppendRequestBytes(data + start, len - start);
}

void Session::EndOfRequests() {
  stdin_open_ = false;
  if (!in_buf_.empty() && !discarding_long_line_) HandleLine(in_buf_);
  in_buf_.clear();
  core_.OnStdinEof(Clock::now());
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

}  // namespace tuidriver
