#include "transcript_pi.h"

#include <simdjson.h>

#include <sstream>

namespace tuidriver {
namespace {

using simdjson::dom::element;

std::string Str(const element& e, const char* key) {
  std::string_view s;
  if (e[key].get(s)) return "";
  return std::string(s);
}

// The text blocks of a content array, or the content itself when a string.
std::string TextOf(const element& content) {
  std::string_view s;
  if (!content.get(s)) return std::string(s);
  simdjson::dom::array blocks;
  if (content.get(blocks)) return "";
  std::string out;
  for (element b : blocks) {
    if (Str(b, "type") == "text") out += Str(b, "text");
  }
  return out;
}

bool OnAssistant(const element& m, Turn* turn, std::string* err) {
  simdjson::dom::array blocks;
  if (m["content"].get(blocks)) {
    *err = "an assistant message without a content array";
    return false;
  }
  turn->markdown.clear();  // the answer is the last message's text
  for (element b : blocks) {
    std::string type = Str(b, "type");
    if (type == "text") {
      if (!turn->markdown.empty()) turn->markdown += "\n\n";
      turn->markdown += Str(b, "text");
    } else if (type == "toolCall") {
      ToolCall t;
      t.id = Str(b, "id");
      t.name = Str(b, "name");
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
  if (!Str(m, "model").empty()) turn->model = Str(m, "model");
  std::string stop = Str(m, "stopReason");
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
  std::string id = Str(m, "toolCallId");
  for (ToolCall& t : turn->tools) {
    if (t.id != id) continue;
    element content;
    if (!m["content"].get(content)) t.output = TextOf(content);
    bool is_error = false;
    t.ok = m["isError"].get(is_error) || !is_error;
  }
}

bool OnMessage(const element& m, Turn* turn, std::string* err) {
  std::string role = Str(m, "role");
  if (role == "user") {
    *turn = Turn();  // a prompt: this ask's turn starts here
    turn->prompt_seen = true;
    return true;
  }
  if (!turn->prompt_seen) return true;
  if (role == "assistant") return OnAssistant(m, turn, err);
  if (role == "toolResult") OnToolResult(m, turn);
  return true;  // bashExecution, custom, summaries: not the model's turn
}

}  // namespace

bool ParsePiTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  simdjson::dom::parser parser;
  std::istringstream in(jsonl);
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    element record;
    if (parser.parse(line).get(record)) {
      if (in.peek() == EOF && jsonl.back() != '\n') return true;  // still being written
      *err = "line " + std::to_string(number) + " of the turn is not JSON";
      return false;
    }
    if (Str(record, "type") != "message") continue;  // model changes, labels, compactions
    element message;
    bool ok = !record["message"].get(message) && message.is_object();
    if (!ok) *err = "a message record without a message object";
    else ok = OnMessage(message, turn, err);
    if (!ok) {
      *err += " (line " + std::to_string(number) + " of the turn)";
      return false;
    }
  }
  return true;
}

bool PiSessionOf(const std::string& first_line, std::string* id, std::string* cwd) {
  simdjson::dom::parser parser;
  element record;
  if (parser.parse(first_line).get(record) || Str(record, "type") != "session") return false;
  *id = Str(record, "id");
  *cwd = Str(record, "cwd");
  return !id->empty();
}

}  // namespace tuidriver
