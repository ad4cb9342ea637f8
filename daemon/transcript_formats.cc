// The table of transcript formats by name: a new CLI's format is one line
// here and its own transcript_<name>.cc.
#include <sys/stat.h>

#include <cctype>

#include "glob_files.h"
#include "platform.h"
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

bool SamePrompt(const std::string& recorded, const std::string& typed) {
  auto fold = [](const std::string& s) {
    std::string out;
    bool space = false;
    for (char c : s) {
      if (isspace(static_cast<unsigned char>(c))) {
        space = !out.empty();
      } else {
        if (space) out += ' ';
        out += c;
        space = false;
      }
    }
    return out;
  };
  std::string want = fold(typed);
  return !want.empty() && fold(recorded) == want;
}

std::pair<int64_t, int64_t> FileVersion(const struct stat& st) {
#if defined(__APPLE__)
  const struct timespec& mtime = st.st_mtimespec;  // macOS names it so
#elif defined(_WIN32)
  const struct timespec mtime = {st.st_mtime, 0};  // whole seconds only
#else
  const struct timespec& mtime = st.st_mtim;
#endif
  return {static_cast<int64_t>(st.st_size), static_cast<int64_t>(mtime.tv_sec) * 1000000000 + mtime.tv_nsec};
}

void CountSessionPrompts(TranscriptSession* session, const RecordedPromptsFn& prompts) {
  session->prompts_at_turn_start.clear();
  for (const std::string& match : GlobFiles(session->path)) {
    std::vector<std::string> recorded;
    if (prompts(match, &recorded)) session->prompts_at_turn_start[match] = recorded.size();
  }
}

bool RecordsTurnPrompt(const TranscriptSession& session, const std::vector<std::string>& prompts, size_t before) {
  for (size_t i = before; i < prompts.size(); ++i) {
    if (SamePrompt(prompts[i], session.turn_prompt)) return true;
  }
  return false;
}

std::string AmbiguousTranscripts(const TranscriptSession& session, const std::vector<std::string>& which) {
  std::string list;
  for (const std::string& w : which) list += (list.empty() ? "" : ", ") + w;
  return std::to_string(which.size()) + " transcripts of sessions started in " + session.cwd +
         " record this session's prompt (" + list +
         "), so which one is this session's cannot be told; the reply's text is the screen's. "
         "Sessions that share a folder need distinct prompts, or a CLI that takes its session id at start";
}

namespace {

// A file of a session that does not know its id: of its working directory,
// new since the spawn.
bool NewInThisCwd(const TranscriptSession& session, const std::string& path, const std::string& cwd) {
  struct stat st;
  return StatPath(path, &st) && (cwd.empty() || cwd == session.cwd) &&
         session.before_spawn.count(path) == 0 && st.st_mtime >= session.spawned_ms / 1000 - 1;
}

// A known id's file: the one naming it, one that records a prompt first.
bool LocateKnownFile(TranscriptSession* session, const IdentifySessionFn& identify,
                     const RecordedPromptsFn& prompts, std::string* file) {
  file->clear();
  for (const std::string& match : GlobFiles(session->path)) {
    std::string id, cwd;
    if (!identify(match, &id, &cwd) || id != session->session_id) continue;
    std::vector<std::string> recorded;
    if (prompts(match, &recorded) && !recorded.empty()) return (*file = match, true);
    if (file->empty()) *file = match;
  }
  return !file->empty();
}

}  // namespace

bool LocateSessionFile(TranscriptSession* session, const IdentifySessionFn& identify,
                       const RecordedPromptsFn& prompts, std::string* file) {
  session->ambiguous.clear();
  if (session->id_known()) return LocateKnownFile(session, identify, prompts, file);
  // A new session is told by what its first ask writes: before that, a new
  // file in this cwd may be another session's (a history request first).
  if (!session->turn_started) return false;
  std::vector<std::string> files, ids;
  for (const std::string& match : GlobFiles(session->path)) {
    std::string id, cwd;
    std::vector<std::string> recorded;
    if (!identify(match, &id, &cwd) || !NewInThisCwd(*session, match, cwd) || !prompts(match, &recorded)) continue;
    auto before = session->prompts_at_turn_start.find(match);
    if (!RecordsTurnPrompt(*session, recorded, before == session->prompts_at_turn_start.end() ? 0 : before->second)) {
      continue;
    }
    files.push_back(match);
    ids.push_back(id);
  }
  if (files.size() > 1) session->ambiguous = AmbiguousTranscripts(*session, files);
  if (files.size() != 1) return false;
  *file = files[0];
  session->session_id = ids[0];
  session->id_tentative = true;
  return true;
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
