// Requests that reply once a condition holds: `expect` (a pattern on the
// screen, or in the output since the request) and `wait_idle` (no output
// for idle_ms after the request), each until its own deadline. Pure: the
// session passes in the screen, the output and the time, and turns each
// Outcome into a reply, so this is tested with a fake clock.
#ifndef TUIDRIVER_WAITERS_H_
#define TUIDRIVER_WAITERS_H_

#include <re2/re2.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "clock.h"
#include "json_writer.h"
#include "request.h"

namespace tuidriver {

class Waiters {
 public:
  struct Outcome {
    RequestId id;
    bool met = false;   // false: the deadline passed first
    JsonObject fields;  // met: expect's match and groups, or wait_idle's idle_ms
    long timeout_ms = 0;  // not met: the time limit that passed, for the error text
  };

  // False, with *err, when the pattern is not a valid regular expression.
  bool AddExpect(const Request& r, TimePoint now, std::string* err);
  void AddWaitIdle(const Request& r, TimePoint now);
  // Program output (already sanitised text), for expect's "since the request".
  void OnOutput(const std::string& text, TimePoint now);

  // The waiters whose condition holds or whose deadline passed, removed.
  // `screen` gives the screen's text (rows joined by \n), asked for at most
  // once, and only when an expect is waiting.
  std::vector<Outcome> Update(const std::function<std::string()>& screen, TimePoint now);
  // The earliest time Update must run without new output; max() if none.
  TimePoint next_wakeup() const;

  // Every waiter's id, removed (the program is gone, or never became ready).
  std::vector<RequestId> TakeAll();
  // Drops the waiter `id` (a cancel): false when there is none.
  bool Remove(const RequestId& id);
  bool empty() const { return waiters_.empty(); }
  bool Has(const RequestId& id) const;

 private:
  struct Waiter {
    RequestId id;
    std::unique_ptr<RE2> pattern;  // expect; null for wait_idle
    std::string seen;              // expect: output since the request
    bool output_only = false;      // expect: match `seen` only, not the screen
    long idle_ms = 0;              // wait_idle
    long timeout_ms = 0;
    TimePoint received;
    TimePoint deadline;
  };
  static long TimeoutMs(const Request& r);
  bool Match(const Waiter& w, const std::string& screen, JsonObject* fields) const;
  // wait_idle: quiet since the later of the last output and the request.
  TimePoint IdleDue(const Waiter& w) const;

  std::vector<Waiter> waiters_;
  TimePoint last_output_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_WAITERS_H_
