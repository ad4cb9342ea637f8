#include "messages.h"

#include <cstdio>

#include "base64.h"

namespace tuidriver {

std::string ReplyOkMessage(const RequestId& id, const JsonObject& fields) {
  JsonObject o;
  o.AddRaw("id", id.json).Add("type", "reply").Add("ok", true).Merge(fields);
  return o.Finish();
}

std::string ReplyErrorMessage(const RequestId& id, ErrorKind kind, const std::string& error,
                              const JsonObject& fields) {
  JsonObject o;
  o.AddRaw("id", id.json).Add("type", "reply").Add("ok", false).Add("kind", ErrorKindName(kind)).Add("error", error);
  return o.Merge(fields).Finish();
}

namespace {

// A colour as the protocol writes it: a palette index, or "#rrggbb".
void AddColour(JsonObject* o, const char* key, uint32_t colour) {
  if (colour == 0) return;
  if ((colour & 0xff000000u) == kPaletteColour) {
    o->Add(key, static_cast<int>(colour & 0xff));
    return;
  }
  char hex[8];
  snprintf(hex, sizeof hex, "#%06x", colour & 0xffffffu);
  o->Add(key, hex);
}

}  // namespace

void AddScreenStyles(const Terminal& term, JsonObject* screen) {
  static const struct {
    uint16_t bit;
    const char* name;
  } kAttrs[] = {{kBold, "bold"},   {kDim, "dim"},         {kItalic, "italic"},       {kUnderline, "underline"},
                {kBlink, "blink"}, {kReverse, "reverse"}, {kInvisible, "invisible"}, {kStrike, "strike"}};
  std::string rows = "[";
  for (int r = 0; r < term.rows(); ++r) {
    rows += r == 0 ? "[" : ",[";
    bool first = true;
    for (const StyleRun& run : term.RowStyles(r)) {
      JsonObject o;
      o.Add("col", run.col).Add("len", run.len);
      AddColour(&o, "fg", run.fg);
      AddColour(&o, "bg", run.bg);
      for (const auto& a : kAttrs) {
        if (run.attrs & a.bit) o.Add(a.name, true);
      }
      rows += (first ? "" : ",") + o.Finish();
      first = false;
    }
    rows += "]";
  }
  screen->AddRaw("styles", rows + "]");
}

std::string ChunkMessage(const RequestId& id, const std::string& delta) {
  JsonObject o;
  o.AddRaw("id", id.json).Add("type", "chunk").Add("delta", delta);
  return o.Finish();
}

// Written in place, not with JsonObject (whose Finish copies the text): an
// event carries up to 64 KiB of output. Room for the escapes is reserved up
// front (an ESC takes six bytes), so the string rarely grows while written.
std::string OutputEvent(std::string_view data) {
  std::string line = R"({"type":"output","data":)";
  line.reserve(line.size() + data.size() + data.size() / 2 + 3);
  AppendJsonString(data, &line);
  line += '}';
  return line;
}

std::string OutputBase64Event(std::string_view bytes) {
  std::string line = R"({"type":"output","data_base64":")";
  line.reserve(line.size() + (bytes.size() + 2) / 3 * 4 + 2);
  AppendBase64(bytes, &line);
  line += "\"}";
  return line;
}

std::string ExitEvent(const JsonObject& exit_fields) {
  JsonObject o;
  o.Add("type", "exit").Merge(exit_fields);
  return o.Finish();
}

std::string DialogEvent(const std::string& name, const std::vector<std::string>& keys) {
  JsonObject o;
  o.Add("type", "dialog").Add("name", name).AddStringArray("keys", keys);
  return o.Finish();
}

std::string SessionErrorMessage(ErrorKind kind, const std::string& error, const JsonObject& fields) {
  JsonObject o;
  o.Add("type", "error").Add("kind", ErrorKindName(kind)).Add("error", error).Merge(fields);
  return o.Finish();
}

std::string ReadyEvent(const std::string& engine, int64_t pid, int cols, int rows, const std::string& session_id,
                       const std::string& cli_version) {
  JsonObject o;
  o.Add("type", "ready");
  if (engine.empty()) o.AddNull("engine");
  else o.Add("engine", engine);
  o.Add("pid", pid).Add("cols", cols).Add("rows", rows);
  if (!session_id.empty()) o.Add("session_id", session_id);
  if (!cli_version.empty()) o.Add("cli_version", cli_version);
  return o.Finish();
}

std::string OutputDroppedEvent(int64_t bytes, int64_t events) {
  JsonObject o;
  o.Add("type", "output_dropped")
      .Add("bytes", bytes)
      .Add("events", events)
      .Add("reason", "the client was not reading stdout");
  return o.Finish();
}

std::string ProgramStateEvent(const std::string& state, const std::string& question) {
  JsonObject o;
  o.Add("type", "program_state").Add("state", state);
  AddQuestion(&o, state, question);
  return o.Finish();
}

void AddQuestion(JsonObject* o, const std::string& state, const std::string& question) {
  if (state == "needs_input") o->Add("question", question);
  else o->AddNull("question");
}

std::string NeedsInputEvent(const RequestId& id, const InputQuestion& q) {
  std::string options = "[";
  for (size_t i = 0; i < q.options.size(); ++i) {
    JsonObject o;
    o.Add("index", q.options[i].index).Add("label", q.options[i].label);
    options += (i ? "," : "") + o.Finish();
  }
  options += "]";
  JsonObject o;
  o.AddRaw("id", id.json).Add("type", "needs_input").Add("question", q.question).AddRaw("options", options);
  return o.Finish();
}

}  // namespace tuidriver
