#include "transcript.h"

#include <simdjson.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace tuidriver {
namespace {

using simdjson::dom::element;

std::string Str(const element& e, const char* key) {
  std::string_view s;
  if (e[key].get(s)) return "";
  return std::string(s);
}

// A tool result's content: a string, or text blocks.
std::string ResultText(const element& content) {
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

// A user record: the prompt that opens a turn, or the results of tool calls.
bool OnUser(const element& message, Turn* turn, std::string* err) {
  element content;
  if (message["content"].get(content)) {
    *err = "a user record without message.content";
    return false;
  }
  simdjson::dom::array blocks;
  if (content.is_string() || (!content.get(blocks) && blocks.size() > 0 &&
                              Str(blocks.at(0).value_unsafe(), "type") == "text")) {
    *turn = Turn();  // a prompt: this ask's turn starts here
    turn->prompt_seen = true;
    return true;
  }
  if (content.get(blocks)) {
    *err = "a user record whose message.content is neither text nor blocks";
    return false;
  }
  for (element b : blocks) {
    if (Str(b, "type") != "tool_result") continue;
    std::string id = Str(b, "tool_use_id");
    for (ToolCall& t : turn->tools) {
      if (t.id != id) continue;
      element c;
      if (!b["content"].get(c)) t.output = ResultText(c);
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
  std::string id = Str(message, "id");
  if (!Str(message, "model").empty()) turn->model = Str(message, "model");
  element usage;
  if (!message["usage"].get(usage) && counted->insert(id).second) {
    int64_t n = 0;
    if (!usage["input_tokens"].get(n)) turn->input_tokens += n;
    if (!usage["output_tokens"].get(n)) turn->output_tokens += n;
  }
  for (element b : blocks) {
    std::string type = Str(b, "type");
    if (type == "text") {
      // Text after a tool call, or from a newer message, starts the answer anew.
      if (*last_text_id != id) turn->markdown.clear();
      else if (!turn->markdown.empty()) turn->markdown += "\n\n";
      turn->markdown += Str(b, "text");
      *last_text_id = id;
    } else if (type == "tool_use") {
      ToolCall t;
      t.id = Str(b, "id");
      t.name = Str(b, "name");
      element input;
      t.input_json = b["input"].get(input) ? "{}" : simdjson::minify(input);
      turn->tools.push_back(std::move(t));
      last_text_id->clear();
    }
  }
  return true;
}

}  // namespace

bool ParseClaudeTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  simdjson::dom::parser parser;
  std::set<std::string> counted;
  std::string last_text_id;
  std::istringstream in(jsonl);
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    element record;
    if (parser.parse(line).get(record)) {
      if (in.peek() == EOF && jsonl.back() != '\n') return true;  // still being written
      *err = "line " + std::to_string(number) + " of the turn is not JSON";
      return false;
    }
    std::string type = Str(record, "type");
    element message;
    bool has_message = !record["message"].get(message) && message.is_object();
    bool ok = true;
    if (type == "user") {
      bool meta = false;
      if (!record["isMeta"].get(meta) && meta) continue;  // the CLI's own notes
      if (!has_message) ok = (*err = "a user record without a message object", false);
      else ok = OnUser(message, turn, err);
    } else if (type == "assistant") {
      if (!has_message) ok = (*err = "an assistant record without a message object", false);
      else if (turn->prompt_seen) ok = OnAssistant(message, turn, &counted, &last_text_id, err);
    } else if (type == "system" && Str(record, "subtype") == "turn_duration") {
      turn->finished = turn->prompt_seen;
    }
    if (!ok) {
      *err += " (line " + std::to_string(number) + " of the turn)";
      return false;
    }
  }
  return true;
}

JsonObject TurnJson(const Turn& turn, const std::string& session_id) {
  std::string tools = "[";
  for (size_t i = 0; i < turn.tools.size(); ++i) {
    const ToolCall& t = turn.tools[i];
    JsonObject o;
    o.Add("name", t.name).AddRaw("input", t.input_json).Add("output", t.output).Add("ok", t.ok);
    if (i) tools += ",";
    tools += o.Finish();
  }
  JsonObject usage;
  usage.Add("input_tokens", turn.input_tokens).Add("output_tokens", turn.output_tokens);
  JsonObject o;
  o.Add("session_id", session_id).AddRaw("tools", tools + "]").AddRaw("usage", usage.Finish());
  if (turn.model.empty()) o.AddNull("model");
  else o.Add("model", turn.model);
  return o;
}

void TranscriptReader::StartTurn() {
  struct stat st;
  offset_ = stat(path_.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

TranscriptReader::Result TranscriptReader::ReadTurn(Turn* turn, std::string* err) const {
  std::ifstream in(path_, std::ios::binary);
  if (!in) {
    *err = "no transcript at " + path_;
    return Result::kNotYet;
  }
  in.seekg(static_cast<std::streamoff>(offset_));
  std::stringstream text;
  text << in.rdbuf();
  *turn = Turn();
  if (!ParseClaudeTurn(text.str(), turn, err)) {
    *err = path_ + ": " + *err;
    return Result::kFailed;
  }
  if (turn->finished) return Result::kDone;
  *err = turn->prompt_seen ? path_ + ": the turn's end is not recorded"
                           : path_ + ": no prompt recorded after the ask began";
  return Result::kNotYet;
}

std::string TranscriptPath(const std::string& pattern, const std::string& home, const std::string& cwd,
                           const std::string& session_id) {
  std::string slug = cwd;
  for (char& c : slug) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '-';
  }
  std::string out = pattern;
  auto fill = [&out](const std::string& key, const std::string& value) {
    for (size_t p; (p = out.find(key)) != std::string::npos;) out.replace(p, key.size(), value);
  };
  fill("{home}", home);
  fill("{cwd_slug}", slug);
  fill("{session_id}", session_id);
  return out;
}

std::string NewSessionId() {
  std::random_device rd;
  unsigned char b[16];
  for (unsigned char& c : b) c = static_cast<unsigned char>(rd());
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // variant 1
  char out[37];
  snprintf(out, sizeof out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
           b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return out;
}

}  // namespace tuidriver
