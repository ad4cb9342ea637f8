#include "transcript_copilot.h"

#include <simdjson.h>

#include <sstream>

#include "transcript_jsonl.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// assistant.message: the model's text, or its tool requests (then the
// answer is the text of a later message).
bool OnAssistantMessage(const element& data, Turn* turn, bool* answered, std::string* err) {
  std::string_view content;
  simdjson::dom::array requests;
  if (data["content"].get(content) || data["toolRequests"].get(requests)) {
    *err = "an assistant.message without content and toolRequests";
    return false;
  }
  if (!JsonStr(data, "model").empty()) turn->model = JsonStr(data, "model");
  for (element r : requests) {
    ToolCall t;
    t.id = JsonStr(r, "toolCallId");
    t.name = JsonStr(r, "name");
    element args;
    t.input_json = r["arguments"].get(args) ? "{}" : simdjson::minify(args);
    turn->tools.push_back(std::move(t));
  }
  if (requests.size() > 0) {
    turn->markdown.clear();
    *answered = false;
  } else {
    turn->markdown = std::string(content);
    *answered = !content.empty();
  }
  return true;
}

// tool.execution_complete: the result the model was given. A shell
// command's output ends with Copilot's "<shellId: N completed with exit
// code N>" line, kept as the model saw it.
void OnToolComplete(const element& data, Turn* turn) {
  std::string id = JsonStr(data, "toolCallId");
  for (ToolCall& t : turn->tools) {
    if (t.id != id) continue;
    bool success = true;
    t.ok = data["success"].get(success) || success;
    std::string_view s;
    if (!data["result"]["content"].get(s)) t.output = std::string(s);
    else if (!data["error"]["message"].get(s)) t.output = std::string(s);
  }
}

void OnUsage(const element& data, Turn* turn) {
  element usage;
  if (data["usage"].get(usage)) return;
  int64_t n = 0;
  if (!usage["inputTokens"].get(n)) turn->input_tokens += n;
  if (!usage["outputTokens"].get(n)) turn->output_tokens += n;
  if (turn->model.empty()) turn->model = JsonStr(usage, "model");
}

// One event; `answered`: the last assistant.message was an answer.
bool OnEvent(const std::string& type, const element& data, std::vector<Turn>* turns, bool* answered,
             std::string* err) {
  if (type == "user.message") {
    std::string_view content;
    if (data["content"].get(content)) {
      *err = "a user.message without data.content";
      return false;
    }
    OpenTurn(turns, std::string(content));  // a prompt: a turn starts here
    *answered = false;
    return true;
  }
  Turn* turn = CurrentTurn(turns);
  if (!turn->prompt_seen) return true;
  if (type == "assistant.message") return OnAssistantMessage(data, turn, answered, err);
  if (type == "tool.execution_complete") OnToolComplete(data, turn);
  else if (type == "session.usage_record") OnUsage(data, turn);
  else if (type == "assistant.turn_start") turn->finished = false;
  // A model call's end; the turn's end when that call answered with text.
  else if (type == "assistant.turn_end") turn->finished = *answered;
  return true;
}

}  // namespace

bool ParseCopilotTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err) {
  turns->clear();
  simdjson::dom::parser parser;
  bool answered = false;
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
    std::string type = JsonStr(record, "type");
    if (type.empty()) {
      *err = "an event without a type (line " + std::to_string(number) + " of the turn)";
      return false;
    }
    element data;
    if (record["data"].get(data) || !data.is_object()) {
      *err = "a " + type + " event without a data object (line " + std::to_string(number) + " of the turn)";
      return false;
    }
    if (!OnEvent(type, data, turns, &answered, err)) {
      *err += " (line " + std::to_string(number) + " of the turn)";
      return false;
    }
  }
  return true;
}

bool ParseCopilotTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  std::vector<Turn> turns;
  if (!ParseCopilotTurns(jsonl, &turns, err)) return false;
  *turn = LastTurn(std::move(turns));
  return true;
}

std::unique_ptr<TranscriptFormat> NewCopilotTranscript() {
  return std::make_unique<JsonlTranscript>(ParseCopilotTurn, nullptr, ParseCopilotTurns);
}

}  // namespace tuidriver
