// The table of transcript formats by name: a new CLI's format is one line
// here and its own transcript_<name>.cc.
#include "transcript_claude.h"
#include "transcript_codex.h"
#include "transcript_format.h"
#include "transcript_gemini.h"
#include "transcript_opencode.h"

namespace tuidriver {
namespace {

struct FormatEntry {
  const char* name;
  std::unique_ptr<TranscriptFormat> (*make)();
};

const FormatEntry kFormats[] = {
    {"claude", NewClaudeTranscript},
    {"codex", NewCodexTranscript},
    {"gemini", NewGeminiTranscript},
    {"opencode", NewOpencodeTranscript},
};

}  // namespace

std::unique_ptr<TranscriptFormat> NewTranscriptFormat(const std::string& name) {
  for (const FormatEntry& f : kFormats) {
    if (name == f.name) return f.make();
  }
  return nullptr;
}

std::string JsonStr(const simdjson::dom::element& e, const char* key) {
  std::string_view s;
  if (e[key].get(s)) return "";
  return std::string(s);
}

std::vector<std::string> TranscriptFormatNames() {
  std::vector<std::string> names;
  for (const FormatEntry& f : kFormats) names.push_back(f.name);
  return names;
}

}  // namespace tuidriver
