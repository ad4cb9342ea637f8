#include "transcript_gemini.h"

#include <simdjson.h>

#include <algorithm>
#include <vector>

#include "transcript_jsonl.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// One Gemini message, as its latest record says.
struct GeminiMessage {
  std::string id;
  std::string type;  // user, gemini, info, ...
  std::string json;  // the record, to read once the file is merged
};

// True for a user message with text: a prompt (not a tool's response).
bool IsPrompt(const element& m) {
  if (JsonStr(m, "type") != "user") return false;
  if (m["content"].is_string()) return true;
  simdjson::dom::array parts;
  if (m["content"].get(parts)) return false;
  for (element p : parts) {
    std::string_view text;
    if (!p["text"].get(text)) return true;
  }
  return false;
}

// A prompt's text: its content string, or its parts' text joined.
std::string PromptText(const element& m) {
  std::string_view text;
  if (!m["content"].get(text)) return std::string(text);
  simdjson::dom::array parts;
  std::string out;
  if (m["content"].get(parts)) return out;
  for (element p : parts) {
    if (!p["text"].get(text)) out += text;
  }
  return out;
}

void OnGeminiReply(const element& m, Turn* turn) {
  simdjson::dom::array calls;
  if (!m["toolCalls"].get(calls)) {
    for (element c : calls) {
      ToolCall t;
      t.name = JsonStr(c, "name");
      element args;
      t.input_json = c["args"].get(args) ? "{}" : simdjson::minify(args);
      std::string_view output;
      simdjson::dom::array result;
      if (!c["result"].get(result) && result.size() > 0 &&
          !result.at(0).value_unsafe()["functionResponse"]["response"]["output"].get(output)) {
        t.output = std::string(output);
      }
      t.ok = JsonStr(c, "status") == "success";
      turn->tools.push_back(std::move(t));
    }
    turn->markdown.clear();
  }
  std::string content = JsonStr(m, "content");
  if (!content.empty()) turn->markdown = content;
  element tokens;
  int64_t n = 0;
  if (!m["tokens"].get(tokens)) {
    if (!tokens["input"].get(n)) turn->input_tokens += n;
    if (!tokens["output"].get(n)) turn->output_tokens += n;
  }
  if (!JsonStr(m, "model").empty()) turn->model = JsonStr(m, "model");
}

// Merged: a message's later records replace its earlier ones.
bool ReadGeminiMessages(const std::string& jsonl, std::vector<GeminiMessage>* messages, std::string* err) {
  return ForEachJsonlRecord(jsonl, [&](const element& record, const std::string& line) {
    std::string id = JsonStr(record, "id");
    if (id.empty()) return true;  // $set, metadata: nothing of the turn's messages
    if (JsonStr(record, "type").empty()) return (*err = "a message without a type", false);
    auto it = std::find_if(messages->begin(), messages->end(), [&](const GeminiMessage& m) { return m.id == id; });
    if (it == messages->end()) messages->push_back({id, JsonStr(record, "type"), line});
    else it->json = line;
    return true;
  }, err);
}

}  // namespace

bool ParseGeminiTurns(const std::string& jsonl, std::vector<Turn>* turns, std::string* err) {
  turns->clear();
  std::vector<GeminiMessage> messages;
  if (!ReadGeminiMessages(jsonl, &messages, err)) return false;
  simdjson::dom::parser reader;
  bool last_is_answer = false;
  for (const GeminiMessage& gm : messages) {
    element m;
    if (reader.parse(gm.json).get(m)) continue;
    Turn* turn = CurrentTurn(turns);
    if (IsPrompt(m)) {
      OpenTurn(turns, PromptText(m));
      last_is_answer = false;
    } else if (gm.type == "gemini" && turn->prompt_seen) {
      OnGeminiReply(m, turn);
      simdjson::dom::array calls;
      last_is_answer = m["toolCalls"].get(calls) && !JsonStr(m, "content").empty();
    } else if (gm.type == "user") {
      last_is_answer = false;  // a tool's response: the model answers next
    }
  }
  // Gemini records no turn end: the screen said done, and the last message
  // is an answer with text and no tool call left to run.
  Turn* last = CurrentTurn(turns);
  last->finished = last->prompt_seen && last_is_answer;
  return true;
}

bool ParseGeminiTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  std::vector<Turn> turns;
  if (!ParseGeminiTurns(jsonl, &turns, err)) return false;
  *turn = LastTurn(std::move(turns));
  return true;
}

namespace {

// {"sessionId": ...}
bool IdentifyGemini(const element& first, std::string* id, std::string* cwd) {
  *id = JsonStr(first, "sessionId");
  cwd->clear();
  return !id->empty();
}

}  // namespace

std::unique_ptr<TranscriptFormat> NewGeminiTranscript() {
  return std::make_unique<JsonlTranscript>(ParseGeminiTurn, IdentifyGemini, ParseGeminiTurns);
}

}  // namespace tuidriver
