// The one clock of the daemon's pure parts. Each part is given `now`
// (Update(..., now)) and says when it must run again (next_wakeup()), so a
// test drives it with made-up times instead of sleeping.
#ifndef TUIDRIVER_CLOCK_H_
#define TUIDRIVER_CLOCK_H_

#include <chrono>

namespace tuidriver {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;

// A duration in milliseconds, the unit of every time in engines and on the wire.
inline std::chrono::milliseconds Ms(long ms) { return std::chrono::milliseconds(ms); }

}  // namespace tuidriver

#endif  // TUIDRIVER_CLOCK_H_
