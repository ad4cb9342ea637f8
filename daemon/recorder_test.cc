#include "recorder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tuidriver {
namespace {

std::string TempPath() {
  char tmpl[] = "/tmp/tuidriver-recorder-XXXXXX";
  int fd = mkstemp(tmpl);
  close(fd);
  return tmpl;
}

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The event's code and data, without the time: "o", "\"text\"".
std::string Tail(const std::string& line) {
  size_t comma = line.find(", ");
  return line.substr(comma + 2, line.size() - comma - 3);
}

TEST(Recorder, WritesAHeaderAndEventsAsTheyHappen) {
  std::string path = TempPath();
  TimePoint now = TimePoint() + Ms(5000);
  Recorder r(&now);
  std::string err;
  ASSERT_TRUE(r.Start(path, 80, 24, "xterm-256color", &err)) << err;
  std::vector<std::string> lines = Lines(path);
  ASSERT_EQ(1u, lines.size());
  EXPECT_EQ(0u, lines[0].find("{\"version\":2,\"width\":80,\"height\":24,\"timestamp\":"));
  EXPECT_NE(std::string::npos, lines[0].find("\"env\":{\"TERM\":\"xterm-256color\"}}"));
  now += Ms(1500);  // each event is stamped with the time it is given, from the start
  r.Output("hi\r\n", 4);
  now += Ms(250);
  r.Input("ls\r");
  r.Resize(100, 30);
  r.Marker("ask 7 start");
  lines = Lines(path);  // already on disk, before Stop
  ASSERT_EQ(5u, lines.size());
  EXPECT_EQ(0u, lines[1].find("[1.500000, ")) << lines[1];
  EXPECT_EQ(0u, lines[2].find("[1.750000, ")) << lines[2];
  EXPECT_EQ("\"o\", \"hi\\r\\n\"", Tail(lines[1]));
  EXPECT_EQ("\"i\", \"ls\\r\"", Tail(lines[2]));
  EXPECT_EQ("\"r\", \"100x30\"", Tail(lines[3]));
  EXPECT_EQ("\"m\", \"ask 7 start\"", Tail(lines[4]));
  r.Stop();
  r.Output("after", 5);  // not recording: nothing
  EXPECT_EQ(5u, Lines(path).size());
  remove(path.c_str());
}

TEST(Recorder, OutputCutInsideACharacterWaitsForTheRest) {
  std::string path = TempPath();
  TimePoint now;
  Recorder r(&now);
  std::string err;
  ASSERT_TRUE(r.Start(path, 10, 2, "xterm", &err));
  std::string text = "a\xE4\xB8\xAD" "b";  // a, U+4E2D, b
  r.Output(text.data(), 2);
  r.Output(text.data() + 2, 1);
  r.Output(text.data() + 3, 2);
  r.Stop();
  std::vector<std::string> lines = Lines(path);
  ASSERT_EQ(3u, lines.size());
  EXPECT_EQ("\"o\", \"a\"", Tail(lines[1]));
  EXPECT_EQ("\"o\", \"\xE4\xB8\xAD" "b\"", Tail(lines[2]));
  remove(path.c_str());
}

TEST(Recorder, AFileThatCannotBeWrittenIsAClearError) {
  TimePoint now;
  Recorder r(&now);
  std::string err;
  EXPECT_FALSE(r.Start("/nonexistent-dir/x.cast", 10, 2, "xterm", &err));
  EXPECT_NE(std::string::npos, err.find("/nonexistent-dir/x.cast")) << err;
  EXPECT_FALSE(r.recording());
}

}  // namespace
}  // namespace tuidriver
