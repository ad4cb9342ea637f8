// The daemon's stdout: NDJSON lines, written without ever blocking the loop.
//
// Replies and events queue in memory and are written when the fd is
// writable. Raw `output` events are the only thing that can grow without a
// request behind it, so they are dropped, and counted, when the client
// stops reading; the next event after the backlog clears says how many
// bytes were dropped. The session stops reading requests while the queue is
// full, which bounds everything else.
#ifndef TUIDRIVER_OUTPUT_H_
#define TUIDRIVER_OUTPUT_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace tuidriver {

class Output {
 public:
  // Does not own fd. Sets it non-blocking unless it is a terminal (a
  // terminal's file description is shared with the user's shell).
  explicit Output(int fd);

  // Queues one JSON line (without its newline).
  void Send(const std::string& json);
  // Queues an `output` event unless the backlog is over the limit.
  void SendDroppable(const std::string& json, size_t raw_bytes);

  // Writes as much as the fd takes now. Returns false once the reader is
  // gone (EPIPE); everything queued is then discarded.
  bool Flush();
  // Blocks until everything is written or `timeout_ms` passes.
  void Drain(int timeout_ms);

  bool pending() const { return written_ < buffer_.size(); }
  // True when the backlog is large: stop taking requests until it drains.
  bool congested() const { return buffer_.size() - written_ > kCongested; }
  bool broken() const { return broken_; }
  int fd() const { return fd_; }

  static constexpr size_t kCongested = 8 << 20;       // stop reading requests
  static constexpr size_t kDropOutputAbove = 4 << 20;  // drop raw output events

 private:
  void NoteDropped();

  int fd_;
  bool blocking_;
  bool broken_ = false;
  std::string buffer_;
  size_t written_ = 0;
  uint64_t dropped_bytes_ = 0;
  uint64_t dropped_events_ = 0;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_OUTPUT_H_
