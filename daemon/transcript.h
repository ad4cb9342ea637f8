// Exact agent turns, read from the transcript the CLI itself writes (Claude:
// ~/.claude/projects/<cwd slug>/<session id>.jsonl): the model's markdown
// byte for byte, its tool calls, usage and model, which the screen only
// shows re-rendered. Each format is one file behind transcript_format.h.
// Formats read only the fields they need and skip record types they do not
// know; a record of a known type in a shape they do not know fails loudly,
// so a changed format shows as transcript_error, never as a wrong answer.
#ifndef TUIDRIVER_TRANSCRIPT_H_
#define TUIDRIVER_TRANSCRIPT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

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
  std::string prompt;    // the user's prompt, as recorded (history)
  std::string markdown;  // the last assistant message after the last tool call
  std::vector<ToolCall> tools;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  std::string model;
  bool prompt_seen = false;  // the user's prompt opened this turn
  bool finished = false;     // the CLI recorded the turn's end
};

// kDone: the turn is finished. kNotYet: not written (whole) yet. kFailed:
// not in the shape the CLI's pinned version writes.
enum class TranscriptResult { kDone, kNotYet, kFailed };

// The reply's `turn` object: session_id, tools, usage, model.
JsonObject TurnJson(const Turn& turn, const std::string& session_id);
// The `history` reply's fields: session_id, and turns [{prompt, markdown, tools}].
JsonObject HistoryJson(const std::vector<Turn>& turns, const std::string& session_id);

class TranscriptFormat;

// What the daemon knows of the session whose transcript is read.
struct TranscriptSession {
  std::string path;        // transcript.path filled in: a file, a glob of files, or a database
  std::string cwd;         // absolute: how a CLI that names its own session records it
  std::string session_id;  // chosen by the daemon, given by --resume, or learned by Locate
  int64_t spawned_ms = 0;  // wall-clock milliseconds at the spawn: a new session starts after it
  // The files `path` matched at the spawn, when the CLI names its own file:
  // none of them is a new session's (another session in the same cwd may
  // have written one a moment before).
  std::set<std::string> before_spawn;
  // While the CLI's own session id is unknown: each glob match's size and
  // mtime when the current ask began (turn_started: an ask began). The file
  // a turn changed is this session's: a session spawned while another in
  // the same cwd had not written its file yet (SessionPool's replacement)
  // must not take that one.
  bool turn_started = false;
  std::map<std::string, std::pair<int64_t, int64_t>> at_turn_start;
  // What this session typed for the current ask. While the session id is
  // unknown, the one new file (or database session) of this cwd that
  // records this prompt since the ask began is this session's: never the
  // first or newest file, since sessions started together in one folder
  // write theirs in any order.
  std::string turn_prompt;
  // Each glob match's number of recorded prompts when the ask began.
  std::map<std::string, size_t> prompts_at_turn_start;
  // The id was learned from this turn's prompt and is held to that until
  // the turn is read whole: a second transcript that records the same
  // prompt before then makes the two impossible to tell apart.
  bool id_tentative = false;
  // Set by a Locate that found more than one transcript recording this
  // session's prompt: the reply's transcript_error.
  std::string ambiguous;
  // The session id is the daemon's to match by (chosen, --resume, or
  // learned and confirmed), not one to find.
  bool id_known() const { return !session_id.empty() && !id_tentative; }
};

// One session's transcript, read from where the current turn began, in the
// format the engine file names (transcript_formats.cc). `path` is the
// transcript.path filled in: a file (Claude: named by the session id the
// daemon chose), a glob (Codex: the CLI names the file) or a database.
class TranscriptReader {
 public:
  using Result = TranscriptResult;
  // An empty or unknown `format`: disabled (engine files are checked first).
  TranscriptReader(const std::string& format, std::string path, std::string cwd, std::string session_id);
  ~TranscriptReader();
  bool enabled() const { return format_ != nullptr; }
  // The session id: chosen by the daemon, given by --resume, or read from
  // the transcript once found. Empty until known.
  const std::string& session_id() const { return session_.session_id; }
  // An ask of `prompt` starts: its records are the ones written after this
  // point, and a session that does not know its id yet finds its
  // transcript by this prompt.
  void StartTurn(const std::string& prompt);
  // kDone: *turn holds the finished turn. kNotYet: not written (whole) yet.
  // kFailed: *err says what was missing or unreadable, or that two
  // transcripts record this session's prompt and cannot be told apart.
  Result ReadTurn(Turn* turn, std::string* err);
  // The session's turns so far, oldest first, each opened by a prompt (a
  // resumed session's past, for `history`). False with *err when there is
  // no transcript yet or the format cannot split it into turns.
  bool ReadHistory(std::vector<Turn>* turns, std::string* err);

 private:
  std::unique_ptr<TranscriptFormat> format_;
  TranscriptSession session_;
};

// {home}, {cwd_slug} and {session_id} filled in, as the CLI names the file.
std::string TranscriptPath(const std::string& pattern, const std::string& home, const std::string& cwd,
                           const std::string& session_id);
// Whether a transcript's recorded prompt is the one typed: equal once
// surrounding white space is trimmed and runs of it folded (a CLI may
// record a pasted prompt's line ends or indentation its own way).
bool SamePrompt(const std::string& recorded, const std::string& typed);
// A new random session id (UUID version 4).
std::string NewSessionId();

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_H_
