// Claude Code's transcript: ~/.claude/projects/<cwd slug>/<session id>.jsonl,
// named by the session id the daemon chooses (--session-id).
#ifndef TUIDRIVER_TRANSCRIPT_CLAUDE_H_
#define TUIDRIVER_TRANSCRIPT_CLAUDE_H_

#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

std::unique_ptr<TranscriptFormat> NewClaudeTranscript();
// Parses the JSONL records a turn appended to a Claude Code transcript.
// False with *err when a record is not what the format promises.
bool ParseClaudeTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same records as the turns their prompts open (history).
bool ParseClaudeTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_CLAUDE_H_
