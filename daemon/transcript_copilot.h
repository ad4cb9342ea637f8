// GitHub Copilot CLI's transcript: ~/.copilot/session-state/<session id>/
// events.jsonl, one event a line, appended as the session goes.
#ifndef TUIDRIVER_TRANSCRIPT_COPILOT_H_
#define TUIDRIVER_TRANSCRIPT_COPILOT_H_

#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

// The path names the file by the session id the daemon chooses (--session-id).
std::unique_ptr<TranscriptFormat> NewCopilotTranscript();
// Parses the events a turn appended (user.message, assistant.message,
// tool.execution_complete, session.usage_record, assistant.turn_end).
// False with *err when an event of a known type is not in the shape
// Copilot 1.0.102 writes.
bool ParseCopilotTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same records as the turns their prompts open (history).
bool ParseCopilotTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_COPILOT_H_
