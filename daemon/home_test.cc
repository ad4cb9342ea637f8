#include "home.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

const char kPasswd[] =
    "root:x:0:0:root:/root:/bin/bash\n"
    "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
    "broken line\n"
    "me:x:1000:1000:Me,,,:/home/me:/bin/sh\n"
    "short:x:1001:1001\n"
    "last:x:1002:1002::/home/last:/bin/sh";  // no final newline

TEST(Home, FindsTheLineOfTheUid) {
  EXPECT_EQ(HomeFromPasswd(kPasswd, 0), "/root");
  EXPECT_EQ(HomeFromPasswd(kPasswd, 1000), "/home/me");
  EXPECT_EQ(HomeFromPasswd(kPasswd, 1002), "/home/last");
}

TEST(Home, NoLineOrATruncatedOneGivesNothing) {
  EXPECT_EQ(HomeFromPasswd(kPasswd, 1001), "");
  EXPECT_EQ(HomeFromPasswd(kPasswd, 4242), "");
  EXPECT_EQ(HomeFromPasswd("", 0), "");
  // "10" must not match a uid field of "1000".
  EXPECT_EQ(HomeFromPasswd(kPasswd, 10), "");
}

TEST(Home, HomeVariableFirstThenThePasswdFile) {
  char path[] = "/tmp/home_test_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, kPasswd, sizeof kPasswd - 1), static_cast<ssize_t>(sizeof kPasswd - 1));
  close(fd);
  EXPECT_EQ(UserHome("/from/env", path, 1000), "/from/env");
  EXPECT_EQ(UserHome(nullptr, path, 1000), "/home/me");
  EXPECT_EQ(UserHome("", path, 1000), "/home/me");
  EXPECT_EQ(UserHome(nullptr, "/no/such/passwd", 1000), "");
  unlink(path);
}

}  // namespace
}  // namespace tuidriver
