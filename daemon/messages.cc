#include "messages.h"

namespace tuidriver {

std::string ReplyOkMessage(const RequestId& id, const JsonObject& fields) {
  JsonObject o;
  o.AddRaw("id", id.json).Add("type", "reply").Add("ok", true).Merge(fields);
  return o.Finish();
}

std::string ReplyErrorMessage(const RequestId& id, const std::string& kind, const std::string& error,
                              const JsonObject& fields) {
  JsonObject o;
  o.AddRaw("id", id.json).Add("type", "reply").Add("ok", false).Add("kind", kind).Add("error", error);
  return o.Merge(fields).Finish();
}

std::string ChunkMessage(const RequestId& id, const std::string& delta) {
  JsonObject o;
  o.AddRaw("id", id.json).Add("type", "chunk").Add("delta", delta);
  return o.Finish();
}

std::string OutputEvent(const std::string& data) {
  JsonObject o;
  o.Add("type", "output").Add("data", data);
  return o.Finish();
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

std::string SessionErrorMessage(const std::string& kind, const std::string& error, const JsonObject& fields) {
  JsonObject o;
  o.Add("type", "error").Add("kind", kind).Add("error", error).Merge(fields);
  return o.Finish();
}

}  // namespace tuidriver
