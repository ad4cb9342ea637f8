#include "json_fields.h"

#include <cmath>
#include <cstdio>

#include "json_type_name.h"

namespace tuidriver {

bool JsonFields::Fail(const std::string& path, const std::string& message) {
  if (!failed_) *err_ = "field '" + path + "': " + message;
  failed_ = true;
  return false;
}

bool JsonFields::Wrong(const std::string& path, const char* want, const Element& e) {
  if (!failed_) *err_ = "field '" + path + "' must be " + want + ", got " + JsonTypeName(e.type());
  failed_ = true;
  return false;
}

bool JsonFields::Missing(const std::string& path) {
  if (!failed_) *err_ = "missing field '" + path + "'";
  failed_ = true;
  return false;
}

bool JsonFields::Range(const std::string& path, double min, double max, double got) {
  char buf[200];
  snprintf(buf, sizeof buf, "' must be between %.15g and %.15g, got %.15g", min, max, got);
  if (!failed_) *err_ = "field '" + path + buf;
  failed_ = true;
  return false;
}

bool JsonFields::Find(const simdjson::dom::object& obj, const char* name, bool required, Element* e) {
  if (obj[name].get(*e) == simdjson::SUCCESS) return true;
  if (required) Missing(name);
  return false;
}

bool JsonFields::Object(const Element& e, const std::string& path, const FieldFn& field) {
  simdjson::dom::object obj;
  if (e.get(obj)) return Wrong(path.empty() ? "(top level)" : path, "an object", e);
  for (auto kv : obj) {
    std::string key(kv.key);
    if (!key.empty() && key[0] == '$') continue;
    std::string sub = Sub(path, key);
    if (!field(key, kv.value, sub)) return Fail(sub, "unknown field");
    if (failed_) return false;
  }
  return true;
}

bool JsonFields::String(const Element& e, const std::string& path, std::string* out) {
  std::string_view s;
  if (e.get(s)) return Wrong(path, "a string", e);
  out->assign(s.data(), s.size());
  return true;
}

bool JsonFields::Int(const Element& e, const std::string& path, int64_t min, int64_t max, int64_t* out) {
  int64_t v;
  if (!e.is_int64() || e.get(v)) return Wrong(path, "an integer", e);
  if (v < min || v > max) return Range(path, static_cast<double>(min), static_cast<double>(max), static_cast<double>(v));
  *out = v;
  return true;
}

bool JsonFields::Int(const Element& e, const std::string& path, int64_t min, int64_t max, int* out) {
  int64_t v = 0;
  if (!Int(e, path, min, max, &v)) return false;
  *out = static_cast<int>(v);
  return true;
}

bool JsonFields::Number(const Element& e, const std::string& path, double min, double max, double* out) {
  double v;
  bool number = e.is_int64() || e.is_uint64() || e.is_double();
  if (!number || e.get(v) || !std::isfinite(v)) return Wrong(path, "a number", e);
  if (v < min || v > max) return Range(path, min, max, v);
  *out = v;
  return true;
}

bool JsonFields::Bool(const Element& e, const std::string& path, bool* out) {
  if (e.get(*out)) return Wrong(path, "true or false", e);
  return true;
}

bool JsonFields::Strings(const Element& e, const std::string& path, std::vector<std::string>* out) {
  simdjson::dom::array arr;
  if (e.get(arr)) return Wrong(path, "an array of strings", e);
  std::vector<std::string> items;
  size_t i = 0;
  for (Element item : arr) {
    items.emplace_back();
    if (!String(item, Item(path, i++), &items.back())) return false;
  }
  *out = std::move(items);
  return true;
}

bool JsonFields::String(const simdjson::dom::object& obj, const char* name, bool required, std::string* out) {
  Element e;
  if (!Find(obj, name, required, &e)) return !required;
  return String(e, name, out);
}

bool JsonFields::Bool(const simdjson::dom::object& obj, const char* name, bool required, bool* out) {
  Element e;
  if (!Find(obj, name, required, &e)) return !required;
  return Bool(e, name, out);
}

bool JsonFields::Int(const simdjson::dom::object& obj, const char* name, bool required, int64_t min,
                     int64_t max, int64_t* out) {
  Element e;
  if (!Find(obj, name, required, &e)) return !required;
  return Int(e, name, min, max, out);
}

bool JsonFields::Number(const simdjson::dom::object& obj, const char* name, bool required, double min,
                        double max, double* out) {
  Element e;
  if (!Find(obj, name, required, &e)) return !required;
  return Number(e, name, min, max, out);
}

bool JsonFields::Strings(const simdjson::dom::object& obj, const char* name, bool required,
                         std::vector<std::string>* out) {
  Element e;
  if (!Find(obj, name, required, &e)) return !required;
  return Strings(e, name, out);
}

}  // namespace tuidriver
