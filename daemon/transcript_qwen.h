// Qwen Code's chat file (~/.qwen/projects/<cwd slug>/chats/<session id>.jsonl),
// as Qwen Code 0.24.4 writes it: one record a line, `user` (the prompt, in
// Gemini's parts), `assistant` (the model's parts: text, functionCall; its
// usageMetadata and model), `tool_result` (functionResponse parts and the
// toolCallResult status) and `system` records (telemetry, snapshots). Qwen
// records no turn end: the turn is done when its last assistant record has
// text and no tool call left to run.
#ifndef TUIDRIVER_TRANSCRIPT_QWEN_H_
#define TUIDRIVER_TRANSCRIPT_QWEN_H_

#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

// The file is named by the session id (--session-id, --resume).
std::unique_ptr<TranscriptFormat> NewQwenTranscript();
// Parses the records a turn appended. False with *err when a record is not
// what the format promises.
bool ParseQwenTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same records as the turns their prompts open (history).
bool ParseQwenTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_QWEN_H_
