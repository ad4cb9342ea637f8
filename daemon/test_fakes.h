// The fakes the parts' unit tests share: a child that records what it is
// given, a sink that records the lines sent, a fake clock, and a temporary
// directory for a test's files. Header-only, for *_test.cc files.
#ifndef TUIDRIVER_TEST_FAKES_H_
#define TUIDRIVER_TEST_FAKES_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <chrono>
#include <string>
#include <vector>

#include "child.h"
#include "clock.h"
#include "terminal.h"

namespace tuidriver {

inline void Feed(Terminal* t, const std::string& s) { t->Feed(s.data(), s.size()); }

// The program: records the bytes written and the signals sent ("fg:15",
// "group:1", "request:2"); its exit status and terminal reader are set by
// the test.
struct FakeChild : SessionChild {
  void Write(const std::string& bytes) override {
    written += bytes;
    ++writes;
  }
  // With has_pipe, prompts are kept in `piped` and numbered from 1.
  uint64_t PipePrompt(const std::string& prompt) override {
    if (!has_pipe) return 0;
    piped.push_back(prompt);
    return piped.size();
  }
  void DropPrompt(uint64_t number) override {
    dropped.push_back(number);
    written_before_drop = written;
  }
  void SignalForeground(int sig) override { signals.push_back("fg:" + std::to_string(sig)); }
  void SignalGroup(int sig) override { signals.push_back("group:" + std::to_string(sig)); }
  bool Signal(int sig, std::string*) override {
    signals.push_back("request:" + std::to_string(sig));
    return true;
  }
  void Resize(int, int) override {}
  int64_t pid() const override { return 4242; }
  int64_t ForegroundPid() const override { return 4243; }
  std::string Cwd() const override { return "/tmp"; }
  size_t input_pending() const override { return 0; }
  TerminalReader ReadsTerminal() const override { return reader; }
  ExitStatus exit_status() const override { return status; }
  void KillLeftovers() override { killed_leftovers = true; }

  // What was written since the last Take.
  std::string Take() {
    std::string w;
    w.swap(written);
    return w;
  }
  bool Signalled(int sig) const {
    return std::find(signals.begin(), signals.end(), "group:" + std::to_string(sig)) != signals.end();
  }

  std::string written;
  bool has_pipe = false;
  std::vector<std::string> piped;
  std::vector<uint64_t> dropped;    // DropPrompt's numbers
  std::string written_before_drop;  // `written` at the last DropPrompt
  int writes = 0;  // Write calls: bytes due together go out in one
  std::vector<std::string> signals;
  ExitStatus status;
  TerminalReader reader = TerminalReader::kUnknown;
  bool killed_leftovers = false;
};

// Stdout: keeps every line sent.
struct RecordingSink : MessageSink {
  void Send(const std::string& line) override { lines.push_back(line); }
  bool Has(const std::string& part) const { return Count(part) > 0; }
  // The line with `part`, or "" (and a failure) if none.
  std::string Find(const std::string& part) const {
    for (const std::string& l : lines) {
      if (l.find(part) != std::string::npos) return l;
    }
    ADD_FAILURE() << "no line with " << part;
    return "";
  }
  size_t Count(const std::string& part) const {
    return std::count_if(lines.begin(), lines.end(),
                         [&](const std::string& l) { return l.find(part) != std::string::npos; });
  }
  std::vector<std::string> lines;
};

// Made-up times: t0 is an hour in, so that times before it exist too.
struct FakeClock {
  TimePoint At(long ms) const { return t0 + Ms(ms); }
  TimePoint t0 = TimePoint() + std::chrono::hours(1);
};

// A fresh directory for a test's files, made before the test and removed
// with what it holds after it.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/tuidriver-test-XXXXXX";
    ASSERT_NE(nullptr, mkdtemp(dir));
    dir_ = dir;
  }
  void TearDown() override {
    if (dir_.empty()) return;
    std::string rm = "rm -rf '" + dir_ + "'";
    ASSERT_EQ(0, system(rm.c_str()));
  }
  // The path of the file `name` in the directory.
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  // The file `name` holding `text` (written anew), or `text` added to it.
  void WriteFile(const std::string& name, const std::string& text) const { std::ofstream(Path(name)) << text; }
  void AppendFile(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name), std::ios::app) << text;
  }

  std::string dir_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_TEST_FAKES_H_
