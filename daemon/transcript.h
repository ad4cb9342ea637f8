// Exact agent turns, read from the transcript file the CLI itself writes
// (Claude: ~/.claude/projects/<cwd slug>/<session id>.jsonl): the model's
// markdown byte for byte, its tool calls, usage and model, which the screen
// only shows re-rendered. Parsers read only the fields they need and skip
// record types they do not know; a record of a known type in a shape they
// do not know fails loudly, so a changed format shows as transcript_error,
// never as a wrong answer.
#ifndef TUIDRIVER_TRANSCRIPT_H_
#define TUIDRIVER_TRANSCRIPT_H_

#include <cstdint>
#include <string>
#include <vector>

#include <simdjson.h>

#include "json_writer.h"

namespace tuidriver {

struct ToolCall {
  std::string id;          // the CLI's tool-use id, to pair the result
  std::string name;
  std::string input_json;  // the tool's input, as JSON
  std::string output;
  bool ok = true;
};

struct Turn {
  std::string markdown;  // the last assistant message after the last tool call
  std::vector<ToolCall> tools;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  std::string model;
  bool prompt_seen = false;  // the user's prompt opened this turn
  bool finished = false;     // the CLI recorded the turn's end
};

// Parses the JSONL records a turn appended to a Claude Code transcript.
// False with *err when a record is not what the format promises.
bool ParseClaudeTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same for a Codex rollout file (~/.codex/sessions/Y/M/D/rollout-*.jsonl):
// response_item, event_msg and turn_context records.
bool ParseCodexTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same for a Gemini CLI chat file (~/.gemini/tmp/<project>/chats/
// session-*.jsonl): message records, updated by id, and `$set` records.
bool ParseGeminiTurn(const std::string& jsonl, Turn* turn, std::string* err);

// The reply's `turn` object: session_id, tools, usage, model.
JsonObject TurnJson(const Turn& turn, const std::string& session_id);

// One session's transcript file, read from where the current turn began.
// `path` is the file itself (Claude: named by the session id the daemon
// chose), or a glob (Codex: the CLI names the file); a glob matches this
// session's file by its first record: the session id when it is known
// (--resume), else the working directory and a start after the spawn.
class TranscriptReader {
 public:
  enum class Result { kDone, kNotYet, kFailed };
  TranscriptReader(std::string format, std::string path, std::string cwd, std::string session_id);
  bool enabled() const { return !format_.empty(); }
  // The session id: chosen by the daemon, given by --resume, or read from
  // the file once found. Empty until known.
  const std::string& session_id() const { return session_id_; }
  // An ask starts: its records are the ones written after this point.
  void StartTurn();
  // kDone: *turn holds the finished turn. kNotYet: not written (whole) yet.
  // kFailed: *err says what was missing or unreadable.
  Result ReadTurn(Turn* turn, std::string* err);

 private:
  bool Locate();
  bool Identify(const std::string& path, simdjson::dom::parser* parser, std::string* id, std::string* cwd) const;
  std::string format_;
  std::string pattern_;
  std::string cwd_;
  std::string session_id_;
  std::string file_;  // found
  int64_t spawned_ = 0;  // wall-clock seconds, for a glob's "after the spawn"
  uint64_t offset_ = 0;
  size_t prompts_before_ = 0;  // Cline: prompts in its document when the turn began
};

// {home}, {cwd_slug} and {session_id} filled in, as the CLI names the file.
std::string TranscriptPath(const std::string& pattern, const std::string& home, const std::string& cwd,
                           const std::string& session_id);
// A new random session id (UUID version 4).
std::string NewSessionId();

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_H_
