#include "transcript.h"

#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <ctime>
#include <random>

#include "glob_files.h"
#include "platform.h"
#include "transcript_format.h"

namespace tuidriver {

namespace {

// [{name, input, output, ok}, …]: a turn's tool calls.
std::string ToolsJson(const std::vector<ToolCall>& calls) {
  std::string tools = "[";
  for (size_t i = 0; i < calls.size(); ++i) {
    const ToolCall& t = calls[i];
    JsonObject o;
    o.Add("name", t.name).AddRaw("input", t.input_json).Add("output", t.output).Add("ok", t.ok);
    if (i) tools += ",";
    tools += o.Finish();
  }
  return tools + "]";
}

}  // namespace

JsonObject TurnJson(const Turn& turn, const std::string& session_id) {
  JsonObject usage;
  usage.Add("input_tokens", turn.input_tokens).Add("output_tokens", turn.output_tokens);
  JsonObject o;
  o.Add("session_id", session_id).AddRaw("tools", ToolsJson(turn.tools)).AddRaw("usage", usage.Finish());
  if (turn.model.empty()) o.AddNull("model");
  else o.Add("model", turn.model);
  return o;
}

JsonObject HistoryJson(const std::vector<Turn>& turns, const std::string& session_id) {
  std::string list = "[";
  for (size_t i = 0; i < turns.size(); ++i) {
    JsonObject o;
    o.Add("prompt", turns[i].prompt).Add("markdown", turns[i].markdown).AddRaw("tools", ToolsJson(turns[i].tools));
    if (i) list += ",";
    list += o.Finish();
  }
  JsonObject o;
  o.Add("session_id", session_id).AddRaw("turns", list + "]");
  return o;
}

TranscriptReader::TranscriptReader(const std::string& format, std::string path, std::string cwd,
                                   std::string session_id)
    : format_(NewTranscriptFormat(format)) {
  session_.path = std::move(path);
  session_.cwd = std::move(cwd);
  session_.session_id = std::move(session_id);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  session_.spawned_ms = static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
  if (session_.session_id.empty() && format_ != nullptr) {
    for (std::string& f : GlobFiles(session_.path)) session_.before_spawn.insert(std::move(f));
  }
}

TranscriptReader::~TranscriptReader() = default;

void TranscriptReader::StartTurn(const std::string& prompt) {
  session_.turn_prompt = prompt;
  if (session_.id_known()) {
    format_->Locate(&session_);
  } else {
    // A session that does not know its id yet finds its file once the turn
    // is written: the one that records this turn's prompt.
    session_.turn_started = true;
    session_.at_turn_start.clear();
    for (const std::string& f : GlobFiles(session_.path)) {
      struct stat st;
      if (StatPath(f, &st)) session_.at_turn_start[f] = FileVersion(st);
    }
    format_->CountPrompts(&session_);
  }
  format_->StartTurn(session_);
}

TranscriptReader::Result TranscriptReader::ReadTurn(Turn* turn, std::string* err) {
  *turn = Turn();
  if (!format_->Locate(&session_)) {
    if (!session_.ambiguous.empty()) {
      *err = session_.ambiguous;
      return Result::kFailed;
    }
    *err = session_.id_known() ? "no transcript matches " + session_.path + " for this session"
                               : "no transcript matching " + session_.path +
                                     " has recorded this session's prompt since the ask began";
    return Result::kNotYet;
  }
  Result got = format_->ReadTurn(session_, turn, err);
  // Read whole while it alone recorded the prompt: the id is this session's.
  if (got == Result::kDone) session_.id_tentative = false;
  return got;
}

bool TranscriptReader::ReadHistory(std::vector<Turn>* turns, std::string* err) {
  turns->clear();
  if (!format_->Locate(&session_)) {
    *err = "no transcript matches " + session_.path + " for this session";
    return false;
  }
  return format_->ReadHistory(session_, turns, err);
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
