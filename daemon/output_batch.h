// `output` events, batched while the program floods.
//
// The first output after a quiet moment goes out at once (a keystroke's
// echo is not delayed). While output keeps coming, it is gathered into one
// event every kBatchMs, or sooner once kMaxBatchBytes are waiting: a
// subscriber (the VS Code terminal, the server's WebSocket) then wakes up
// and parses a few large events instead of one per PTY read (a `cat` of
// 25 MB: 141 events instead of 2,281).
//
// Every other line goes through Send, which first sends the batch: output
// stays in order with replies and events (the exit event comes after the
// last byte).
#ifndef TUIDRIVER_OUTPUT_BATCH_H_
#define TUIDRIVER_OUTPUT_BATCH_H_

#include <string>
#include <string_view>

#include "child.h"
#include "clock.h"

namespace tuidriver {

class OutputBatch : public MessageSink {
 public:
  // `out` must outlive the batch.
  explicit OutputBatch(MessageSink* out) : out_(out) {}

  void Send(const std::string& line) override;
  // Program output for the `output` event: whole UTF-8 characters, or any
  // bytes when base64(). `raw_bytes` is its size as read, counted if the
  // event is dropped.
  void AddOutput(std::string_view text, size_t raw_bytes, TimePoint now);
  // Sends the batch once it is due.
  void Update(TimePoint now);
  // When Update must run; max() when nothing waits.
  TimePoint next_wakeup() const { return pending_.empty() ? TimePoint::max() : due_; }
  // Sends what waits now.
  void Flush();
  // `output` events as base64 bytes (data_base64) or as a JSON string
  // (data). What waits goes out in the encoding it was gathered for.
  void set_base64(bool on) {
    if (on != base64_) Flush();
    base64_ = on;
  }
  bool base64() const { return base64_; }

  static constexpr int kBatchMs = 2;
  static constexpr size_t kMaxBatchBytes = 64 << 10;

 private:
  MessageSink* out_;
  bool base64_ = false;
  std::string pending_;
  size_t pending_raw_ = 0;
  TimePoint due_;
  TimePoint last_sent_ = TimePoint::min();
};

}  // namespace tuidriver

#endif  // TUIDRIVER_OUTPUT_BATCH_H_
