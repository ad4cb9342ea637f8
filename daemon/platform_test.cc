#include "platform.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "pty_process.h"

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

TEST(PlatformTest, ProgramArgumentsAreArgvAsGivenOnPosix) {
  // Bytes as they came, UTF-8 or not: POSIX arguments have no code page.
  char a0[] = "tuidriver", a1[] = "--cwd", a2[] = "/tmp/h\xc3\xa9llo", a3[] = "\xff";
  char* argv[] = {a0, a1, a2, a3, nullptr};
  EXPECT_EQ(ProgramArguments(4, argv), (std::vector<std::string>{"tuidriver", "--cwd", "/tmp/h\xc3\xa9llo", "\xff"}));
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

TEST(PlatformTest, CloseFdsExceptKeepsTwoFdsEitherOrder) {
  int fds[4];
  for (int& fd : fds) fd = open("/dev/null", O_RDONLY);
  for (int order = 0; order < 2; ++order) {
    // Keep the second and the fourth: one closed below, between and above them.
    int keep = order ? fds[1] : fds[3], also = order ? fds[3] : fds[1];
    pid_t pid = fork();
    if (pid == 0) {
      CloseFdsExcept(keep, also);
      bool ok = fcntl(fds[0], F_GETFD) < 0 && fcntl(fds[1], F_GETFD) >= 0 &&
                fcntl(fds[2], F_GETFD) < 0 && fcntl(fds[3], F_GETFD) >= 0 && fcntl(2, F_GETFD) >= 0;
      _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "order " << order;
  }
  for (int fd : fds) close(fd);
}

// Runs `sh -c script` on a PTY until ForegroundReadsTerminal gives `want`
// (the program needs a moment to get to its call) or 10 s pass; returns the
// last answer.
TerminalReader ReaderOf(const std::string& script, TerminalReader want) {
  PtyProcess p;
  std::string err;
  SpawnOptions o;
  o.argv = {"sh", "-c", script};
  if (!p.Spawn(o, &err)) return TerminalReader::kUnknown;
  // Time to get past the shell's start, so that kNotReading is the program's.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  TerminalReader got = TerminalReader::kUnknown;
  for (int i = 0; i < 200 && got != want; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    got = ForegroundReadsTerminal(p.master_fd());
  }
  // Settled: the same answer a moment later.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (ForegroundReadsTerminal(p.master_fd()) != got) got = TerminalReader::kUnknown;
  p.SignalGroup(SIGKILL);
  while (!p.TryReap()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return got;
}

constexpr TerminalReader kReading = TerminalReader::kReading;
constexpr TerminalReader kNotReading = TerminalReader::kNotReading;

TEST(PlatformTest, ReadingTheTerminalWithReadIsSeen) {
  EXPECT_EQ(ReaderOf("read x", kReading), kReading);
  // A child of the shell, in the same (foreground) group.
  EXPECT_EQ(ReaderOf("cat; echo done", kReading), kReading);
  // The controlling terminal opened by name.
  EXPECT_EQ(ReaderOf("head -c1 </dev/tty", kReading), kReading);
}

TEST(PlatformTest, WaitingOnTheTerminalInSelectPollOrEpollIsSeen) {
  EXPECT_EQ(ReaderOf("exec python3 -c 'import select; select.select([0], [], [])'", kReading), kReading);
  EXPECT_EQ(ReaderOf("exec python3 -c 'import select; p = select.poll(); p.register(0, select.POLLIN); p.poll()'", kReading),
            kReading);
  EXPECT_EQ(ReaderOf("exec python3 -c 'import select; e = select.epoll(); e.register(0, select.EPOLLIN); e.poll()'", kReading),
            kReading);
}

TEST(PlatformTest, SleepingOrWaitingOnOtherFdsIsNotReading) {
  EXPECT_EQ(ReaderOf("sleep 30", kNotReading), kNotReading);
  EXPECT_EQ(ReaderOf("exec python3 -c 'import time; time.sleep(30)'", kNotReading), kNotReading);
  EXPECT_EQ(ReaderOf("exec python3 -c 'import os, select; r, w = os.pipe(); select.select([r], [], [])'",
                     kNotReading),
            kNotReading);
  EXPECT_EQ(ReaderOf("exec python3 -c 'import os, select; r, w = os.pipe(); e = select.epoll(); "
                     "e.register(r); e.poll()'",
                     kNotReading),
            kNotReading);
  // Output going on is not reading.
  EXPECT_EQ(ReaderOf("while :; do :; done", kNotReading), kNotReading);
}

}  // namespace
}  // namespace tuidriver
