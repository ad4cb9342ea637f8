#include "glob_files.h"

#include <glob.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "test_fakes.h"

namespace tuidriver {
namespace {

class GlobFilesTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    root_ = dir_;
    for (const char* d : {"/s", "/s/2026", "/s/2026/01", "/s/2026/02", "/s/.hidden"}) mkdir((root_ + d).c_str(), 0700);
    for (const char* f : {"/s/2026/01/b.jsonl", "/s/2026/01/a.jsonl", "/s/2026/02/c.jsonl", "/s/2026/02/c.txt",
                          "/s/2026/01/.d.jsonl", "/s/.hidden/e.jsonl", "/s/plain", "/s/x*y"}) {
      std::ofstream(root_ + f) << "x";
    }
  }
  std::string root_;
};

TEST_F(GlobFilesTest, MatchesAsGlobDoes) {
  const std::string s = root_ + "/s";
  // Sorted, across directories; a leading dot only by a dot.
  EXPECT_EQ((std::vector<std::string>{s + "/2026/01/a.jsonl", s + "/2026/01/b.jsonl", s + "/2026/02/c.jsonl"}),
            GlobFiles(s + "/*/*/*.jsonl"));
  EXPECT_EQ((std::vector<std::string>{s + "/2026/01/.d.jsonl"}), GlobFiles(s + "/2026/01/.*.jsonl"));
  EXPECT_EQ((std::vector<std::string>{s + "/.hidden/e.jsonl"}), GlobFiles(s + "/.h*/?.jsonl"));
  EXPECT_EQ((std::vector<std::string>{s + "/2026/02/c.jsonl", s + "/2026/02/c.txt"}), GlobFiles(s + "/2026/0[2-9]/c.*"));
  // A plain path: itself when it exists.
  EXPECT_EQ((std::vector<std::string>{s + "/plain"}), GlobFiles(s + "/plain"));
  EXPECT_EQ((std::vector<std::string>{s + "/plain"}), GlobFiles(s + "//plain"));
  EXPECT_TRUE(GlobFiles(s + "/missing").empty());
  EXPECT_TRUE(GlobFiles(s + "/*/missing/*.jsonl").empty());
  EXPECT_TRUE(GlobFiles(s + "/plain/*").empty());  // not a directory
  // A backslash escapes.
  EXPECT_EQ((std::vector<std::string>{s + "/x*y"}), GlobFiles(s + "/x\\*y"));
  EXPECT_TRUE(GlobFiles("").empty());
}

// The same answers as glibc's glob(3), which the daemon used before.
TEST_F(GlobFilesTest, AgreesWithGlob3) {
  const std::string s = root_ + "/s";
  for (const std::string p : {"/*/*/*.jsonl", "/*/*/*", "/2026/01/.*", "/.*/*", "/*", "/2026/0?/[ab].jsonl",
                              "/2026/0[!1]/*", "/x\\*y", "/x*", "/plain", "/missing",
                              "/*/01/*.jsonl", "/2026/01/[.]d.jsonl"}) {
    glob_t g;
    std::vector<std::string> want;
    if (glob((s + p).c_str(), 0, nullptr, &g) == 0) want.assign(g.gl_pathv, g.gl_pathv + g.gl_pathc);
    globfree(&g);
    std::vector<std::string> got = GlobFiles(s + p);
    EXPECT_EQ(want, got) << p;
  }
}

TEST_F(GlobFilesTest, RelativeToTheCurrentDirectory) {
  char old[4096];
  ASSERT_NE(nullptr, getcwd(old, sizeof old));
  ASSERT_EQ(0, chdir((root_ + "/s/2026").c_str()));
  auto found = GlobFiles("0*/*.jsonl");
  ASSERT_EQ(0, chdir(old));
  EXPECT_EQ((std::vector<std::string>{"01/a.jsonl", "01/b.jsonl", "02/c.jsonl"}), found);
}

}  // namespace
}  // namespace tuidriver
