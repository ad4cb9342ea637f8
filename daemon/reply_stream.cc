#include "reply_stream.h"

namespace tuidriver {

void ReplyStream::Offer(std::string candidate, bool final) {
  // A line break is sent with the line after it: the final text has no
  // trailing line break, and the deltas must add up to it exactly.
  if (!final) {
    size_t keep = candidate.find_last_not_of('\n');
    candidate.resize(keep == std::string::npos ? 0 : keep + 1);
  }
  // Deltas only ever extend what was sent: a reply the program rewrote is
  // held back until it extends the streamed prefix again.
  if (candidate.size() <= streamed_.size()) return;
  if (candidate.compare(0, streamed_.size(), streamed_) != 0) return;
  pending_ += candidate.substr(streamed_.size());
  streamed_ = std::move(candidate);
}

std::string ReplyStream::TakeDelta() {
  std::string out;
  out.swap(pending_);
  return out;
}

void ReplyStream::Reset() {
  streamed_.clear();
  pending_.clear();
}

}  // namespace tuidriver
