#include "output.h"

#include <errno.h>
#include <unistd.h>

#include "clock.h"
#include "messages.h"
#include "platform.h"

namespace tuidriver {

Output::Output(int fd) : fd_(fd), blocking_(isatty(fd) || !SetNonblocking(fd)) {}

void Output::Send(const std::string& json) {
  if (broken_) return;
  if (dropped_events_ > 0) NoteDropped();
  buffer_ += json;
  buffer_ += '\n';
  if (blocking_) Flush();
}

void Output::SendDroppable(const std::string& json, size_t raw_bytes) {
  if (broken_) return;
  if (buffer_.size() - written_ > kDropOutputAbove) {
    dropped_bytes_ += raw_bytes;
    ++dropped_events_;
    return;
  }
  Send(json);
}

void Output::NoteDropped() {
  buffer_ += OutputDroppedEvent(static_cast<int64_t>(dropped_bytes_), static_cast<int64_t>(dropped_events_));
  buffer_ += '\n';
  dropped_bytes_ = dropped_events_ = 0;
}

bool Output::Flush() {
  while (!broken_ && written_ < buffer_.size()) {
    ssize_t n = write(fd_, buffer_.data() + written_, buffer_.size() - written_);
    if (n > 0) {
      written_ += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    broken_ = true;  // EPIPE or similar: nobody reads any more
    buffer_.clear();
    written_ = 0;
    return false;
  }
  if (written_ == buffer_.size()) {
    buffer_.clear();
    written_ = 0;
  } else if (written_ > (1 << 20)) {
    buffer_.erase(0, written_);  // amortised: only after 1 MiB was written
    written_ = 0;
  }
  return !broken_;
}

// Blocks, so it reads the session's clock itself, as the loop does: it runs
// outside the loop's turns (after the last one, or when the spawn failed).
void Output::Drain(int timeout_ms) {
  TimePoint end = Clock::now() + Ms(timeout_ms);
  while (pending() && !broken_) {
    Flush();
    if (!pending()) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    if (left <= 0) break;
    WaitWritable(fd_, static_cast<int>(left));
  }
}

}  // namespace tuidriver
