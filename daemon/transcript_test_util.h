// Recorded transcripts (tests/transcripts/) for the format tests.
#ifndef TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_
#define TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_

#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_version.h"
#include "glob_files.h"
#include "test_fakes.h"
#include "transcript_format.h"

namespace tuidriver {

// tests/transcripts/<name>, whole.
inline std::string RecordedTranscript(const std::string& name) {
  std::ifstream in(TUIDRIVER_SOURCE_DIR "/tests/transcripts/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A recorded transcript: its file name in tests/transcripts/ and its text.
struct RecordedSample {
  std::string name;
  std::string text;
};

// Every recorded sample of a format, oldest release first: the files
// tests/transcripts/<format>-<release>.<ext> (a release number alone, so not
// gemini's -resumed and such). A format's tests read each one, the pinned
// release's and the newer releases' (recorded when scripts/drift.sh verifies
// one), so a release that changes the format fails its sample's test, not
// only an e2e run (issue 45). No sample found, or an empty one, fails the
// test: no sample test passes without reading one.
inline std::vector<RecordedSample> RecordedSamples(const std::string& format, const std::string& ext) {
  const std::string dir = TUIDRIVER_SOURCE_DIR "/tests/transcripts/";
  std::vector<std::string> releases;
  for (const std::string& path : GlobFiles(dir + format + "-*." + ext)) {
    std::string name = path.substr(dir.size());
    std::string release = name.substr(format.size() + 1, name.size() - format.size() - ext.size() - 2);
    if (!release.empty() && release.find_first_not_of("0123456789.") == std::string::npos) {
      releases.push_back(release);
    }
  }
  std::sort(releases.begin(), releases.end(),
            [](const std::string& a, const std::string& b) { return CompareVersions(a, b) < 0; });
  std::vector<RecordedSample> samples;
  for (const std::string& release : releases) {
    std::string name = format + "-" + release + "." + ext;
    samples.push_back({name, RecordedTranscript(name)});
    EXPECT_FALSE(samples.back().text.empty()) << name;
  }
  EXPECT_FALSE(samples.empty()) << "no sample tests/transcripts/" << format << "-<release>." << ext;
  return samples;
}

// The index of the first line of `text` that holds `marker`. Not found
// fails the test (a sample whose records changed shows here) and gives 0.
inline size_t LineOf(const std::string& text, const std::string& marker) {
  std::istringstream in(text);
  std::string line;
  for (size_t i = 0; std::getline(in, line); ++i) {
    if (line.find(marker) != std::string::npos) return i;
  }
  ADD_FAILURE() << "no line holds " << marker;
  return 0;
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

// The fixture of a test that writes a CLI's transcript files and reads its
// turns from them: test_fakes.h's temporary directory.
using TranscriptDirTest = TempDirTest;

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_
