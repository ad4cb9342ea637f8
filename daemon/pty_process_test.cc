#include "pty_process.h"

#include <dirent.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

// Under AddressSanitizer freed memory sits in a quarantine, so RSS says
// nothing about leaks; LeakSanitizer checks them instead in that build.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Open file descriptors of this process (Linux /proc).
int OpenFdCount() {
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  while (struct dirent* e = readdir(d)) n += e->d_name[0] != '.';
  closedir(d);
  return n - 1;  // the directory's own fd
}

// Resident memory of this process in KiB (Linux /proc).
long ResidentKib() {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "VmRSS:", 6) == 0) kib = strtol(line + 6, nullptr, 10);
  }
  fclose(f);
  return kib;
}

// Spawns `sh -c script` with `o`'s environment, reads its output until it
// has exited and the PTY is dry (as the session does).
std::string RunScript(SpawnOptions o, const std::string& script) {
  PtyProcess p;
  o.argv = {"/bin/sh", "-c", script};
  std::string err;
  if (!p.Spawn(o, &err)) return "spawn failed: " + err;
  std::string out;
  char buf[4096];
  for (;;) {
    bool exited = p.TryReap();
    ssize_t n;
    while ((n = ReadAvailable(p.master_fd(), buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    if (exited) break;
    struct pollfd pfd = {p.master_fd(), POLLIN, 0};
    poll(&pfd, 1, 1);  // no SIGCHLD handler here: look again soon
  }
  return out;
}

// Spawns `sh -c 'echo ...'`, reads its output until it has exited and the
// PTY is dry (as the session does), and lets the PtyProcess go.
std::string SpawnAndFinish(const std::string& word) {
  return RunScript(SpawnOptions(), "echo " + word);
}

TEST(PtyProcess, SpawnAndCloseLeaksNothing) {
  // Warm up: the first spawn allocates what later ones reuse.
  ASSERT_EQ("warm\r\n", SpawnAndFinish("warm"));
  int fds = OpenFdCount();
  long rss = ResidentKib();
  ASSERT_GT(fds, 0);
  ASSERT_GT(rss, 0);
  for (int i = 0; i < 1000; ++i) {
    std::string word = "run" + std::to_string(i);
    ASSERT_EQ(word + "\r\n", SpawnAndFinish(word)) << "cycle " << i;
    ASSERT_EQ(fds, OpenFdCount()) << "fd leaked in cycle " << i;
  }
  // A leak of even 1 KiB per cycle would show as 1 MiB.
  if (!kAddressSanitizer) {
    EXPECT_LT(ResidentKib() - rss, 1024) << "RSS grew over 1000 spawn/close cycles";
  }
}

TEST(PtyProcess, CommandNotFoundIsASpawnError) {
  PtyProcess p;
  SpawnOptions o;
  o.argv = {"definitely-not-a-command-xyz"};
  std::string err;
  int fds = OpenFdCount();
  EXPECT_FALSE(p.Spawn(o, &err));
  EXPECT_EQ("definitely-not-a-command-xyz: command not found", err);
  EXPECT_EQ(fds, OpenFdCount());
}

TEST(PtyProcess, EnvStripTakesNamesAndPrefixes) {
  setenv("TUIDRIVER_T_KEEP", "k", 1);
  setenv("TUIDRIVER_T_GONE", "g", 1);
  setenv("TUIDRIVER_T_FAM_A", "a", 1);
  setenv("TUIDRIVER_T_FAMB", "b", 1);
  SpawnOptions o;
  o.env_strip = {"TUIDRIVER_T_GONE", "TUIDRIVER_T_FAM_*"};
  o.env_set = {{"TUIDRIVER_T_SET", "s"}};
  std::string out = RunScript(o, "env | grep ^TUIDRIVER_T_ | sort");
  for (const char* name : {"TUIDRIVER_T_KEEP", "TUIDRIVER_T_GONE", "TUIDRIVER_T_FAM_A", "TUIDRIVER_T_FAMB"}) {
    unsetenv(name);
  }
  EXPECT_EQ("TUIDRIVER_T_FAMB=b\r\nTUIDRIVER_T_KEEP=k\r\nTUIDRIVER_T_SET=s\r\n", out);
}

}  // namespace
}  // namespace tuidriver
