#include "transcript_codex.h"

#include <simdjson.h>

#include <vector>

#include "json_writer.h"
#include "transcript_jsonl.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// A user message: the prompt, unless it is context the CLI adds itself,
// which it wraps in a tag (<environment_context>…</environment_context>).
void OnCodexUserMessage(const element& item, Turn* turn) {
  simdjson::dom::array blocks;
  if (item["content"].get(blocks)) return;
  std::string text;
  for (element b : blocks) {
    if (JsonStr(b, "type") == "input_text") text += JsonStr(b, "text");
  }
  bool wrapped = !text.empty() && text.front() == '<' && text.back() == '>';
  if (!wrapped && !text.empty()) turn->prompt = text;
}

// A tool's output, given to the call with its call_id: this turn's, or an
// earlier one's (a call cut short by an interrupt may get its output after
// the next turn began). An output that names no call, or is not a string,
// is a format this reader does not know: an error, never a call quietly
// left without its output.
bool OnCodexToolOutput(const element& item, std::vector<Turn>* turns, std::string* err) {
  std::string id = JsonStr(item, "call_id");
  std::string_view output;
  if (item["output"].get(output)) {
    *err = "a tool output that is not a string (call_id '" + id + "')";
    return false;
  }
  for (auto turn = turns->rbegin(); turn != turns->rend() && !id.empty(); ++turn) {
    for (ToolCall& t : turn->tools) {
      if (t.id != id) continue;
      t.output = std::string(output);
      return true;
    }
  }
  *err = "a tool output for no call in the transcript (call_id '" + id + "')";
  return false;
}

// A Codex response_item: the assistant's messages, tool calls and outputs.
bool OnCodexItem(const element& item, std::vector<Turn>* turns, std::string* last_text_id, std::string* err) {
  Turn* turn = CurrentTurn(turns);
  std::string type = JsonStr(item, "type");
  if (type == "message" && JsonStr(item, "role") == "user") {
    OnCodexUserMessage(item, turn);
  } else if (type == "message" && JsonStr(item, "role") == "assistant") {
    simdjson::dom::array blocks;
    if (item["content"].get(blocks)) {
      *err = "an assistant message without a content array";
      return false;
    }
    std::string id = JsonStr(item, "id");
    if (*last_text_id != id) turn->markdown.clear();
    for (element b : blocks) {
      if (JsonStr(b, "type") == "output_text") turn->markdown += JsonStr(b, "text");
    }
    *last_text_id = id;
  } else if (type == "function_call" || type == "custom_tool_call" || type == "local_shell_call") {
    ToolCall t;
    t.id = JsonStr(item, "call_id");
    t.name = JsonStr(item, "name");
    std::string args = JsonStr(item, "arguments");
    simdjson::dom::parser p;
    element parsed;
    if (!args.empty() && !p.parse(args).get(parsed)) t.input_json = simdjson::minify(parsed);
    else if (!args.empty()) AppendJsonString(args, &t.input_json);
    else t.input_json = "{}";
    turn->tools.push_back(std::move(t));
    last_text_id->clear();
  } else if (type == "function_call_output" || type == "custom_tool_call_output") {
    return OnCodexToolOutput(item, turns, err);
  }
  return true;
}

// A Codex event_msg: the turn's start and end, and token counts.
void OnCodexEvent(const element& event, std::vector<Turn>* turns) {
  std::string type = JsonStr(event, "type");
  Turn* turn = CurrentTurn(turns);
  if (type == "task_started") {
    OpenTurn(turns, "");  // its prompt is the user message that follows
  } else if (type == "task_complete") {
    turn->finished = turn->prompt_seen;
  } else if (type == "token_count") {
    element last;
    int64_t n = 0;
    if (event["info"]["last_token_usage"].get(last)) return;
    if (!last["input_tokens"].get(n)) turn->input_tokens += n;
    if (!last["output_tokens"].get(n)) turn->output_tokens += n;
  }
}

}  // namespace

bool ParseCodexTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err) {
  turns->clear();
  std::string last_text_id;
  return ForEachJsonlRecord(jsonl, [&](const element& record, const std::string&) {
    std::string type = JsonStr(record, "type");
    if (type != "response_item" && type != "event_msg" && type != "turn_context") return true;
    element payload;
    if (record["payload"].get(payload) || !payload.is_object()) {
      return (*err = "a " + type + " record without a payload object", false);
    }
    Turn* turn = CurrentTurn(turns);
    if (type == "event_msg") OnCodexEvent(payload, turns);
    else if (type == "turn_context" && !JsonStr(payload, "model").empty()) turn->model = JsonStr(payload, "model");
    else if (turn->prompt_seen) return OnCodexItem(payload, turns, &last_text_id, err);
    return true;
  }, err);
}

bool ParseCodexTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  std::vector<Turn> turns;
  if (!ParseCodexTurns(jsonl, &turns, err)) return false;
  *turn = LastTurn(std::move(turns));
  return true;
}

namespace {

// {"type":"session_meta","payload":{"id","cwd"}}
bool IdentifyCodex(const element& first, std::string* id, std::string* cwd) {
  element payload;
  if (first["payload"].get(payload) || !payload.is_object()) return false;
  *id = JsonStr(payload, "id");
  *cwd = JsonStr(payload, "cwd");
  return !id->empty();
}

}  // namespace

std::unique_ptr<TranscriptFormat> NewCodexTranscript() {
  return std::make_unique<JsonlTranscript>(ParseCodexTurn, IdentifyCodex, ParseCodexTurns);
}

}  // namespace tuidriver
