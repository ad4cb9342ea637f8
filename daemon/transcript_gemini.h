// Gemini CLI's chat files: ~/.gemini/tmp/<project>/chats/session-*.jsonl;
// the first record names the session (--session-id), not its cwd.
#ifndef TUIDRIVER_TRANSCRIPT_GEMINI_H_
#define TUIDRIVER_TRANSCRIPT_GEMINI_H_

#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

std::unique_ptr<TranscriptFormat> NewGeminiTranscript();
// Parses the records a turn appended to a Gemini CLI chat file: message
// records, updated by id, and `$set` records.
bool ParseGeminiTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same records as the turns their prompts open (history).
bool ParseGeminiTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_GEMINI_H_
