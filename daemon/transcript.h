// Exact agent turns, read from the transcript the CLI itself writes (Claude:
// ~/.claude/projects/<cwd slug>/<session id>.jsonl): the model's markdown
// byte for byte, its tool calls, usage and model, which the screen only
// shows re-rendered. Each format is one file behind transcript_format.h.
// Formats read only the fields they need and skip record types they do not
// know; a record of a known type in a shape they do not know fails loudly,
// so a changed format shows as transcript_error, never as a wrong answer.
#ifndef TUIDRIVER_TRANSCRIPT_H_
#define TUIDRIVER_TRANSCRIPT_H_

#include <memory>
#include <string>
#include <vector>

#include "json_writer.h"
#include "transcript_turn.h"

namespace tuidriver {

// The reply's `turn` object: session_id, tools, usage, model.
JsonObject TurnJson(const Turn& turn, const std::string& session_id);
// The `history` reply's fields: session_id, and turns [{prompt, markdown, tools}].
JsonObject HistoryJson(const std::vector<Turn>& turns, const std::string& session_id);

class TranscriptFormat;

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
// A new random session id (UUID version 4).
std::string NewSessionId();

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_H_
