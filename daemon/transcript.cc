#include "transcript.h"

#include <glob.h>
#include <simdjson.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "transcript_pi.h"
#include "transcript_qwen.h"

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
      // A text answer the model ended the turn with is the turn's end: the
      // CLI's turn_duration record follows it, sometimes 100 ms or more later.
      turn->finished = turn->prompt_seen && !turn->markdown.empty() && Str(message, "stop_reason") == "end_turn";
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

namespace {

// A Codex response_item: the assistant's messages, tool calls and outputs.
bool OnCodexItem(const element& item, Turn* turn, std::string* last_text_id, std::string* err) {
  std::string type = Str(item, "type");
  if (type == "message" && Str(item, "role") == "assistant") {
    simdjson::dom::array blocks;
    if (item["content"].get(blocks)) {
      *err = "an assistant message without a content array";
      return false;
    }
    std::string id = Str(item, "id");
    if (*last_text_id != id) turn->markdown.clear();
    for (element b : blocks) {
      if (Str(b, "type") == "output_text") turn->markdown += Str(b, "text");
    }
    *last_text_id = id;
  } else if (type == "function_call" || type == "custom_tool_call" || type == "local_shell_call") {
    ToolCall t;
    t.id = Str(item, "call_id");
    t.name = Str(item, "name");
    std::string args = Str(item, "arguments");
    simdjson::dom::parser p;
    element parsed;
    if (!args.empty() && !p.parse(args).get(parsed)) t.input_json = simdjson::minify(parsed);
    else if (!args.empty()) AppendJsonString(args, &t.input_json);
    else t.input_json = "{}";
    turn->tools.push_back(std::move(t));
    last_text_id->clear();
  } else if (type == "function_call_output" || type == "custom_tool_call_output") {
    std::string id = Str(item, "call_id");
    for (ToolCall& t : turn->tools) {
      if (t.id == id) t.output = Str(item, "output");
    }
  }
  return true;
}

// A Codex event_msg: the turn's start and end, and token counts.
void OnCodexEvent(const element& event, Turn* turn) {
  std::string type = Str(event, "type");
  if (type == "task_started") {
    *turn = Turn();
    turn->prompt_seen = true;
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

bool ParseCodexTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  simdjson::dom::parser parser;
  std::string last_text_id;
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
    std::string type = Str(record, "type");
    if (type != "response_item" && type != "event_msg" && type != "turn_context") continue;
    element payload;
    if (record["payload"].get(payload) || !payload.is_object()) {
      *err = "a " + type + " record without a payload object (line " + std::to_string(number) + " of the turn)";
      return false;
    }
    if (type == "event_msg") OnCodexEvent(payload, turn);
    else if (type == "turn_context" && !Str(payload, "model").empty()) turn->model = Str(payload, "model");
    else if (turn->prompt_seen && !OnCodexItem(payload, turn, &last_text_id, err)) {
      *err += " (line " + std::to_string(number) + " of the turn)";
      return false;
    }
  }
  return true;
}

namespace {

// One Gemini message, as its latest record says.
struct GeminiMessage {
  std::string id;
  std::string type;  // user, gemini, info, ...
  std::string json;  // the record, to read once the file is merged
};

// True for a user message with text: a prompt (not a tool's response).
bool IsPrompt(const element& m) {
  if (Str(m, "type") != "user") return false;
  if (m["content"].is_string()) return true;
  simdjson::dom::array parts;
  if (m["content"].get(parts)) return false;
  for (element p : parts) {
    std::string_view text;
    if (!p["text"].get(text)) return true;
  }
  return false;
}

void OnGeminiReply(const element& m, Turn* turn) {
  simdjson::dom::array calls;
  if (!m["toolCalls"].get(calls)) {
    for (element c : calls) {
      ToolCall t;
      t.name = Str(c, "name");
      element args;
      t.input_json = c["args"].get(args) ? "{}" : simdjson::minify(args);
      std::string_view output;
      simdjson::dom::array result;
      if (!c["result"].get(result) && result.size() > 0 &&
          !result.at(0).value_unsafe()["functionResponse"]["response"]["output"].get(output)) {
        t.output = std::string(output);
      }
      t.ok = Str(c, "status") == "success";
      turn->tools.push_back(std::move(t));
    }
    turn->markdown.clear();
  }
  std::string content = Str(m, "content");
  if (!content.empty()) turn->markdown = content;
  element tokens;
  int64_t n = 0;
  if (!m["tokens"].get(tokens)) {
    if (!tokens["input"].get(n)) turn->input_tokens += n;
    if (!tokens["output"].get(n)) turn->output_tokens += n;
  }
  if (!Str(m, "model").empty()) turn->model = Str(m, "model");
}

}  // namespace

bool ParseGeminiTurn(const std::string& jsonl, Turn* turn, std::string* err) {
  // Merge first: a message's later records replace its earlier ones.
  std::vector<GeminiMessage> messages;
  simdjson::dom::parser parser;
  std::istringstream in(jsonl);
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    element record;
    if (line.empty()) continue;
    if (parser.parse(line).get(record)) {
      if (in.peek() == EOF && jsonl.back() != '\n') break;  // still being written
      *err = "line " + std::to_string(number) + " of the turn is not JSON";
      return false;
    }
    std::string id = Str(record, "id");
    if (id.empty()) continue;  // $set, metadata: nothing of the turn's messages
    if (Str(record, "type").empty()) {
      *err = "a message without a type (line " + std::to_string(number) + " of the turn)";
      return false;
    }
    auto it = std::find_if(messages.begin(), messages.end(), [&](const GeminiMessage& m) { return m.id == id; });
    if (it == messages.end()) messages.push_back({id, Str(record, "type"), line});
    else it->json = line;
  }
  simdjson::dom::parser reader;
  bool last_is_answer = false;
  for (const GeminiMessage& gm : messages) {
    element m;
    if (reader.parse(gm.json).get(m)) continue;
    if (IsPrompt(m)) {
      *turn = Turn();
      turn->prompt_seen = true;
      last_is_answer = false;
    } else if (gm.type == "gemini" && turn->prompt_seen) {
      OnGeminiReply(m, turn);
      simdjson::dom::array calls;
      last_is_answer = m["toolCalls"].get(calls) && !Str(m, "content").empty();
    } else if (gm.type == "user") {
      last_is_answer = false;  // a tool's response: the model answers next
    }
  }
  // Gemini records no turn end: the screen said done, and the last message
  // is an answer with text and no tool call left to run.
  turn->finished = turn->prompt_seen && last_is_answer;
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

TranscriptReader::TranscriptReader(std::string format, std::string path, std::string cwd, std::string session_id)
    : format_(std::move(format)), pattern_(std::move(path)), cwd_(std::move(cwd)),
      session_id_(std::move(session_id)), spawned_(static_cast<int64_t>(time(nullptr))) {}

// The file: the pattern itself, or the glob match whose first record (a
// Codex session_meta) names this session.
bool TranscriptReader::Locate() {
  if (!file_.empty()) return true;
  if (pattern_.find('*') == std::string::npos) {
    file_ = pattern_;
    return true;
  }
  glob_t g;
  if (glob(pattern_.c_str(), 0, nullptr, &g) != 0) return false;
  int64_t best = INT64_MAX;
  simdjson::dom::parser parser;
  for (size_t i = 0; i < g.gl_pathc; ++i) {
    struct stat st;
    std::ifstream in(g.gl_pathv[i]);
    std::string first;
    element meta;
    if (stat(g.gl_pathv[i], &st) != 0 || !std::getline(in, first) || parser.parse(first).get(meta)) continue;
    // Codex: {"type":"session_meta","payload":{"id","cwd"}}; Gemini: {"sessionId"};
    // pi: {"type":"session","id","cwd"}.
    element payload;
    bool codex = !meta["payload"].get(payload);
    std::string id = codex ? Str(payload, "id") : Str(meta, "sessionId");
    std::string cwd = codex ? Str(payload, "cwd") : cwd_;
    if (format_ == "pi" && !PiSessionOf(first, &id, &cwd)) continue;
    bool ours = session_id_.empty() ? cwd == cwd_ && st.st_mtime >= spawned_ - 1 : id == session_id_;
    // A new session's file is the first one started after the spawn.
    if (ours && static_cast<int64_t>(st.st_ctime) < best) {
      best = static_cast<int64_t>(st.st_ctime);
      file_ = g.gl_pathv[i];
      if (session_id_.empty()) session_id_ = id;
    }
  }
  globfree(&g);
  return !file_.empty();
}

void TranscriptReader::StartTurn() {
  struct stat st;
  offset_ = Locate() && stat(file_.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

TranscriptReader::Result TranscriptReader::ReadTurn(Turn* turn, std::string* err) {
  if (!Locate()) {
    *err = "no transcript matches " + pattern_ + " for this session";
    return Result::kNotYet;
  }
  std::ifstream in(file_, std::ios::binary);
  if (!in) {
    *err = "no transcript at " + file_;
    return Result::kNotYet;
  }
  in.seekg(static_cast<std::streamoff>(offset_));
  std::stringstream text;
  text << in.rdbuf();
  *turn = Turn();
  bool parsed = format_ == "codex"    ? ParseCodexTurn(text.str(), turn, err)
                : format_ == "gemini" ? ParseGeminiTurn(text.str(), turn, err)
                : format_ == "pi"     ? ParsePiTurn(text.str(), turn, err)
                : format_ == "qwen"   ? ParseQwenTurn(text.str(), turn, err)
                                      : ParseClaudeTurn(text.str(), turn, err);
  if (!parsed) {
    *err = file_ + ": " + *err;
    return Result::kFailed;
  }
  if (turn->finished) return Result::kDone;
  *err = turn->prompt_seen ? file_ + ": the turn's end is not recorded"
                           : file_ + ": no prompt recorded after the ask began";
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
