// Recorded transcripts (tests/transcripts/) for the format tests.
#ifndef TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_
#define TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "transcript_format.h"

namespace tuidriver {

// tests/transcripts/<name>, whole.
inline std::string RecordedTranscript(const std::string& name) {
  std::ifstream in(TUIDRIVER_SOURCE_DIR "/tests/transcripts/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Lines [from, to) of a text, each with its newline.
inline std::string Lines(const std::string& text, size_t from, size_t to) {
  std::istringstream in(text);
  std::string line, out;
  for (size_t i = 0; std::getline(in, line); ++i) {
    if (i >= from && i < to) out += line + "\n";
  }
  return out;
}

// The turns the history request gives for a recorded transcript: parsed
// with `parse` (ParseClaudeTurns, ...), then only those with a prompt. A
// parse error fails the test.
using TurnsParser = bool (*)(const std::string&, std::vector<Turn>*, std::string*);
inline std::vector<Turn> HistoryOf(TurnsParser parse, const std::string& jsonl) {
  std::vector<Turn> turns;
  std::string err;
  EXPECT_TRUE(parse(jsonl, &turns, &err)) << err;
  return PromptedTurns(turns);
}

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_
