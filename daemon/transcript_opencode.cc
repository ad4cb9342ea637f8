#include "transcript_opencode.h"

#include <simdjson.h>

#include <algorithm>

#include "sqlite_reader.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// The errors of a tool call after which opencode stops its loop: the turn
// ends with that step (the user rejected the call's permission, or dismissed
// a question; Kilo's suggestion too). A rejection with feedback, or a rule's
// denial, goes back to the model, which answers on.
constexpr const char* kTurnEndingErrors[] = {
    "The user rejected permission to use this specific tool call.",
    "The user dismissed this question",
    "The user dismissed this suggestion",
};

// A tool part: {"tool","callID","state":{"status","input","output"|"error"}}.
// *ends_turn: its error stops the turn (kTurnEndingErrors).
bool OnToolPart(const element& part, Turn* turn, bool* ends_turn, std::string* err) {
  element state;
  if (part["state"].get(state) || !state.is_object() || JsonStr(state, "status").empty()) {
    *err = "a tool part without a state.status";
    return false;
  }
  ToolCall t;
  t.id = JsonStr(part, "callID");
  t.name = JsonStr(part, "tool");
  element input;
  t.input_json = state["input"].get(input) ? "{}" : simdjson::minify(input);
  std::string status = JsonStr(state, "status");
  t.ok = status != "error";
  t.output = t.ok ? JsonStr(state, "output") : JsonStr(state, "error");
  for (const char* e : kTurnEndingErrors) *ends_turn = *ends_turn || (!t.ok && t.output == e);
  turn->tools.push_back(std::move(t));
  return true;
}

// The parts of one assistant message: its text and tool calls. Text after
// a tool call, or in a newer message, starts the answer anew. *ends_turn:
// a tool call's error stops the turn.
bool OnAssistantParts(const OpencodeMessage& m, Turn* turn, bool* text_open, bool* ends_turn, std::string* err) {
  simdjson::dom::parser parser;
  *text_open = *ends_turn = false;
  for (const std::string& data : m.parts) {
    element part;
    if (parser.parse(data).get(part) || !part.is_object()) {
      *err = "a part whose data is not a JSON object";
      return false;
    }
    std::string type = JsonStr(part, "type");
    bool aside = false;  // text the CLI added, not the model (Kilo's notes)
    if (type == "text" && (part["synthetic"].get(aside) || !aside) && (part["ignored"].get(aside) || !aside)) {
      std::string_view text;
      if (part["text"].get(text)) {
        *err = "a text part without text";
        return false;
      }
      if (!*text_open) turn->markdown.clear();
      else if (!turn->markdown.empty()) turn->markdown += "\n\n";
      turn->markdown += std::string(text);
      *text_open = true;
    } else if (type == "tool") {
      if (!OnToolPart(part, turn, ends_turn, err)) return false;
      *text_open = false;
    }
  }
  return true;
}

// An assistant message's model, tokens, and whether it ends the turn: it
// is complete, and did not stop to run tools (or a tool call's error
// stopped the turn there).
bool OnAssistant(const element& data, const OpencodeMessage& m, Turn* turn, std::string* err) {
  if (!JsonStr(data, "modelID").empty()) turn->model = JsonStr(data, "modelID");
  int64_t n = 0;
  if (!data["tokens"]["input"].get(n)) turn->input_tokens += n;
  if (!data["tokens"]["output"].get(n)) turn->output_tokens += n;
  bool text_open = false, ends_turn = false;
  if (!OnAssistantParts(m, turn, &text_open, &ends_turn, err)) return false;
  int64_t completed = 0;
  bool complete = !data["time"]["completed"].get(completed) && completed > 0;
  element error;
  turn->finished = complete && (JsonStr(data, "finish") != "tool-calls" || !data["error"].get(error) || ends_turn);
  return true;
}

}  // namespace

bool ParseOpencodeTurn(const std::vector<OpencodeMessage>& messages, Turn* turn, std::string* err) {
  simdjson::dom::parser parser;
  for (size_t i = 0; i < messages.size(); ++i) {
    element data;
    if (parser.parse(messages[i].data).get(data) || !data.is_object()) {
      *err = "message " + std::to_string(i + 1) + " of the turn is not a JSON object";
      return false;
    }
    std::string role = JsonStr(data, "role");
    bool ok = true;
    if (role == "user") {
      *turn = Turn();  // a prompt: this ask's turn starts here
      turn->prompt_seen = true;
    } else if (role == "assistant") {
      if (turn->prompt_seen) ok = OnAssistant(data, messages[i], turn, err);
    } else {
      ok = (*err = "a message whose role is '" + role + "'", false);
    }
    if (!ok) {
      *err += " (message " + std::to_string(i + 1) + " of the turn)";
      return false;
    }
  }
  return true;
}

namespace {

class OpencodeTranscript : public TranscriptFormat {
 public:
  bool Locate(TranscriptSession* session) override;
  void StartTurn(const TranscriptSession& session) override;
  TranscriptResult ReadTurn(const TranscriptSession& session, Turn* turn, std::string* err) override;

