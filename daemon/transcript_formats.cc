// The table of transcript formats by name: a new CLI's format is one line
// here and its own transcript_<name>.cc.
#include <sys/stat.h>

#include <climits>

#include "glob_files.h"
#include "transcript_claude.h"
#include "transcript_cline.h"
#include "transcript_codex.h"
#include "transcript_copilot.h"
#include "transcript_format.h"
#include "transcript_gemini.h"
#include "transcript_opencode.h"
#include "transcript_pi.h"
#include "transcript_qwen.h"

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
    {"copilot", NewCopilotTranscript},
    {"cline", NewClineTranscript},
    {"pi", NewPiTranscript},
    {"qwen", NewQwenTranscript},
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

std::pair<int64_t, int64_t> FileVersion(const struct stat& st) {
#ifdef __APPLE__
  const struct timespec& mtime = st.st_mtimespec;  // macOS names it so
#else
  const struct timespec& mtime = st.st_mtim;
#endif
  return {static_cast<int64_t>(st.st_size), static_cast<int64_t>(mtime.tv_sec) * 1000000000 + mtime.tv_nsec};
}

namespace {

// Whether the current turn changed the file (or created it).
bool ChangedThisTurn(const TranscriptSession& session, const std::string& path, const struct stat& st) {
  auto before = session.at_turn_start.find(path);
  return before == session.at_turn_start.end() || before->second != FileVersion(st);
}

}  // namespace

bool LocateSessionFile(TranscriptSession* session, const IdentifySessionFn& identify, std::string* file,
                       const HoldsPromptFn& holds_prompt) {
  const bool known = !session->session_id.empty();
  // A new session is told by what its first ask writes: before that, a new
  // file in this cwd may be another session's (a history request first).
  if (!known && !session->turn_started) return false;
  // Ranked by (known id: no prompt recorded; else: not changed by this
  // turn, then ctime): a new session's file is the one its turn wrote,
  // else the first one started after the spawn.
  std::pair<bool, int64_t> best{true, INT64_MAX};
  std::string best_id, best_file;
  for (const std::string& match : GlobFiles(session->path)) {
    struct stat st;
    std::string id, cwd;
    if (stat(match.c_str(), &st) != 0 || !identify(match, &id, &cwd)) continue;
    if (cwd.empty()) cwd = session->cwd;
    bool ours = known ? id == session->session_id
                      : cwd == session->cwd && session->before_spawn.count(match) == 0 &&
                            st.st_mtime >= session->spawned_ms / 1000 - 1;
    if (!ours) continue;
    bool unlikely = known ? holds_prompt && !holds_prompt(match) : !ChangedThisTurn(*session, match, st);
    std::pair<bool, int64_t> rank{unlikely, static_cast<int64_t>(st.st_ctime)};
    if (best_file.empty() || rank < best) {
      best = rank;
      best_id = id;
      best_file = match;
    }
  }
  *file = best_file;
  if (!known && !file->empty()) session->session_id = best_id;
  return !file->empty();
}

ToolCall ToolUseCall(const simdjson::dom::element& block) {
  ToolCall t;
  t.id = JsonStr(block, "id");
  t.name = JsonStr(block, "name");
  simdjson::dom::element input;
  t.input_json = block["input"].get(input) ? "{}" : simdjson::minify(input);
  return t;
}

std::string JsonText(const simdjson::dom::element& content) {
  std::string_view s;
  if (!content.get(s)) return std::string(s);
  simdjson::dom::array blocks;
  if (content.get(blocks)) return "";
  std::string out;
  for (simdjson::dom::element b : blocks) {
    if (JsonStr(b, "type") == "text") out += JsonStr(b, "text");
  }
  return out;
}

Turn* CurrentTurn(std::vector<Turn>* turns) {
  if (turns->empty()) turns->emplace_back();
  return &turns->back();
}

Turn* OpenTurn(std::vector<Turn>* turns, std::string prompt) {
  if (!turns->empty() && !turns->back().prompt_seen) turns->pop_back();  // nothing of a turn before it
  turns->emplace_back();
  turns->back().prompt_seen = true;
  turns->back().prompt = std::move(prompt);
  return &turns->back();
}

Turn LastTurn(std::vector<Turn> turns) {
  return turns.empty() ? Turn() : std::move(turns.back());
}

std::vector<Turn> PromptedTurns(std::vector<Turn> turns) {
  std::vector<Turn> out;
  for (Turn& t : turns) {
    if (t.prompt_seen) out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::string> TranscriptFormatNames() {
  std::vector<std::string> names;
  for (const FormatEntry& f : kFormats) names.push_back(f.name);
  return names;
}

}  // namespace tuidriver
