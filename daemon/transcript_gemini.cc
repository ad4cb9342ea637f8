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

// A message's text: its content string, or its parts' text joined (Gemini
// writes a reply's content as a string, and as parts when it rewrites its
// message list).
std::string ContentText(const element& m) {
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

// True for a user message with text that Gemini sends as a prompt: not a
// tool's response, nor the context it adds itself (as its own resume does).
bool IsPrompt(const element& m) {
  if (JsonStr(m, "type") != "user") return false;
  std::string text = ContentText(m);
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return false;
  std::string_view head = std::string_view(text).substr(start);
  return head.rfind("<session_context>", 0) != 0 && head.rfind("<hook_context>", 0) != 0;
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
  std::string content = ContentText(m);
  if (!content.empty()) turn->markdown = content;
  element tokens;
  int64_t n = 0;
  if (!m["tokens"].get(tokens)) {
    if (!tokens["input"].get(n)) turn->input_tokens += n;
    if (!tokens["output"].get(n)) turn->output_tokens += n;
  }
  if (!JsonStr(m, "model").empty()) turn->model = JsonStr(m, "model");
}

// A message record: a later record of the same id replaces the earlier one.
bool KeepMessage(const element& record, std::string json, std::vector<GeminiMessage>* messages, std::string* err) {
  std::string id = JsonStr(record, "id");
  if (JsonStr(record, "type").empty()) return (*err = "a message without a type", false);
  auto it = std::find_if(messages->begin(), messages->end(), [&](const GeminiMessage& m) { return m.id == id; });
  if (it == messages->end()) messages->push_back({id, JsonStr(record, "type"), std::move(json)});
  else it->json = std::move(json);
  return true;
}

// The messages of a Gemini chat file: records merged by id; {"$rewindTo": id}
// drops that message and every later one (all of them when the id is
// unknown, as Gemini does). A {"$set":{"messages":[...]}} is left out: on
// resume Gemini writes its whole history there again, under new ids and in
// the model's own shape (function calls as content parts, no toolCalls, no
// results), which would lose the tool calls its earlier records hold.
bool ReadGeminiMessages(const std::string& jsonl, std::vector<GeminiMessage>* messages, std::string* err) {
  return ForEachJsonlRecord(jsonl, [&](const element& record, const std::string& line) {
    std::string_view rewind;
    if (!record["$rewindTo"].get(rewind)) {
      auto it = std::find_if(messages->begin(), messages->end(), [&](const GeminiMessage& m) { return m.id == rewind; });
      messages->erase(it == messages->end() ? messages->begin() : it, messages->end());
      return true;
    }
    if (JsonStr(record, "id").empty()) return true;  // metadata, $set: nothing of the turn's messages
    return KeepMessage(record, line, messages, err);
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
      OpenTurn(turns, ContentText(m));
      last_is_answer = false;
    } else if (gm.type == "gemini" && turn->prompt_seen) {
      OnGeminiReply(m, turn);
      simdjson::dom::array calls;
      last_is_answer = m["toolCalls"].get(calls) && !ContentText(m).empty();
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

// Gemini names a session's file session-<start>-<first 8 of its id>.jsonl.
// A Gemini starting in the same project deletes the files that hold only a
// header (another session that has not been asked yet); that session then
// writes its messages to a file of the same name without the header.
bool GeminiNamesSession(const std::string& path, const std::string& session_id) {
  std::string tail = "-" + session_id.substr(0, 8) + ".jsonl";
  return session_id.size() >= 8 && path.size() > tail.size() &&
         path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::unique_ptr<TranscriptFormat> NewGeminiTranscript() {
  return std::make_unique<JsonlTranscript>(ParseGeminiTurn, IdentifyGemini, ParseGeminiTurns, GeminiNamesSession);
}

}  // namespace tuidriver
