#include "transcript_qwen.h"

#include <simdjson.h>

#include <vector>

#include "transcript_jsonl.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// A record's message.parts, or an error naming the record's type.
bool PartsOf(const element& record, const std::string& type, simdjson::dom::array* parts, std::string* err) {
  if (!record["message"]["parts"].get(*parts)) return true;
  *err = "a record of type " + type + " without message.parts";
  return false;
}

bool OnAssistant(const element& record, Turn* turn, std::string* err) {
  simdjson::dom::array parts;
  if (!PartsOf(record, "assistant", &parts, err)) return false;
  std::string text;
  bool calls = false;
  for (element p : parts) {
    bool thought = false;
    std::string_view s;
    element call;
    if (!p["functionCall"].get(call)) {
      ToolCall t;
      t.id = JsonStr(call, "id");
      t.name = JsonStr(call, "name");
      element args;
      t.input_json = call["args"].get(args) ? "{}" : simdjson::minify(args);
      turn->tools.push_back(std::move(t));
      calls = true;
    } else if (!p["text"].get(s) && (p["thought"].get(thought) || !thought)) {
      text += s;
    }
  }
  // The answer is the text of the last message with no tool call after it.
  if (calls) turn->markdown.clear();
  else if (!text.empty()) turn->markdown = text;
  turn->finished = !calls && !text.empty();
  element usage;
  int64_t n = 0;
  if (!record["usageMetadata"].get(usage)) {
    if (!usage["promptTokenCount"].get(n)) turn->input_tokens += n;
    if (!usage["candidatesTokenCount"].get(n)) turn->output_tokens += n;
  }
  if (!JsonStr(record, "model").empty()) turn->model = JsonStr(record, "model");
  return true;
}

bool OnToolResult(const element& record, Turn* turn, std::string* err) {
  simdjson::dom::array parts;
  if (!PartsOf(record, "tool_result", &parts, err)) return false;
  element result;
  std::string status = record["toolCallResult"].get(result) ? "" : JsonStr(result, "status");
  for (element p : parts) {
    element response;
    if (p["functionResponse"].get(response)) continue;
    std::string id = JsonStr(response, "id");
    for (ToolCall& t : turn->tools) {
      if (t.id != id) continue;
      element r;
      t.output = response["response"].get(r) ? "" : JsonStr(r, "output");
      t.ok = status.empty() || status == "success";
    }
  }
  turn->finished = false;  // the model answers the result next
  return true;
}

bool OnRecord(const element& record, std::vector<Turn>* turns, std::string* err) {
  std::string type = JsonStr(record, "type");
  if (type == "user") {
    simdjson::dom::array parts;
    if (!PartsOf(record, "user", &parts, err)) return false;
    std::string prompt;
    for (element p : parts) prompt += JsonStr(p, "text");
    OpenTurn(turns, prompt);  // a prompt: a turn starts here
    return true;
  }
  Turn* turn = CurrentTurn(turns);
  if (!turn->prompt_seen) return true;
  if (type == "assistant") return OnAssistant(record, turn, err);
  if (type == "tool_result") return OnToolResult(record, turn, err);
  return true;  // system records: telemetry, snapshots
}

}  // namespace

bool ParseQwenTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err) {
  turns->clear();
  return ForEachJsonlRecord(jsonl, [&](const element& record, const std::string&) {
    return OnRecord(record, turns, err);
  }, err);
}

bool ParseQwenTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  std::vector<Turn> turns;
  if (!ParseQwenTurns(jsonl, &turns, err)) return false;
  *turn = LastTurn(std::move(turns));
  return true;
}

namespace {

// Every record names the session and its cwd.
bool IdentifyQwen(const element& first, std::string* id, std::string* cwd) {
  *id = JsonStr(first, "sessionId");
  *cwd = JsonStr(first, "cwd");
  return !id->empty();
}

}  // namespace

std::unique_ptr<TranscriptFormat> NewQwenTranscript() {
  return std::make_unique<JsonlTranscript>(ParseQwenTurn, IdentifyQwen, ParseQwenTurns);
}

}  // namespace tuidriver
