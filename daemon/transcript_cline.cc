#include "transcript_cline.h"

#include <simdjson.h>

namespace tuidriver {
namespace {

using simdjson::dom::element;

std::string Text(const element& e, const char* key) {
  std::string_view s;
  if (e[key].get(s)) return "";
  return std::string(s);
}

// A user message whose blocks are text: a prompt (not tool results).
bool IsPrompt(const element& m, simdjson::dom::array blocks) {
  if (Text(m, "role") != "user" || blocks.size() == 0) return false;
  return Text(blocks.at(0).value_unsafe(), "type") == "text";
}

// The messages array, each with a content array of blocks.
bool Messages(const element& doc, simdjson::dom::array* messages, std::string* err) {
  if (doc["messages"].get(*messages)) {
    *err = "no messages array";
    return false;
  }
  for (element m : *messages) {
    simdjson::dom::array blocks;
    if (Text(m, "role").empty() || m["content"].get(blocks)) {
      *err = "a message without a role and a content array";
      return false;
    }
  }
  return true;
}

// run_commands answers with [{query, result, success}] per command; other
// tools with text blocks or a string.
void OnResult(const element& block, ToolCall* t) {
  element content;
  if (block["content"].get(content)) return;
  std::string_view s;
  simdjson::dom::array items;
  if (!content.get(s)) {
    t->output = std::string(s);
  } else if (!content.get(items)) {
    for (element item : items) {
      std::string part = Text(item, "type") == "text" ? Text(item, "text") : Text(item, "result");
      if (!t->output.empty() && !part.empty()) t->output += "\n";
      t->output += part;
      bool success = true;
      if (!item["success"].get(success) && !success) t->ok = false;
    }
  }
  bool is_error = false;
  if (!block["is_error"].get(is_error) && is_error) t->ok = false;
}

void OnAssistant(const element& m, simdjson::dom::array blocks, Turn* turn) {
  element info;
  if (!m["modelInfo"].get(info) && !Text(info, "id").empty()) turn->model = Text(info, "id");
  int64_t n = 0;
  element metrics;
  if (!m["metrics"].get(metrics)) {
    if (!metrics["inputTokens"].get(n)) turn->input_tokens += n;
    if (!metrics["outputTokens"].get(n)) turn->output_tokens += n;
  }
  std::string text;
  bool calls = false;
  for (element b : blocks) {
    std::string type = Text(b, "type");
    if (type == "text") {
      if (!text.empty()) text += "\n\n";
      text += Text(b, "text");
    } else if (type == "tool_use") {
      ToolCall t;
      t.id = Text(b, "id");
      t.name = Text(b, "name");
      element input;
      t.input_json = b["input"].get(input) ? "{}" : simdjson::minify(input);
      turn->tools.push_back(std::move(t));
      calls = true;
    }
  }
  // Text beside a tool call is what the model says before the call runs.
  turn->markdown = calls ? "" : text;
  turn->finished = !calls && !text.empty();
}

}  // namespace

bool IdentifyClineSession(const std::string& messages_path, std::string* session_id, std::string* cwd) {
  const std::string suffix = ".messages.json";
  if (messages_path.size() <= suffix.size() ||
      messages_path.compare(messages_path.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  simdjson::dom::parser parser;
  element record;
  std::string path = messages_path.substr(0, messages_path.size() - suffix.size()) + ".json";
  if (parser.load(path).get(record)) return false;
  *session_id = Text(record, "session_id");
  *cwd = Text(record, "cwd");
  return !session_id->empty();
}

bool ReadClineDocument(const std::string& document, std::string* session_id, size_t* prompts, std::string* err) {
  simdjson::dom::parser parser;
  element doc;
  simdjson::dom::array messages;
  if (parser.parse(document).get(doc)) {
    *err = "not a whole JSON document";
    return false;
  }
  if (!Messages(doc, &messages, err)) return false;
  *session_id = Text(doc, "sessionId");
  *prompts = 0;
  for (element m : messages) {
    simdjson::dom::array blocks;
    if (!m["content"].get(blocks) && IsPrompt(m, blocks)) ++*prompts;
  }
  return true;
}

bool ParseClineTurn(const std::string& document, size_t prompts_before, Turn* turn, std::string* err) {
  simdjson::dom::parser parser;
  element doc;
  simdjson::dom::array messages;
  // Cline writes the file whole: a read that met a write waits for the next.
  if (parser.parse(document).get(doc)) return true;
  if (!Messages(doc, &messages, err)) return false;
  size_t prompts = 0;
  for (element m : messages) {
    simdjson::dom::array blocks = m["content"].get_array().value_unsafe();  // checked by Messages
    if (IsPrompt(m, blocks)) {
      if (++prompts <= prompts_before) continue;
      *turn = Turn();  // this ask's prompt (or a later one's)
      turn->prompt_seen = true;
    } else if (!turn->prompt_seen) {
      continue;
    } else if (Text(m, "role") == "assistant") {
      OnAssistant(m, blocks, turn);
    } else {
      turn->finished = false;  // tool results: the model answers next
      for (element b : blocks) {
        if (Text(b, "type") != "tool_result") continue;
        for (ToolCall& t : turn->tools) {
          if (t.id == Text(b, "tool_use_id")) OnResult(b, &t);
        }
      }
    }
  }
  return true;
}

}  // namespace tuidriver
