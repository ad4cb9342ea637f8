#include "output_batch.h"

#include "messages.h"

namespace tuidriver {

void OutputBatch::Send(const std::string& line) {
  Flush();
  out_->Send(line);
}

void OutputBatch::AddOutput(std::string_view text, size_t raw_bytes, TimePoint now) {
  if (text.empty()) return;
  bool quiet = pending_.empty() && now >= last_sent_ + Ms(kBatchMs);
  if (pending_.empty()) due_ = quiet ? now : last_sent_ + Ms(kBatchMs);
  pending_.append(text.data(), text.size());
  pending_raw_ += raw_bytes;
  if (quiet || pending_.size() >= kMaxBatchBytes) {
    Flush();
    last_sent_ = now;
  }
}

void OutputBatch::Update(TimePoint now) {
  if (pending_.empty() || now < due_) return;
  Flush();
  last_sent_ = now;
}

void OutputBatch::Flush() {
  if (pending_.empty()) return;
  out_->SendDroppable(base64_ ? OutputBase64Event(pending_) : OutputEvent(pending_), pending_raw_);
  pending_.clear();
  pending_raw_ = 0;
}

}  // namespace tuidriver
