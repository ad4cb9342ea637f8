// The one interface every transcript format implements (transcript_claude.cc,
// transcript_codex.cc, ...): find this session's transcript, mark where an
// ask's turn begins, and read what the turn wrote since into a Turn. A
// format may keep its transcript in a file it appends to (a byte offset
// marks the turn) or in a database (the rows written after the mark).
// Formats are looked up by the name the engine file gives as
// transcript.format (transcript_formats.cc).
#ifndef TUIDRIVER_TRANSCRIPT_FORMAT_H_
#define TUIDRIVER_TRANSCRIPT_FORMAT_H_

#include <simdjson.h>
#include <sys/stat.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "transcript_turn.h"

namespace tuidriver {

class TranscriptFormat {
 public:
  virtual ~TranscriptFormat() = default;
  // Finds the session's transcript, and its id when the CLI chose it.
  // False while it is not written yet (a new session's first turn).
  virtual bool Locate(TranscriptSession* session) = 0;
  // An ask starts in a session whose id is not known yet: each candidate's
  // prompts recorded now are earlier turns' (session->prompts_at_turn_start).
  virtual void CountPrompts(TranscriptSession* session) { (void)session; }
  // An ask starts: what the transcript holds now belongs to earlier turns.
  // Called after a successful Locate, or with nothing found yet (then the
  // whole transcript is the turn's).
  virtual void StartTurn(const TranscriptSession& session) = 0;
  // The current turn as recorded so far (after a successful Locate).
  // kDone: finished. kNotYet: *err says what is not written yet. kFailed:
  // *err says what is not in the shape the pinned CLI writes.
  virtual TranscriptResult ReadTurn(const TranscriptSession& session, Turn* turn, std::string* err) = 0;
  // Every turn the transcript holds, oldest first (after a successful
  // Locate). A format that cannot split its transcript into turns says so.
  virtual bool ReadHistory(const TranscriptSession& session, std::vector<Turn>* turns, std::string* err) {
    *err = "this engine's transcript format reads single turns, not a session's history (" + session.path + ")";
    return false;
  }
};

// A transcript read as the turns its prompts open: records before the
// first prompt go to a turn with prompt_seen false, which history drops.
// CurrentTurn: the turn records go to now. OpenTurn: a prompt starts one.
Turn* CurrentTurn(std::vector<Turn>* turns);
Turn* OpenTurn(std::vector<Turn>* turns, std::string prompt);
// The turn an ask reads (the last one, or an empty one), and the history
// (those a prompt opened).
Turn LastTurn(std::vector<Turn> turns);
std::vector<Turn> PromptedTurns(std::vector<Turn> turns);

// The format the engine file names; null for a name not in the table.
std::unique_ptr<TranscriptFormat> NewTranscriptFormat(const std::string& name);
// Every name NewTranscriptFormat knows, for the engine file's error message.
std::vector<std::string> TranscriptFormatNames();

// The string field `key` of `e`, or "" when absent or not a string: formats
// read only what they need, and check the shape of what they rely on.
std::string JsonStr(const simdjson::dom::element& e, const char* key);
// A message's content: a string, or the text of its {"type":"text"} blocks
// joined; "" for anything else.
std::string JsonText(const simdjson::dom::element& content);
// An Anthropic-style {"type":"tool_use", id, name, input} block as a tool
// call (Claude's and Cline's transcripts); its output comes with the result.
ToolCall ToolUseCall(const simdjson::dom::element& block);

// Whether a transcript's recorded prompt is the one typed: equal once
// surrounding white space is trimmed and runs of it folded (a CLI may
// record a pasted prompt's line ends or indentation its own way).
bool SamePrompt(const std::string& recorded, const std::string& typed);

// A file's size and modification time (ns): what tells that it changed.
std::pair<int64_t, int64_t> FileVersion(const struct stat& st);

// A file's session id and working directory (an empty cwd: the format
// records none); false when the file is not a session's.
using IdentifySessionFn = std::function<bool(const std::string& path, std::string* id, std::string* cwd)>;
// The prompts a file records, oldest first; false when it cannot be read.
using RecordedPromptsFn = std::function<bool(const std::string& path, std::vector<std::string>* prompts)>;
// Fills session->prompts_at_turn_start for every glob match (CountPrompts).
void CountSessionPrompts(TranscriptSession* session, const RecordedPromptsFn& prompts);
// This session's file among session->path's glob matches. A known id
// (--resume, or chosen by the daemon): the file naming it, one that records
// a prompt first (a resumed Gemini starts a new file for the id, a header
// and no prompt, and goes on writing the old one). Otherwise: the one file
// of its working directory, new since the spawn, that recorded this turn's
// prompt since the ask began; the id is learned from it, held tentatively
// until the turn is read whole. Two such files: false, and
// session->ambiguous says why.
bool LocateSessionFile(TranscriptSession* session, const IdentifySessionFn& identify,
                       const RecordedPromptsFn& prompts, std::string* file);
// Whether `prompts` (a candidate's, *before* of them recorded when the ask
// began) holds this turn's prompt.
bool RecordsTurnPrompt(const TranscriptSession& session, const std::vector<std::string>& prompts, size_t before);
// The error for several transcripts (files, or sessions of a database)
// that record this session's prompt.
std::string AmbiguousTranscripts(const TranscriptSession& session, const std::vector<std::string>& which);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_FORMAT_H_
