#include "output.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace tuidriver {
namespace {

// Output writes to a pipe here, as to a client that reads stdout through
// one: the pipe's 64 KiB buffer is the client that stops reading.
class OutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(0, pipe(fds_));
    fcntl(fds_[0], F_SETFL, fcntl(fds_[0], F_GETFL) | O_NONBLOCK);
  }
  void TearDown() override {
    if (fds_[0] >= 0) close(fds_[0]);
    close(fds_[1]);
  }
  // What the client has been sent so far.
  std::string ReadAll() {
    std::string got;
    char buf[65536];
    for (ssize_t n; (n = read(fds_[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<size_t>(n));
    return got;
  }
  // The client reads until everything queued has reached it.
  std::string ReadUntilFlushed(Output* out) {
    std::string got;
    while (out->Flush() && out->pending()) got += ReadAll();
    return got + ReadAll();
  }
  int fds_[2] = {-1, -1};
};

TEST_F(OutputTest, LinesQueueAndGoOutWhenFlushed) {
  Output out(fds_[1]);
  out.Send(R"({"type":"ready"})");
  out.Send(R"({"id":1,"type":"reply","ok":true})");
  EXPECT_TRUE(out.pending());  // a pipe is written only by Flush: the loop never blocks
  EXPECT_EQ("", ReadAll());
  EXPECT_TRUE(out.Flush());
  EXPECT_FALSE(out.pending());
  EXPECT_EQ("{\"type\":\"ready\"}\n{\"id\":1,\"type\":\"reply\",\"ok\":true}\n", ReadAll());
}

TEST_F(OutputTest, OutputEventsAreDroppedAndCountedWhileTheClientLags) {
  Output out(fds_[1]);
  std::string big(Output::kDropOutputAbove + 1, 'x');
  out.Send(big);  // not written yet: the backlog is over the limit
  out.SendDroppable(R"({"type":"output","data":"a"})", 100);
  out.SendDroppable(R"({"type":"output","data":"b"})", 23);
  out.Send(R"({"id":2,"type":"reply","ok":true})");  // a reply is never dropped
  std::string got = ReadUntilFlushed(&out);
  ASSERT_EQ(0, got.compare(0, big.size() + 1, big + "\n"));
  EXPECT_EQ(R"({"type":"output_dropped","bytes":123,"events":2,"reason":"the client was not reading stdout"})"
            "\n" R"({"id":2,"type":"reply","ok":true})" "\n",
            got.substr(big.size() + 1));
  out.SendDroppable(R"({"type":"output","data":"c"})", 1);  // caught up: sent again
  EXPECT_EQ("{\"type\":\"output\",\"data\":\"c\"}\n", ReadUntilFlushed(&out));
}

TEST_F(OutputTest, ALargeBacklogStopsTheRequestsUntilItDrains) {
  Output out(fds_[1]);
  out.Send(std::string(Output::kCongested / 2, 'x'));
  EXPECT_FALSE(out.congested());
  out.Send(std::string(Output::kCongested / 2, 'y'));  // with the newlines, past the mark
  EXPECT_TRUE(out.congested());
  ReadUntilFlushed(&out);
  EXPECT_FALSE(out.congested());
}

TEST_F(OutputTest, AClientThatIsGoneBreaksItAndEverythingQueuedIsDiscarded) {
  Output out(fds_[1]);
  out.Send(R"({"type":"ready"})");
  close(fds_[0]);
  fds_[0] = -1;
  // The daemon ignores SIGPIPE (session.cc); here it is blocked, then taken.
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  EXPECT_FALSE(out.Flush());
  struct timespec zero = {0, 0};
  sigtimedwait(&pipe_only, nullptr, &zero);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  EXPECT_TRUE(out.broken());
  EXPECT_FALSE(out.pending());
  out.Send(R"({"type":"exit"})");  // nobody to send it to
  EXPECT_FALSE(out.pending());
}

TEST_F(OutputTest, DrainWritesWhatTheClientTakesAndGivesUpAfterItsTime) {
  Output out(fds_[1]);
  out.Send(R"({"type":"exit"})");
  out.Drain(1000);
  EXPECT_FALSE(out.pending());
  EXPECT_EQ("{\"type\":\"exit\"}\n", ReadAll());
  out.Send(std::string(1 << 20, 'z'));  // more than the pipe holds, and nobody reads
  auto start = std::chrono::steady_clock::now();
  out.Drain(100);
  auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(out.pending());
  EXPECT_GE(waited, std::chrono::milliseconds(99));  // what is left is counted in whole ms
  EXPECT_LT(waited, std::chrono::seconds(5));  // generous: the machine may be loaded
}

}  // namespace
}  // namespace tuidriver
