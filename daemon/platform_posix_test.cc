#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>

#include "gtest/gtest.h"
#include "platform.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

using PlatformPosixTest = TempDirTest;

TEST_F(PlatformPosixTest, OpensStatsAndListsByName) {
  int fd = OpenFd(Path("é日本.cast"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(3, write(fd, "abc", 3));
  close(fd);
  FILE* f = OpenStream(Path("é日本.cast"), "rb");
  ASSERT_NE(nullptr, f);
  char buf[4] = {};
  EXPECT_EQ(3u, fread(buf, 1, 3, f));
  fclose(f);
  EXPECT_STREQ("abc", buf);
  struct stat st;
  ASSERT_TRUE(StatPath(Path("é日本.cast"), &st));
  EXPECT_EQ(3, st.st_size);
  EXPECT_FALSE(StatPath(Path("none"), &st));
  EXPECT_EQ(nullptr, OpenStream(Path("none"), "rb"));
  std::vector<std::string> names;
  ASSERT_TRUE(ListDirectory(dir_, &names));
  std::sort(names.begin(), names.end());
  EXPECT_EQ((std::vector<std::string>{".", "..", "é日本.cast"}), names);
  EXPECT_FALSE(ListDirectory(Path("none"), &names));
}

// A backslash is part of a name on POSIX: only '/' separates.
TEST(PlatformPosix, LastPathSeparatorIsTheLastSlash) {
  EXPECT_EQ(4u, LastPathSeparator("/a/b/c\\d.json"));
  EXPECT_EQ(std::string::npos, LastPathSeparator("c\\d.json"));
}

TEST_F(PlatformPosixTest, LinksFollowedOrNot) {
  ASSERT_EQ(0, symlink("missing", Path("dangling").c_str()));
  struct stat st;
  EXPECT_FALSE(StatPath(Path("dangling"), &st));
  EXPECT_TRUE(StatPath(Path("dangling"), &st, false));  // glob_files finds it, as glob(3) does
  EXPECT_EQ(RealPath(dir_), RealPath(dir_ + "/."));
  EXPECT_EQ("", RealPath(Path("none")));
}

TEST(PlatformPosixEnvTest, EnvVarEmptyWhenUnset) {
  setenv("TUIDRIVER_TEST_VAR", "é日本", 1);
  EXPECT_EQ("é日本", EnvVar("TUIDRIVER_TEST_VAR"));
  unsetenv("TUIDRIVER_TEST_VAR");
  EXPECT_EQ("", EnvVar("TUIDRIVER_TEST_VAR"));
}

}  // namespace
}  // namespace tuidriver