 private:
  bool LocateByPrompt(SqliteReader* db, TranscriptSession* session);
  bool found_ = false;
  std::string mark_ = "0";  // the last message row before the turn
  // Id not known yet: the last message row of any session when the ask
  // began ("" before any ask).
  std::string turn_start_ = "";
};

// The session by its id (given by --resume, or learned and confirmed),
// else the one top-level session of this directory, started after the
// spawn, whose user message since the ask began holds this ask's prompt.
// A tentative one is looked for again until its turn is read whole, so
// that a second session recording the same prompt shows.
bool OpencodeTranscript::Locate(TranscriptSession* session) {
  if (found_ && !session->id_tentative) return true;
  session->ambiguous.clear();
  // A new session is told by what its first ask writes: before that, a new
  // session in this cwd may be another daemon's (a history request first).
  if (!session->id_known() && turn_start_.empty()) return false;
  SqliteReader db;
  std::string err;
  if (!db.Open(session->path, &err)) return false;
  if (!session->id_known()) return found_ = LocateByPrompt(&db, session);
  std::vector<std::string> ids;
  db.Query("SELECT id FROM session WHERE id = ?", {session->session_id},
           [&ids](const std::vector<std::string>& row) { ids.push_back(row[0]); }, &err);
  return found_ = !ids.empty();
}

bool OpencodeTranscript::LocateByPrompt(SqliteReader* db, TranscriptSession* session) {
  std::vector<std::string> ids;
  simdjson::dom::parser parser;
  std::string err;
  db->Query("SELECT s.id, m.data, p.data FROM session s JOIN message m ON m.session_id = s.id "
            "JOIN part p ON p.message_id = m.id WHERE s.directory = ? AND s.parent_id IS NULL "
            "AND s.time_created >= CAST(? AS INTEGER) AND m.rowid > CAST(? AS INTEGER) ORDER BY m.rowid, p.id",
            {session->cwd, std::to_string(session->spawned_ms), turn_start_},
            [&](const std::vector<std::string>& row) {
              element message, part;
              if (parser.parse(row[1]).get(message) || JsonStr(message, "role") != "user") return;
              if (parser.parse(row[2]).get(part) || JsonStr(part, "type") != "text") return;
              if (!SamePrompt(JsonStr(part, "text"), session->turn_prompt)) return;
              if (std::find(ids.begin(), ids.end(), row[0]) == ids.end()) ids.push_back(row[0]);
            },
            &err);
  if (ids.size() > 1) {
    for (std::string& id : ids) id = session->path + " session " + id;
    session->ambiguous = AmbiguousTranscripts(*session, ids);
  }
  if (ids.size() != 1) return false;
  session->session_id = ids[0];
  session->id_tentative = true;
  mark_ = turn_start_;
  return true;
}

// The turn is what is written after the session's last message now; for a
// session whose id is not known yet, after any session's last message.
void OpencodeTranscript::StartTurn(const TranscriptSession& session) {
  mark_ = "0";
  if (!session.id_known()) turn_start_ = "0";  // no database yet: no rows yet
  SqliteReader db;
  std::string err;
  if (!db.Open(session.path, &err)) return;
  if (!session.id_known()) {
    db.Query("SELECT COALESCE(MAX(rowid), 0) FROM message", {},
             [this](const std::vector<std::string>& row) { turn_start_ = row[0]; }, &err);
    mark_ = turn_start_;
    return;
  }
  db.Query("SELECT COALESCE(MAX(rowid), 0) FROM message WHERE session_id = ?", {session.session_id},
           [this](const std::vector<std::string>& row) { mark_ = row[0]; }, &err);
}

TranscriptResult OpencodeTranscript::ReadTurn(const TranscriptSession& session, Turn* turn, std::string* err) {
  SqliteReader db;
  if (!db.Open(session.path, err)) return TranscriptResult::kNotYet;
  std::vector<OpencodeMessage> messages;
  std::string last_id;
  // One statement: one snapshot of the messages and their parts.
  bool read = db.Query(
      "SELECT m.id, m.data, p.data FROM message m LEFT JOIN part p ON p.message_id = m.id "
      "WHERE m.session_id = ? AND m.rowid > CAST(? AS INTEGER) ORDER BY m.rowid, p.id",
      {session.session_id, mark_},
      [&](const std::vector<std::string>& row) {
        if (messages.empty() || row[0] != last_id) messages.push_back({row[1], {}});
        last_id = row[0];
        if (!row[2].empty()) messages.back().parts.push_back(row[2]);
      },
      err);
  if (!read) {
    *err = session.path + ": " + *err;
    return db.busy() ? TranscriptResult::kNotYet : TranscriptResult::kFailed;
  }
  if (!ParseOpencodeTurn(messages, turn, err)) {
    *err = session.path + ": session " + session.session_id + ": " + *err;
    return TranscriptResult::kFailed;
  }
  if (turn->finished) return TranscriptResult::kDone;
  *err = session.path + ": session " + session.session_id +
         (turn->prompt_seen ? ": the turn's end is not recorded" : ": no prompt recorded after the ask began");
  return TranscriptResult::kNotYet;
}

}  // namespace

std::unique_ptr<TranscriptFormat> NewOpencodeTranscript() { return std::make_unique<OpencodeTranscript>(); }

}  // namespace tuidriver
