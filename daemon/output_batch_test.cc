#include "output_batch.h"

#include <gtest/gtest.h>

#include "test_fakes.h"

namespace tuidriver {
namespace {

class OutputBatchTest : public ::testing::Test {
 protected:
  OutputBatchTest() : batch_(&sink_) {}
  void Add(const std::string& text, int ms) { batch_.AddOutput(text, text.size(), clock_.At(ms)); }
  RecordingSink sink_;
  OutputBatch batch_;
  FakeClock clock_;
};

TEST_F(OutputBatchTest, OutputAfterAQuietMomentGoesAtOnce) {
  EXPECT_EQ(TimePoint::max(), batch_.next_wakeup());
  Add("a", 0);
  ASSERT_EQ(1u, sink_.lines.size());
  EXPECT_EQ(R"({"type":"output","data":"a"})", sink_.lines[0]);
  EXPECT_EQ(TimePoint::max(), batch_.next_wakeup());
  Add("b", 10);  // quiet since 0: at once again
  EXPECT_EQ(2u, sink_.lines.size());
}

TEST_F(OutputBatchTest, AFloodIsSentEveryBatchInterval) {
  Add("a", 0);
  Add("b", 1);
  Add("c", 1);
  EXPECT_EQ(1u, sink_.lines.size());  // b and c wait for the interval
  EXPECT_EQ(clock_.At(OutputBatch::kBatchMs), batch_.next_wakeup());
  batch_.Update(clock_.At(1));
  EXPECT_EQ(1u, sink_.lines.size());
  batch_.Update(clock_.At(OutputBatch::kBatchMs));
  ASSERT_EQ(2u, sink_.lines.size());
  EXPECT_EQ(R"({"type":"output","data":"bc"})", sink_.lines[1]);
  EXPECT_EQ(TimePoint::max(), batch_.next_wakeup());
}

TEST_F(OutputBatchTest, AFullBatchGoesAtOnce) {
  Add("a", 0);
  std::string big(OutputBatch::kMaxBatchBytes / 2, 'x');
  Add(big, 1);
  EXPECT_EQ(1u, sink_.lines.size());
  Add(big, 1);
  ASSERT_EQ(2u, sink_.lines.size());
  EXPECT_EQ(2 * big.size() + std::string(R"({"type":"output","data":""})").size(), sink_.lines[1].size());
}

// A reply, or the exit event, never overtakes output read before it.
TEST_F(OutputBatchTest, AnyOtherLineSendsTheBatchFirst) {
  Add("a", 0);
  Add("b", 1);
  batch_.Send(R"({"type":"exit"})");
  ASSERT_EQ(3u, sink_.lines.size());
  EXPECT_EQ(R"({"type":"output","data":"b"})", sink_.lines[1]);
  EXPECT_EQ(R"({"type":"exit"})", sink_.lines[2]);
  EXPECT_EQ(TimePoint::max(), batch_.next_wakeup());
}

// base64: the bytes as they are, invalid UTF-8 included; what was gathered
// before the switch goes out as it was.
TEST_F(OutputBatchTest, Base64CarriesTheBytesExactly) {
  Add("a", 0);
  Add("b", 1);
  batch_.set_base64(true);
  ASSERT_EQ(2u, sink_.lines.size());
  EXPECT_EQ(R"({"type":"output","data":"b"})", sink_.lines[1]);
  Add(std::string("\xff\x1b[m", 4), 10);
  ASSERT_EQ(3u, sink_.lines.size());
  EXPECT_EQ(R"({"type":"output","data_base64":"/xtbbQ=="})", sink_.lines[2]);
}

}  // namespace
}  // namespace tuidriver
