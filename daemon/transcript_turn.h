// A transcript's turn and what the daemon knows of the session it reads:
// the types both the reader (transcript.h) and every format
// (transcript_format.h) use. They live here, below both, so that neither
// header includes the other (transcript.cc includes transcript_format.h).
#ifndef TUIDRIVER_TRANSCRIPT_TURN_H_
#define TUIDRIVER_TRANSCRIPT_TURN_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_TURN_H_
