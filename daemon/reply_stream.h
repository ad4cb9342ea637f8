// What ask_stream sends: deltas that only ever extend what was sent, so the
// deltas concatenated are a prefix of every later candidate they were cut
// from. When the final text does not extend what was sent (the program
// rewrote streamed text), the reply says revised:true. Pure logic, so a
// property test can drive it with random growth and rewrites.
#ifndef TUIDRIVER_REPLY_STREAM_H_
#define TUIDRIVER_REPLY_STREAM_H_

#include <string>

namespace tuidriver {

class ReplyStream {
 public:
  // A reply as the screen now shows it. Not final: only complete rows (the
  // caller leaves out the row being drawn); trailing line breaks wait for
  // the text after them. Final: the reply's text.
  void Offer(std::string candidate, bool final);
  // New text since the last call, or empty.
  std::string TakeDelta();
  // What the deltas add up to so far (sent or pending).
  const std::string& streamed() const { return streamed_; }
  // True when the deltas do not add up to `final_text`.
  bool Revised(const std::string& final_text) const { return streamed_ != final_text; }
  // Back to nothing streamed (an ask typed again before its turn began).
  void Reset();

 private:
  std::string streamed_;
  std::string pending_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_REPLY_STREAM_H_
