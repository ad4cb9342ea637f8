#include "transcript_claude.h"

#include <simdjson.h>

#include <set>
#include <vector>

#include "transcript_jsonl.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// A user record: the prompt that opens a turn, or the results of tool calls.
bool OnUser(const element& message, std::vector<Turn>* turns, std::string* err) {
  element content;
  if (message["content"].get(content)) {
    *err = "a user record without message.content";
    return false;
  }
  simdjson::dom::array blocks;
  if (content.is_string() || (!content.get(blocks) && blocks.size() > 0 &&
                              JsonStr(blocks.at(0).value_unsafe(), "type") == "text")) {
    OpenTurn(turns, JsonText(content));  // a prompt: a turn starts here
    return true;
  }
  if (content.get(blocks)) {
    *err = "a user record whose message.content is neither text nor blocks";
    return false;
  }
  for (element b : blocks) {
    if (JsonStr(b, "type") != "tool_result") continue;
    std::string id = JsonStr(b, "tool_use_id");
    for (ToolCall& t : CurrentTurn(turns)->tools) {
      if (t.id != id) continue;
      element c;
      if (!b["content"].get(c)) t.output = JsonText(c);
      bool is_error = false;
      t.ok = b["is_error"].get(is_error) || !is_error;
    }
  }
  return true;
}

// An assistant record: one or more content blocks of one model message
// (Claude Code writes a message's blocks as separate records, one id).
bool OnAssistant(const element& message, Turn* turn, std::set<std::string>* counted, std::string* last_text_id,
                 std::string* err) {
  simdjson::dom::array blocks;
  if (message["content"].get(blocks)) {
    *err = "an assistant record without a message.content array";
    return false;
  }
  std::string id = JsonStr(message, "id");
  if (!JsonStr(message, "model").empty()) turn->model = JsonStr(message, "model");
  element usage;
  if (!message["usage"].get(usage) && counted->insert(id).second) {
    int64_t n = 0;
    if (!usage["input_tokens"].get(n)) turn->input_tokens += n;
    if (!usage["output_tokens"].get(n)) turn->output_tokens += n;
  }
  for (element b : blocks) {
    std::string type = JsonStr(b, "type");
    if (type == "text") {
      // Text after a tool call, or from a newer message, starts the answer anew.
      if (*last_text_id != id) turn->markdown.clear();
      else if (!turn->markdown.empty()) turn->markdown += "\n\n";
      turn->markdown += JsonStr(b, "text");
      *last_text_id = id;
    } else if (type == "tool_use") {
      turn->tools.push_back(ToolUseCall(b));
      last_text_id->clear();
    }
  }
  return true;
}

}  // namespace

bool ParseClaudeTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err) {
  turns->clear();
  std::set<std::string> counted;
  std::string last_text_id;
  return ForEachJsonlRecord(jsonl, [&](const element& record, const std::string&) {
    std::string type = JsonStr(record, "type");
    element message;
    bool has_message = !record["message"].get(message) && message.is_object();
    if (type == "user") {
      bool meta = false;
      if (!record["isMeta"].get(meta) && meta) return true;  // the CLI's own notes
      if (!has_message) return (*err = "a user record without a message object", false);
      return OnUser(message, turns, err);
    }
    Turn* turn = CurrentTurn(turns);
    if (type == "assistant") {
      if (!has_message) return (*err = "an assistant record without a message object", false);
      if (turn->prompt_seen && !OnAssistant(message, turn, &counted, &last_text_id, err)) return false;
      // A text answer the model ended the turn with is the turn's end: the
      // CLI's turn_duration record follows it, sometimes 100 ms or more later.
      turn->finished = turn->prompt_seen && !turn->markdown.empty() && JsonStr(message, "stop_reason") == "end_turn";
    } else if (type == "system" && JsonStr(record, "subtype") == "turn_duration") {
      turn->finished = turn->prompt_seen;
    }
    return true;
  }, err);
}

bool ParseClaudeTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  std::vector<Turn> turns;
  if (!ParseClaudeTurns(jsonl, &turns, err)) return false;
  *turn = LastTurn(std::move(turns));
  return true;
}

std::unique_ptr<TranscriptFormat> NewClaudeTranscript() {
  return std::make_unique<JsonlTranscript>(ParseClaudeTurn, nullptr, ParseClaudeTurns);
}

}  // namespace tuidriver
