// Parsing one NDJSON request line into a validated Request.
//
// One long-lived RequestParser owns the simdjson parser and its buffers;
// every string in a Request is a copy, so a Request outlives the line.
#ifndef TUIDRIVER_REQUEST_H_
#define TUIDRIVER_REQUEST_H_

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <vector>

#include "error_kind.h"

namespace tuidriver {

// Longest request line accepted; longer lines are refused with a protocol
// error without being buffered whole.
constexpr size_t kMaxRequestBytes = 16 * 1024 * 1024;

// The request id, echoed verbatim on the reply: a number or a string.
struct RequestId {
  enum class Kind { kNone, kNumber, kString } kind = Kind::kNone;
  std::string json = "null";  // the id as JSON text: 7, "abc" or null
  bool operator==(const RequestId& o) const { return kind == o.kind && json == o.json; }
};

// Every request type the daemon knows (docs/protocol.md). request.cc's one
// table names each and reads its fields; SessionCore::Dispatch switches on it,
// so a type added here without a handler is a compiler warning (-Wswitch).
enum class RequestType {
  kAsk, kAskStream, kAnswer, kCancel,
  kSend, kSendSecret, kKeys, kPaste,
  kResize, kScreen, kScrollback, kExpect, kWaitIdle, kRun, kSignal, kStatus,
  kSubscribe, kUnsubscribe, kRecord, kHistory, kClose,
};
// The type's name on the wire ("ask_stream").
const char* RequestTypeName(RequestType type);

struct Request {
  RequestType type = RequestType::kStatus;
  RequestId id;

  // Fields, set according to the type (see docs/protocol.md).
  std::string prompt;                // ask, ask_stream
  long timeout_ms = -1;              // ask*, expect, wait_idle, run (timeout_ms, or timeout in s); <0: default
  std::string on_input;              // ask*: "wait" or "fail" (default)
  RequestId target;                  // cancel, answer
  long option = 0;                   // answer: the choice's number; 0: text
  std::string data;                  // send, send_secret
  std::vector<std::string> keys;     // keys
  std::string text;                  // paste, answer
  int cols = 0, rows = 0;            // resize
  int64_t follow_row = -1;           // resize: an absolute row to map through a reflow; <0: none
  long lines = -1;                   // scrollback; <0: everything
  bool wrapped = false;              // scrollback: add wrap flags, the cursor's row, alt_screen
  std::string pattern;               // expect
  bool output_only = false;          // expect: only the output since the request
  int idle_ms = 0;                   // wait_idle, run
  std::string line;                  // run: typed with Enter
  std::string signal;                // signal
  std::vector<std::string> events;   // subscribe / unsubscribe
  bool output_base64 = false;        // subscribe: `output` events carry base64 bytes
  bool styles = false;               // screen: add the styled runs
  std::string path;                  // record: the asciicast file to start
  bool stop = false;                 // record: stop recording
};

// Why a line was refused, as the reply's kind: "protocol", "unknown_type",
// "bad_request" (a field the request's type does not have).
enum class RequestError { kNone, kProtocol, kUnknownType, kBadRequest };
ErrorKind RequestErrorKind(RequestError error);

class RequestParser {
 public:
  // Parses one line (without its newline). On failure returns false, sets
  // *kind and *err, and fills request->id when the id could still be read.
  bool Parse(const std::string& line, Request* request, RequestError* kind,
             std::string* err);

 private:
  simdjson::dom::parser parser_;
  simdjson::padded_string buffer_;
};

// Every request type the daemon knows, for error messages and docs.
const std::vector<std::string>& KnownRequestTypes();

// The fields a request of `type` may carry besides "id" and "type" (empty
// for an unknown type): any other field is refused (kBadRequest).
const std::vector<std::string>& KnownRequestFields(const std::string& type);

}  // namespace tuidriver

#endif  // TUIDRIVER_REQUEST_H_
