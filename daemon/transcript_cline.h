// Cline's transcript: ~/.cline/data/sessions/<session id>/<session id>.
// messages.json, one JSON document that Cline rewrites whole as the session
// goes ({"sessionId", "messages": [{role, content: [blocks]}]}), so a turn
// is found by counting prompts, not by a file offset.
#ifndef TUIDRIVER_TRANSCRIPT_CLINE_H_
#define TUIDRIVER_TRANSCRIPT_CLINE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

// The path is a glob of messages files (Cline names its sessions itself);
// the match is the one whose session record names this session's id (--id),
// or else the session of this working directory, new since the spawn,
// that recorded this ask's prompt.
std::unique_ptr<TranscriptFormat> NewClineTranscript();

// The session id and working directory of a messages file, from the
// session's record beside it (<session id>.json: session_id, cwd).
bool IdentifyClineSession(const std::string& messages_path, std::string* session_id, std::string* cwd);

// The session id and the prompts the document holds, as typed (Cline wraps
// each in <user_input mode="act">…</user_input>). False with *err when it
// is not (yet) a whole messages document.
bool ReadClineDocument(const std::string& document, std::string* session_id, std::vector<std::string>* prompts,
                       std::string* err);

// The turn opened by the prompt after the first `prompts_before` ones. Its
// end is not recorded: the turn is finished when its last message is an
// answer (text, no tool call left to run). False with *err when a message
// is not in the shape Cline 3.0.65 writes.
bool ParseClineTurn(const std::string& document, size_t prompts_before, Turn* turn, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_CLINE_H_
