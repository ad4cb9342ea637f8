// Every line the daemon writes to stdout is built here, with the JSON
// writer: replies, chunks and events (docs/protocol.md lists them). No
// message is spliced from strings anywhere else.
#ifndef TUIDRIVER_MESSAGES_H_
#define TUIDRIVER_MESSAGES_H_

#include <string>
#include <vector>

#include "error_kind.h"
#include "json_writer.h"
#include "request.h"
#include "terminal.h"

namespace tuidriver {

// What a needs_input event carries: a question inside a turn, and its
// choices when it lists them (turn_input.h reads them off the screen).
struct InputOption {
  int index = 0;      // the number the dialog shows
  std::string label;
};

struct InputQuestion {
  std::string question;               // the rows above the first choice
  std::vector<InputOption> options;   // empty: a free-text question
  int selected = -1;                  // position in options of the highlight
};

// {"id":…,"type":"reply","ok":true, …fields}
std::string ReplyOkMessage(const RequestId& id, const JsonObject& fields = JsonObject());
// {"id":…,"type":"reply","ok":false,"kind":…,"error":…, …fields}
std::string ReplyErrorMessage(const RequestId& id, ErrorKind kind, const std::string& error,
                              const JsonObject& fields = JsonObject());
// The screen's "styles" field (screen with "styles":true): per row, its
// runs {"col","len", colours and only the attributes that are set}.
void AddScreenStyles(const Terminal& term, JsonObject* screen);
// {"id":…,"type":"chunk","delta":…}: ask_stream's text as it grows.
std::string ChunkMessage(const RequestId& id, const std::string& delta);
// {"type":"output","data":…}: raw program output, for subscribers.
std::string OutputEvent(std::string_view data);
// {"type":"output","data_base64":…}: the same as exact bytes (subscribe's
// encoding "base64").
std::string OutputBase64Event(std::string_view bytes);
// {"type":"exit", …exit fields}: the program ended (after EOF and waitpid).
std::string ExitEvent(const JsonObject& exit_fields);
// {"type":"dialog","name":…,"keys":[…]}: a dialog rule answered.
std::string DialogEvent(const std::string& name, const std::vector<std::string>& keys);
// {"type":"ready","engine":…|null,"pid","cols","rows"[,"session_id"][,"cli_version"]}: the
// program is at its prompt (raw sessions: started); `engine` empty is null.
std::string ReadyEvent(const std::string& engine, int64_t pid, int cols, int rows, const std::string& session_id,
                       const std::string& cli_version);
// {"type":"output_dropped","bytes","events","reason"}: output events the
// client did not read in time were dropped (counted, never silently).
std::string OutputDroppedEvent(int64_t bytes, int64_t events);
// {"type":"program_state","state":…,"question":…|null}: what a raw
// session's program does now (program_state.h), for subscribers.
std::string ProgramStateEvent(const std::string& state, const std::string& question);
// "question": what a program in `state` asks, or null unless it is
// needs_input: the field as status, run and the program_state event give it.
void AddQuestion(JsonObject* o, const std::string& state, const std::string& question);
// {"id":ID,"type":"needs_input","question":"...","options":[{"index":1,"label":"Yes"},...]}
std::string NeedsInputEvent(const RequestId& id, const InputQuestion& q);
// {"type":"error","kind":…,"error":…, …fields}: a failure no request caused
// (spawn, not_ready).
std::string SessionErrorMessage(ErrorKind kind, const std::string& error,
                                const JsonObject& fields = JsonObject());

}  // namespace tuidriver

#endif  // TUIDRIVER_MESSAGES_H_
