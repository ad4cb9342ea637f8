// Codex's rollout files: ~/.codex/sessions/Y/M/D/rollout-*.jsonl, named by
// the CLI; the first record (session_meta) names the session and its cwd.
#ifndef TUIDRIVER_TRANSCRIPT_CODEX_H_
#define TUIDRIVER_TRANSCRIPT_CODEX_H_

#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

std::unique_ptr<TranscriptFormat> NewCodexTranscript();
// Parses the records a turn appended to a Codex rollout file: response_item,
// event_msg and turn_context records.
bool ParseCodexTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same records as the turns their prompts open (history).
bool ParseCodexTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_CODEX_H_
