#include "waiters.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

using std::chrono::milliseconds;

Request Expect(const std::string& id, const std::string& pattern, long timeout_ms = 5000) {
  Request r;
  r.type = RequestType::kExpect;
  r.id.json = id;
  r.pattern = pattern;
  r.timeout_ms = timeout_ms;
  return r;
}

Request WaitIdle(const std::string& id, int idle_ms, long timeout_ms = 5000) {
  Request r;
  r.type = RequestType::kWaitIdle;
  r.id.json = id;
  r.idle_ms = idle_ms;
  r.timeout_ms = timeout_ms;
  return r;
}

std::function<std::string()> Screen(const std::string& text) {
  return [text] { return text; };
}

const TimePoint kT0 = TimePoint() + std::chrono::hours(1);

TEST(Waiters, ExpectMatchesTheScreenOrTheOutputSinceTheRequest) {
  Waiters w;
  std::string err;
  ASSERT_TRUE(w.AddExpect(Expect("1", "do(ne)"), kT0, &err));
  EXPECT_TRUE(w.Update(Screen("working\n"), kT0).empty());
  // Output that scrolled off (or was redrawn away) still counts.
  w.OnOutput("all done\r\n", kT0 + milliseconds(10));
  auto out = w.Update(Screen("next screen\n"), kT0 + milliseconds(10));
  ASSERT_EQ(1u, out.size());
  EXPECT_TRUE(out[0].met);
  EXPECT_EQ(R"({"match":"done","groups":["ne"]})", out[0].fields.Finish());
  EXPECT_TRUE(w.empty());
}

TEST(Waiters, ExpectRejectsABadPattern) {
  Waiters w;
  std::string err;
  EXPECT_FALSE(w.AddExpect(Expect("1", "(("), kT0, &err));
  EXPECT_FALSE(err.empty());
  EXPECT_TRUE(w.empty());
}

TEST(Waiters, WaitIdleCountsFromTheRequest) {
  Waiters w;
  w.OnOutput("old", kT0 - milliseconds(5000));  // long quiet before the request
  w.AddWaitIdle(WaitIdle("1", 500), kT0);
  EXPECT_EQ(kT0 + milliseconds(500), w.next_wakeup());
  EXPECT_TRUE(w.Update(Screen(""), kT0 + milliseconds(499)).empty());
  w.OnOutput("x", kT0 + milliseconds(300));  // output restarts the quiet time
  EXPECT_EQ(kT0 + milliseconds(800), w.next_wakeup());
  EXPECT_TRUE(w.Update(Screen(""), kT0 + milliseconds(700)).empty());
  auto out = w.Update(Screen(""), kT0 + milliseconds(800));
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ(R"({"idle_ms":500})", out[0].fields.Finish());
}

TEST(Waiters, DeadlinesEndWaitersThatNeverMeetTheirCondition) {
  Waiters w;
  std::string err;
  ASSERT_TRUE(w.AddExpect(Expect("1", "never", 2000), kT0, &err));
  w.AddWaitIdle(WaitIdle("2", 10000, 1000), kT0);
  EXPECT_EQ(kT0 + milliseconds(1000), w.next_wakeup());
  auto out = w.Update(Screen(""), kT0 + milliseconds(1000));
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ("2", out[0].id.json);
  EXPECT_FALSE(out[0].met);
  EXPECT_EQ(1000, out[0].timeout_ms);  // for the error text, in ms as on the wire
  EXPECT_EQ(kT0 + milliseconds(2000), w.next_wakeup());
  out = w.Update(Screen(""), kT0 + milliseconds(2000));
  ASSERT_EQ(1u, out.size());
  EXPECT_FALSE(out[0].met);
  EXPECT_EQ(2000, out[0].timeout_ms);
  // Nothing left: no wake-up at all, so an idle daemon sleeps.
  EXPECT_EQ(TimePoint::max(), w.next_wakeup());
}

TEST(Waiters, TakeAllAndHas) {
  Waiters w;
  w.AddWaitIdle(WaitIdle("1", 100), kT0);
  w.AddWaitIdle(WaitIdle("\"b\"", 100), kT0);
  RequestId b;
  b.json = "\"b\"";
  EXPECT_TRUE(w.Has(b));
  auto ids = w.TakeAll();
  ASSERT_EQ(2u, ids.size());
  EXPECT_TRUE(w.empty());
  EXPECT_FALSE(w.Has(b));
}

TEST(Waiters, OutputOnlyExpectIgnoresWhatWasOnScreenBefore) {
  Waiters w;
  std::string err;
  Request r = Expect("1", "done");
  r.output_only = true;
  ASSERT_TRUE(w.AddExpect(r, kT0, &err));
  // The screen already shows it (an echoed command line): no match.
  EXPECT_TRUE(w.Update(Screen("$ echo done\n"), kT0).empty());
  w.OnOutput("done\r\n", kT0 + milliseconds(5));
  auto out = w.Update(Screen("$ echo done\ndone\n"), kT0 + milliseconds(5));
  ASSERT_EQ(1u, out.size());
  EXPECT_TRUE(out[0].met);
}

TEST(Waiters, RemoveDropsOneWaiter) {
  Waiters w;
  std::string err;
  ASSERT_TRUE(w.AddExpect(Expect("1", "x"), kT0, &err));
  w.AddWaitIdle(WaitIdle("2", 100), kT0);
  EXPECT_TRUE(w.Remove(Expect("2", "").id));
  EXPECT_FALSE(w.Remove(Expect("2", "").id));
  EXPECT_TRUE(w.Has(Expect("1", "").id));
  EXPECT_FALSE(w.Has(Expect("2", "").id));
}

}  // namespace
}  // namespace tuidriver
