// opencode's session store, which Kilo shares: SQLite at
// ~/.local/share/opencode/opencode.db (Kilo: kilo/kilo.db). A `session` row
// per conversation (id, directory, time_created, parent_id for subagents),
// a `message` row per model or user message (data: JSON with role, tokens,
// modelID, time.completed, finish), a `part` row per piece of a message
// (data: JSON of type text, tool, step-start, ...). The CLI names the
// session; a new one is found by its directory and a start after the spawn.
#ifndef TUIDRIVER_TRANSCRIPT_OPENCODE_H_
#define TUIDRIVER_TRANSCRIPT_OPENCODE_H_

#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

std::unique_ptr<TranscriptFormat> NewOpencodeTranscript();

// One message row: its data and its parts' data, in the order written.
struct OpencodeMessage {
  std::string data;
  std::vector<std::string> parts;
};
// Parses the messages a turn wrote, oldest first. False with *err when a
// message or part is not in the shape opencode 1.18 writes.
bool ParseOpencodeTurn(const std::vector<OpencodeMessage>& messages, Turn* turn, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_OPENCODE_H_
