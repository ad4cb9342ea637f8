#include "transcript_pi.h"

#include <simdjson.h>

#include <vector>

#include "transcript_jsonl.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

bool OnAssistant(const element& m, Turn* turn, std::string* err) {
  simdjson::dom::array blocks;
  if (m["content"].get(blocks)) {
    *err = "an assistant message without a content array";
    return false;
  }
  turn->markdown.clear();  // the answer is the last message's text
  for (element b : blocks) {
    std::string type = JsonStr(b, "type");
    if (type == "text") {
      if (!turn->markdown.empty()) turn->markdown += "\n\n";
      turn->markdown += JsonStr(b, "text");
    } else if (type == "toolCall") {
      ToolCall t;
      t.id = JsonStr(b, "id");
      t.name = JsonStr(b, "name");
      element args;
      t.input_json = b["arguments"].get(args) ? "{}" : simdjson::minify(args);
      turn->tools.push_back(std::move(t));
      turn->markdown.clear();
    }
  }
  element usage;
  int64_t n = 0;
  if (!m["usage"].get(usage)) {
    if (!usage["input"].get(n)) turn->input_tokens += n;
    if (!usage["output"].get(n)) turn->output_tokens += n;
  }
  if (!JsonStr(m, "model").empty()) turn->model = JsonStr(m, "model");
  std::string stop = JsonStr(m, "stopReason");
  if (stop.empty()) {
    *err = "an assistant message without a stopReason";
    return false;
  }
  // toolUse: pi runs the tools and asks the model again. stop, length,
  // error, aborted: the turn is over.
  turn->finished = stop != "toolUse";
  return true;
}

void OnToolResult(const element& m, Turn* turn) {
  std::string id = JsonStr(m, "toolCallId");
  for (ToolCall& t : turn->tools) {
    if (t.id != id) continue;
    element content;
    if (!m["content"].get(content)) t.output = JsonText(content);
    bool is_error = false;
    t.ok = m["isError"].get(is_error) || !is_error;
  }
}

bool OnMessage(const element& m, std::vector<Turn>* turns, std::string* err) {
  std::string role = JsonStr(m, "role");
  if (role == "user") {
    element content;
    OpenTurn(turns, m["content"].get(content) ? "" : JsonText(content));  // a prompt: a turn starts here
    return true;
  }
  Turn* turn = CurrentTurn(turns);
  if (!turn->prompt_seen) return true;
  if (role == "assistant") return OnAssistant(m, turn, err);
  if (role == "toolResult") OnToolResult(m, turn);
  return true;  // bashExecution, custom, summaries: not the model's turn
}

}  // namespace

bool ParsePiTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err) {
  turns->clear();
  return ForEachJsonlRecord(jsonl, [&](const element& record, const std::string&) {
    if (JsonStr(record, "type") != "message") return true;  // model changes, labels, compactions
    element message;
    if (record["message"].get(message) || !message.is_object()) {
      return (*err = "a message record without a message object", false);
    }
    return OnMessage(message, turns, err);
  }, err);
}

bool ParsePiTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  std::vector<Turn> turns;
  if (!ParsePiTurns(jsonl, &turns, err)) return false;
  *turn = LastTurn(std::move(turns));
  return true;
}

bool IdentifyPi(const element& first, std::string* id, std::string* cwd) {
  if (JsonStr(first, "type") != "session") return false;
  *id = JsonStr(first, "id");
  *cwd = JsonStr(first, "cwd");
  return !id->empty();
}

std::unique_ptr<TranscriptFormat> NewPiTranscript() {
  return std::make_unique<JsonlTranscript>(ParsePiTurn, IdentifyPi, ParsePiTurns);
}

}  // namespace tuidriver
