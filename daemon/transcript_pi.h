// pi's session file (~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl),
// as pi 0.73.1 writes it: a `session` header, then `message` records whose
// `message` is a user prompt, an assistant message (text and toolCall
// blocks, usage, stopReason) or a toolResult. pi records no turn end: the
// turn is done when its last assistant message stopped for a reason other
// than a tool call.
#ifndef TUIDRIVER_TRANSCRIPT_PI_H_
#define TUIDRIVER_TRANSCRIPT_PI_H_

#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

std::unique_ptr<TranscriptFormat> NewPiTranscript();
// Parses the records a turn appended. False with *err when a record is not
// what the format promises.
bool ParsePiTurn(const std::string& jsonl, Turn* turn, std::string* err);
// The same records as the turns their prompts open (history).
bool ParsePiTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err);
// The session id and working directory the file's first record (the
// `session` header) names; false when it is not a pi header.
bool IdentifyPi(const simdjson::dom::element& first, std::string* id, std::string* cwd);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_PI_H_
