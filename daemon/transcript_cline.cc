#include "transcript_cline.h"

#include <simdjson.h>

#include "files.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// A user message whose blocks are text: a prompt (not tool results).
bool IsPrompt(const element& m, simdjson::dom::array blocks) {
  if (JsonStr(m, "role") != "user" || blocks.size() == 0) return false;
  return JsonStr(blocks.at(0).value_unsafe(), "type") == "text";
}

// A prompt as typed: Cline records it as <user_input mode="act">…</user_input>.
std::string Unwrapped(const std::string& text) {
  const std::string open = "<user_input", close = "</user_input>";
  size_t body = text.find('>');
  if (text.compare(0, open.size(), open) != 0 || body == std::string::npos || text.size() < body + 1 + close.size() ||
      text.compare(text.size() - close.size(), close.size(), close) != 0) {
    return text;
  }
  return text.substr(body + 1, text.size() - close.size() - body - 1);
}

// The messages array, each with a content array of blocks.
bool Messages(const element& doc, simdjson::dom::array* messages, std::string* err) {
  if (doc["messages"].get(*messages)) {
    *err = "no messages array";
    return false;
  }
  for (element m : *messages) {
    simdjson::dom::array blocks;
    if (JsonStr(m, "role").empty() || m["content"].get(blocks)) {
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
      std::string part = JsonStr(item, "type") == "text" ? JsonStr(item, "text") : JsonStr(item, "result");
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
  if (!m["modelInfo"].get(info) && !JsonStr(info, "id").empty()) turn->model = JsonStr(info, "id");
  int64_t n = 0;
  element metrics;
  if (!m["metrics"].get(metrics)) {
    if (!metrics["inputTokens"].get(n)) turn->input_tokens += n;
    if (!metrics["outputTokens"].get(n)) turn->output_tokens += n;
  }
  std::string text;
  bool calls = false;
  for (element b : blocks) {
    std::string type = JsonStr(b, "type");
    if (type == "text") {
      if (!text.empty()) text += "\n\n";
      text += JsonStr(b, "text");
    } else if (type == "tool_use") {
      turn->tools.push_back(ToolUseCall(b));
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
  *session_id = JsonStr(record, "session_id");
  *cwd = JsonStr(record, "cwd");
  return !session_id->empty();
}

bool ReadClineDocument(const std::string& document, std::string* session_id, std::vector<std::string>* prompts,
                       std::string* err) {
  simdjson::dom::parser parser;
  element doc;
  simdjson::dom::array messages;
  if (parser.parse(document).get(doc)) {
    *err = "not a whole JSON document";
    return false;
  }
  if (!Messages(doc, &messages, err)) return false;
  *session_id = JsonStr(doc, "sessionId");
  prompts->clear();
  for (element m : messages) {
    simdjson::dom::array blocks;
    if (!m["content"].get(blocks) && IsPrompt(m, blocks)) prompts->push_back(Unwrapped(JsonStr(blocks.at(0).value_unsafe(), "text")));
  }
  return true;
}

bool ParseClineTurn(const std::string& document, size_t prompts_before, Turn* turn, std::string* err) {
  *turn = Turn();
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
    } else if (JsonStr(m, "role") == "assistant") {
      OnAssistant(m, blocks, turn);
    } else {
      turn->finished = false;  // tool results: the model answers next
      for (element b : blocks) {
        if (JsonStr(b, "type") != "tool_result") continue;
        for (ToolCall& t : turn->tools) {
          if (t.id == JsonStr(b, "tool_use_id")) OnResult(b, &t);
        }
      }
    }
  }
  return true;
}

namespace {

class ClineTranscript : public TranscriptFormat {
 public:
  bool Locate(TranscriptSession* session) override;
  void CountPrompts(TranscriptSession* session) override { CountSessionPrompts(session, Prompts); }
  void StartTurn(const TranscriptSession& session) override;
  TranscriptResult ReadTurn(const TranscriptSession& session, Turn* turn, std::string* err) override;

 private:
  static bool Prompts(const std::string& messages_path, std::vector<std::string>* prompts);
  std::string file_;  // found
  size_t prompts_before_ = 0;
};

bool ClineTranscript::Prompts(const std::string& messages_path, std::vector<std::string>* prompts) {
  std::string document, id, err;
  return ReadWholeFile(messages_path, &document) && ReadClineDocument(document, &id, prompts, &err);
}

// A tentative file is looked for again until its turn is read whole, so
// that a second one recording the same prompt shows.
bool ClineTranscript::Locate(TranscriptSession* session) {
  if (!file_.empty() && !session->id_tentative) return true;
  file_.clear();
  if (!LocateSessionFile(session, IdentifyClineSession, Prompts, &file_)) return false;
  if (session->id_tentative) {  // found by this turn's prompt: the turn opens after the ones before it
    auto before = session->prompts_at_turn_start.find(file_);
    prompts_before_ = before == session->prompts_at_turn_start.end() ? 0 : before->second;
  }
  return true;
}

// The turn is the one after the prompts the document holds now (none when
// the session's first prompt has not created it yet).
void ClineTranscript::StartTurn(const TranscriptSession&) {
  prompts_before_ = 0;
  std::vector<std::string> prompts;
  if (!file_.empty() && Prompts(file_, &prompts)) prompts_before_ = prompts.size();
}

TranscriptResult ClineTranscript::ReadTurn(const TranscriptSession&, Turn* turn, std::string* err) {
  std::string document;
  if (!ReadWholeFile(file_, &document)) {
    *err = "no transcript at " + file_;
    return TranscriptResult::kNotYet;
  }
  if (!ParseClineTurn(document, prompts_before_, turn, err)) {
    *err = file_ + ": " + *err;
    return TranscriptResult::kFailed;
  }
  if (turn->finished) return TranscriptResult::kDone;
  *err = turn->prompt_seen ? file_ + ": the turn's last message is not an answer yet"
                           : file_ + ": no prompt recorded after the ask began";
  return TranscriptResult::kNotYet;
}

}  // namespace

std::unique_ptr<TranscriptFormat> NewClineTranscript() { return std::make_unique<ClineTranscript>(); }

}  // namespace tuidriver
