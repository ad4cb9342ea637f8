#include "files.h"

#include <gtest/gtest.h>

#include "test_fakes.h"

namespace tuidriver {
namespace {

using FilesTest = TempDirTest;

TEST_F(FilesTest, ReadsTheWholeFileFromAnOffset) {
  WriteFile("a.jsonl", std::string("one\n\0two\n", 9));
  std::string bytes = "stale";
  ASSERT_TRUE(ReadWholeFile(Path("a.jsonl"), &bytes));
  EXPECT_EQ(std::string("one\n\0two\n", 9), bytes);
  ASSERT_TRUE(ReadWholeFile(Path("a.jsonl"), &bytes, 4));
  EXPECT_EQ(std::string("\0two\n", 5), bytes);
  ASSERT_TRUE(ReadWholeFile(Path("a.jsonl"), &bytes, 100));  // past the end: nothing new yet
  EXPECT_EQ("", bytes);
}

TEST_F(FilesTest, AMissingFileIsFalse) {
  std::string bytes = "stale";
  EXPECT_FALSE(ReadWholeFile(Path("none"), &bytes));
  EXPECT_EQ("", bytes);
  EXPECT_FALSE(ReadWholeFile(dir_, &bytes));  // a directory opens on Linux, but does not read
}

TEST_F(FilesTest, FirstLineAsGetlineGivesIt) {
  std::string line = "stale";
  WriteFile("two", "{\"a\":1}\n{\"b\":2}\n");
  ASSERT_TRUE(ReadFirstLine(Path("two"), &line));
  EXPECT_EQ("{\"a\":1}", line);
  WriteFile("unended", "half");
  ASSERT_TRUE(ReadFirstLine(Path("unended"), &line));
  EXPECT_EQ("half", line);
  WriteFile("blank", "\nx");
  ASSERT_TRUE(ReadFirstLine(Path("blank"), &line));
  EXPECT_EQ("", line);
  WriteFile("empty", "");
  EXPECT_FALSE(ReadFirstLine(Path("empty"), &line));
  EXPECT_FALSE(ReadFirstLine(Path("none"), &line));
}

TEST_F(FilesTest, NonAsciiNames) {
  WriteFile("é日本.json", "{}");
  std::string bytes;
  ASSERT_TRUE(ReadWholeFile(Path("é日本.json"), &bytes));
  EXPECT_EQ("{}", bytes);
}

}  // namespace
}  // namespace tuidriver
