// Recorded transcripts (tests/transcripts/) for the format tests.
#ifndef TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_
#define TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_

#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_TEST_UTIL_H_
