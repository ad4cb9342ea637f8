// The kinds of error the daemon sends: the "kind" of every failed reply and
// of every {"type":"error"} line (docs/protocol.md). One table in
// error_kind.cc names each on the wire; `tuidriver --list-error-kinds`
// prints that list, and the shim's TuiDriverErrorKind is checked against it.
#ifndef TUIDRIVER_ERROR_KIND_H_
#define TUIDRIVER_ERROR_KIND_H_

#include <string>
#include <vector>

namespace tuidriver {

enum class ErrorKind {
  kUsage,        // bad command-line arguments
  kEngine,       // an unknown engine or an invalid engine file
  kSpawn,        // the program could not be started
  kNotReady,     // the program never showed its prompt
  kProtocol,     // a line the daemon cannot read, or a field it refuses
  kUnknownType,  // a request type it does not know
  kBadRequest,   // a field the request's type does not have
  kTimeout,      // a condition not met in time
  kCancelled,    // a cancel request, or close, ended the ask
  kExited,       // the program is gone
  kNeedsInput,   // the program asks a question no dialog rule answers
  kUnfinishedInput,  // a person's input left unfinished at the prompt holds the asks
  kBusy,         // too many asks queued, or input the program has not read
  kRecord,       // the asciicast recording failed
  kHistory,      // no transcript to read
  kError,        // anything else the request cannot do
};

// The kind's name on the wire ("needs_input").
const char* ErrorKindName(ErrorKind kind);
// Every wire name, in the table's order.
std::vector<std::string> ErrorKindNames();

}  // namespace tuidriver

#endif  // TUIDRIVER_ERROR_KIND_H_
