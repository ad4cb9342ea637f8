#include "platform.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "gtest/gtest.h"

namespace tuidriver {
namespace {

TEST(PlatformTest, ChildPidsFindsAForkedChild) {
  pid_t pid = fork();
  if (pid == 0) {
    pause();
    _exit(0);
  }
  ASSERT_GT(pid, 0);
  std::vector<pid_t> kids = ChildPids(getpid());
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  EXPECT_NE(std::find(kids.begin(), kids.end(), pid), kids.end());
  std::vector<pid_t> after = ChildPids(getpid());
  EXPECT_EQ(std::find(after.begin(), after.end(), pid), after.end());
}

TEST(PlatformTest, ProcessCwdOfSelfIsGetcwd) {
  char buf[4096];
  ASSERT_NE(getcwd(buf, sizeof buf), nullptr);
  EXPECT_EQ(ProcessCwd(getpid()), buf);
  EXPECT_EQ(ProcessCwd(999999999), "");
}

TEST(PlatformTest, SelfExePathNamesThisTestBinary) {
  std::string exe = SelfExePath();
  ASSERT_FALSE(exe.empty());
  EXPECT_EQ(exe[0], '/');
  EXPECT_EQ(access(exe.c_str(), X_OK), 0);
}

TEST(PlatformTest, PollWithSignalMaskSeesReadableFdAndTimesOut) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  sigset_t none;
  sigemptyset(&none);
  struct pollfd fd = {p[0], POLLIN, 0};
  EXPECT_EQ(PollWithSignalMask(&fd, 1, 10, &none), 0);
  ASSERT_EQ(write(p[1], "x", 1), 1);
  EXPECT_EQ(PollWithSignalMask(&fd, 1, -1, &none), 1);
  EXPECT_TRUE(fd.revents & POLLIN);
  close(p[0]);
  close(p[1]);
}

TEST(PlatformTest, CloseFdsExceptKeepsOnlyTheOneFd) {
  int keep = open("/dev/null", O_RDONLY);
  int other = open("/dev/null", O_RDONLY);
  ASSERT_GE(keep, 3);
  ASSERT_GE(other, 3);
  pid_t pid = fork();
  if (pid == 0) {
    CloseFdsExcept(keep);
    bool ok = fcntl(keep, F_GETFD) >= 0 && fcntl(other, F_GETFD) < 0 &&
              fcntl(2, F_GETFD) >= 0;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  close(keep);
  close(other);
}

}  // namespace
}  // namespace tuidriver
