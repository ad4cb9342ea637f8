#include "engine_config.h"

#include <re2/re2.h>
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <set>

#include "cli_version.h"
#include "files.h"
#include "json_fields.h"
#include "keys.h"
#include "platform.h"
#include "text.h"
#include "compile_regex.h"
#include "transcript_format.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;

// The shared strict reader (json_fields.h) with the engine file's own
// shapes: regular expressions, key names, screen patterns.
class Reader : public JsonFields {
 public:
  explicit Reader(std::string* error) : JsonFields(error) {}

  void Regex(const element& e, const std::string& path, std::string* out) {
    String(e, path, out);
    if (failed() || out->empty()) return;
    std::string err;
    if (!CompileRegex(*out, &err)) Fail(path, "invalid regular expression: " + err);
  }

  void Regexes(const element& e, const std::string& path, std::vector<std::string>* out) {
    Strings(e, path, out);
    std::string err;
    for (size_t i = 0; !failed() && i < out->size(); ++i) {
      if (!CompileRegex((*out)[i], &err)) {
        Fail(path + "[" + std::to_string(i) + "]", "invalid regular expression: " + err);
      }
    }
  }

  // Key names (keys.h). A typo such as "Ctrl-C" would otherwise be typed as
  // text when the key is needed, so it fails the load.
  void Keys(const element& e, const std::string& path, std::vector<std::string>* out) {
    Strings(e, path, out);
    for (size_t i = 0; !failed() && i < out->size(); ++i) {
      Key key;
      if (!ParseKeyName((*out)[i], &key)) {
        Fail(path + "[" + std::to_string(i) + "]", "unknown key name '" + (*out)[i] +
             "' (tmux style: Enter, C-c, M-x, S-Tab, Up, PageDown, F5, or one character)");
      }
    }
  }

  // A string or {"pattern": ..., "scope": "cursor_line"|"screen"}.
  void Pattern(const element& e, const std::string& path, ScreenPattern* out) {
    if (e.is_string()) {
      Regex(e, path, &out->pattern);
      return;
    }
    Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
      if (key == "pattern") Regex(v, sub, &out->pattern);
      else if (key == "scope") Scope(v, sub, &out->scope);
      else return false;
      return true;
    });
  }

  void Patterns(const element& e, const std::string& path, MatchScope scope,
                std::vector<ScreenPattern>* out) {
    simdjson::dom::array arr;
    if (e.get(arr)) {
      Wrong(path, "an array of patterns", e);
      return;
    }
    out->clear();
    size_t i = 0;
    for (element item : arr) {
      ScreenPattern p;
      p.scope = scope;
      Pattern(item, path + "[" + std::to_string(i++) + "]", &p);
      if (failed()) return;
      out->push_back(p);
    }
  }

  void Scope(const element& e, const std::string& path, MatchScope* out) {
    std::string s;
    String(e, path, &s);
    if (failed()) return;
    if (s == "cursor_line") *out = MatchScope::kCursorLine;
    else if (s == "screen") *out = MatchScope::kScreen;
    else Fail(path, "expected one of cursor_line, screen; got '" + s + "'");
  }

};

void ReadSubmit(Reader* r, const element& e, const std::string& path, SubmitConfig* s) {
  r->Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
    if (key == "mode") {
      std::string mode;
      r->String(v, sub, &mode);
      if (mode == "lines") s->mode = SubmitMode::kLines;
      else if (mode == "paste") s->mode = SubmitMode::kPaste;
      else if (mode == "type") s->mode = SubmitMode::kType;
      else if (!r->failed()) r->Fail(sub, "expected one of lines, paste, type; got '" + mode + "'");
    } else if (key == "enter") {
      r->Keys(v, sub, &s->enter);
    } else if (key == "enter_delay_ms") {
      r->Int(v, sub, 0, 10000, &s->enter_delay_ms);
    } else if (key == "chunk_size") {
      int64_t n = 0;
      r->Int(v, sub, 0, 1 << 20, &n);
      s->chunk_size = static_cast<size_t>(n);
    } else if (key == "chunk_delay_ms") {
      r->Int(v, sub, 0, 10000, &s->chunk_delay_ms);
    } else if (key == "enter_after_echo") {
      r->Bool(v, sub, &s->enter_after_echo);
    } else if (key == "resubmit_ms") {
      r->Int(v, sub, 0, 60000, &s->resubmit_ms);
    } else if (key == "close_blocks") {
      r->Bool(v, sub, &s->close_blocks);
    } else if (key == "enter_only") {
      r->Bool(v, sub, &s->enter_only);
    } else if (key == "pipe_only") {
      r->Bool(v, sub, &s->pipe_only);
    } else if (key == "wrap") {
      r->String(v, sub, &s->wrap);
      bool json = s->wrap.find("{json}") != std::string::npos, pipe = s->wrap.find("{pipe}") != std::string::npos;
      if (!r->failed() && json == pipe) r->Fail(sub, "must contain one of {json} and {pipe}");
    } else {
      return false;
    }
    return true;
  });
}

void ReadReply(Reader* r, const element& e, const std::string& path, ReplyConfig* c) {
  r->Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
    if (key == "start") r->Regex(v, sub, &c->start);
    else if (key == "continuation_indent") r->String(v, sub, &c->continuation_indent);
    else if (key == "end") r->Regex(v, sub, &c->end);
    else if (key == "tool_output") r->Regex(v, sub, &c->tool_output);
    else if (key == "other_start") r->Regex(v, sub, &c->other_start);
    else if (key == "strip") r->Regex(v, sub, &c->strip);
    else if (key == "unwrap") r->Bool(v, sub, &c->unwrap);
    else if (key == "chrome") {
      r->Regexes(v, sub, &c->chrome);
    } else {
      return false;
    }
    return true;
  });
}

void ReadDialogs(Reader* r, const element& e, const std::string& path, std::vector<DialogRule>* out) {
  simdjson::dom::array arr;
  if (e.get(arr)) {
    r->Fail(path, "expected an array of dialog rules");
    return;
  }
  size_t i = 0;
  for (element item : arr) {
    std::string at = path + "[" + std::to_string(i++) + "]";
    DialogRule d;
    r->Object(item, at, [&](const std::string& key, const element& v, const std::string& sub) {
      if (key == "name") r->String(v, sub, &d.name);
      else if (key == "pattern") r->Regex(v, sub, &d.pattern);
      else if (key == "keys") r->Keys(v, sub, &d.keys);
      else if (key == "modes") r->Strings(v, sub, &d.modes);
      else return false;
      return true;
    });
    if (r->failed()) return;
    if (d.pattern.empty()) r->Fail(at + ".pattern", "required, and must not be empty");
    else if (d.keys.empty()) r->Fail(at + ".keys", "required, and must not be empty");
    for (const std::string& m : d.modes) {
      if (m != "exec" && m != "agent") r->Fail(at + ".modes", "expected exec or agent, got '" + m + "'");
    }
    if (r->failed()) return;
    if (d.name.empty()) d.name = "dialog " + std::to_string(i - 1);
    out->push_back(d);
  }
}

void ReadSlashCommands(Reader* r, const element& e, const std::string& path, std::vector<SlashCommand>* out) {
  simdjson::dom::array arr;
  if (e.get(arr)) {
    r->Fail(path, "expected an array of {name, description}");
    return;
  }
  size_t i = 0;
  for (element item : arr) {
    std::string at = path + "[" + std::to_string(i++) + "]";
    SlashCommand c;
    r->Object(item, at, [&](const std::string& key, const element& v, const std::string& sub) {
      if (key == "name") r->String(v, sub, &c.name);
      else if (key == "description") r->String(v, sub, &c.description);
      else return false;
      return true;
    });
    if (r->failed()) return;
    // The name is what follows the slash: one word, no slash of its own.
    if (c.name.empty() || c.name.find_first_of(" \t\n/") != std::string::npos) {
      r->Fail(at + ".name", "required: the command without its slash, one word (\"status\")");
      return;
    }
    out->push_back(c);
  }
}

void ReadInputOptions(Reader* r, const element& e, const std::string& path, InputOptionsConfig* c) {
  r->Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
    if (key == "option") r->Regex(v, sub, &c->option);
    else if (key == "selected") r->Regex(v, sub, &c->selected);
    else if (key == "question_start") r->Regex(v, sub, &c->question_start);
    else if (key == "incomplete") r->Regex(v, sub, &c->incomplete);
    else if (key == "choices") r->Strings(v, sub, &c->choices);
    else if (key == "next") r->Keys(v, sub, &c->next);
    else if (key == "previous") r->Keys(v, sub, &c->previous);
    else if (key == "confirm") r->Keys(v, sub, &c->confirm);
    else if (key == "select") {
      r->String(v, sub, &c->select);
      if (!r->failed() && c->select != "arrows" && c->select != "digits") {
        r->Fail(sub, "expected one of arrows, digits; got '" + c->select + "'");
      }
    } else {
      return false;
    }
    return true;
  });
  if (r->failed()) return;
  for (size_t i = 0; i < c->choices.size(); ++i) {
    if (Trim(c->choices[i]).empty()) {
      r->Fail(path + ".choices[" + std::to_string(i) + "]", "empty: a choice's label as shown");
      return;
    }
  }
  if (!c->option.empty() && !c->choices.empty()) {
    r->Fail(path, "has both option (numbered choices) and choices (named ones): choose one");
    return;
  }
  if (!c->choices.empty() && c->select != "arrows") {
    r->Fail(path + ".select", "choices without numbers are chosen with arrows");
    return;
  }
  if (c->option.empty()) return;
  std::string err;
  std::unique_ptr<RE2> re = CompileRegex(c->option, &err);  // valid: Regex checked it
  if (re && re->NumberOfCapturingGroups() < 2) {
    r->Fail(path + ".option", "needs two groups: the choice's number and its label");
  }
}

void ReadTranscript(Reader* r, const element& e, const std::string& path, TranscriptConfig* t) {
  r->Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
    if (key == "format") {
      r->String(v, sub, &t->format);
      if (!r->failed() && !NewTranscriptFormat(t->format)) {
        std::string names;
        for (const std::string& n : TranscriptFormatNames()) names += (names.empty() ? "" : ", ") + n;
        r->Fail(sub, "expected one of " + names + "; got '" + t->format + "'");
      }
    } else if (key == "path") r->String(v, sub, &t->path);
    else if (key == "session_args") r->Strings(v, sub, &t->session_args);
    else if (key == "resume_args") r->Strings(v, sub, &t->resume_args);
    else if (key == "wait_ms") r->Int(v, sub, 0, 60000, &t->wait_ms);
    else return false;
    return true;
  });
  if (!r->failed() && (t->format.empty() || t->path.empty())) r->Fail(path, "needs format and path");
}

void ReadTimeouts(Reader* r, const element& e, const std::string& path, Timeouts* t) {
  const int64_t kMax = 24 * 3600 * 1000;
  r->Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
    if (key == "ready_ms") r->Int(v, sub, 1, kMax, &t->ready_ms);
    else if (key == "settle_ms") r->Int(v, sub, 0, 10000, &t->settle_ms);
    else if (key == "reply_settle_ms") r->Int(v, sub, 0, 10000, &t->reply_settle_ms);
    else if (key == "ask_ms") r->Int(v, sub, 1, kMax, &t->ask_ms);
    else if (key == "question_ms") r->Int(v, sub, 0, 60000, &t->question_ms);
    else if (key == "quit_grace_ms") r->Int(v, sub, 0, 60000, &t->quit_grace_ms);
    else if (key == "term_grace_ms") r->Int(v, sub, 0, 60000, &t->term_grace_ms);
    else return false;
    return true;
  });
}

void ReadCli(Reader* r, const element& e, const std::string& path, CliRelease* c) {
  r->Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
    if (key == "npm") r->Strings(v, sub, &c->npm);
    else if (key == "verified") r->Strings(v, sub, &c->verified);
    else return false;
    return true;
  });
  bool numbered = true;
  for (const std::string& v : c->verified) numbered &= !v.empty() && isdigit(static_cast<unsigned char>(v[0]));
  if (!r->failed() && ((c->verified.size() != 0 && c->verified.size() != 2) || !numbered)) {
    r->Fail(path + ".verified", "must be [oldest, newest], each a release number such as 2.1.330");
  } else if (!r->failed() && c->verified.size() == 2 && CompareVersions(c->verified[0], c->verified[1]) > 0) {
    r->Fail(path + ".verified", "the oldest comes first: " + c->verified[0] + " is newer than " + c->verified[1]);
  }
}

void ReadEnv(Reader* r, const element& e, const std::string& path, std::map<std::string, std::string>* env) {
  r->Object(e, path, [&](const std::string& key, const element& v, const std::string& sub) {
    if (key.empty() || key.find('=') != std::string::npos) {
      r->Fail(sub, "not a valid environment variable name");
      return true;
    }
    r->String(v, sub, &(*env)[key]);
    return true;
  });
}

// One top-level field; false if the name is unknown.
bool ReadTopField(Reader* r, const std::string& key, const element& v, const std::string& path,
                  EngineConfig* c) {
  if (key == "description") r->String(v, path, &c->description);
  else if (key == "command") r->Strings(v, path, &c->command);
  else if (key == "agent_args") r->Strings(v, path, &c->agent_args);
  else if (key == "env") ReadEnv(r, v, path, &c->env);
  else if (key == "env_strip") r->Strings(v, path, &c->env_strip);
  else if (key == "start_alone_until") r->String(v, path, &c->start_alone_until);
  else if (key == "cols") r->Int(v, path, 2, 1000, &c->cols);
  else if (key == "rows") r->Int(v, path, 2, 1000, &c->rows);
  else if (key == "prompt") r->Pattern(v, path, &c->prompt);
  else if (key == "continuation_prompt") r->Pattern(v, path, &c->continuation_prompt);
  else if (key == "started") r->Patterns(v, path, MatchScope::kScreen, &c->started);
  else if (key == "busy") r->Patterns(v, path, MatchScope::kScreen, &c->busy);
  else if (key == "busy_osc") r->Int(v, path, 0, 100000, &c->busy_osc);
  else if (key == "busy_osc_pattern") r->Regex(v, path, &c->busy_osc_pattern);
  else if (key == "busy_until_osc") r->Bool(v, path, &c->busy_until_osc);
  else if (key == "ready_after_da1") r->Bool(v, path, &c->ready_after_da1);
  else if (key == "busy_title") r->Regex(v, path, &c->busy_title);
  else if (key == "submit") ReadSubmit(r, v, path, &c->submit);
  else if (key == "interrupt_keys") r->Keys(v, path, &c->interrupt_keys);
  else if (key == "interrupt_armed") r->Pattern(v, path, &c->interrupt_armed);
  else if (key == "quit_keys") r->Keys(v, path, &c->quit_keys);
  else if (key == "clear_input_keys") r->Keys(v, path, &c->clear_input_keys);
  else if (key == "reply") ReadReply(r, v, path, &c->reply);
  else if (key == "dialogs") ReadDialogs(r, v, path, &c->dialogs);
  else if (key == "needs_input") r->Patterns(v, path, MatchScope::kScreen, &c->needs_input);
  else if (key == "echo_osc") r->Int(v, path, 0, 100000, &c->echo_osc);
  else if (key == "exit_osc") r->Int(v, path, 0, 100000, &c->exit_osc);
  else if (key == "prompt_osc") r->Int(v, path, 0, 100000, &c->prompt_osc);
  else if (key == "end_osc") r->Int(v, path, 0, 100000, &c->end_osc);
  else if (key == "needs_input_from_process") r->Bool(v, path, &c->needs_input_from_process);
  else if (key == "needs_input_options") ReadInputOptions(r, v, path, &c->needs_input_options);
  else if (key == "slash_commands") ReadSlashCommands(r, v, path, &c->slash_commands);
  else if (key == "transcript") ReadTranscript(r, v, path, &c->transcript);
  else if (key == "cli") ReadCli(r, v, path, &c->cli);
  else if (key == "timeouts") ReadTimeouts(r, v, path, &c->timeouts);
  else return false;
  return true;
}

std::string BaseName(const std::string& path) {
  size_t slash = LastPathSeparator(path);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0) base.resize(base.size() - 5);
  return base;
}

}  // namespace

bool ParseEngineConfig(const std::string& path, const std::string& json, EngineConfig* config,
                       std::string* err) {
  *config = EngineConfig();
  config->name = BaseName(path);
  config->file = path;
  config->prompt.scope = MatchScope::kCursorLine;
  config->continuation_prompt.scope = MatchScope::kCursorLine;

  simdjson::dom::parser parser;
  element doc;
  simdjson::padded_string padded(json);
  if (auto e = parser.parse(padded).get(doc)) {
    *err = path + ": invalid JSON: " + simdjson::error_message(e);
    return false;
  }
  std::string error;
  Reader reader(&error);
  reader.Object(doc, "", [&](const std::string& key, const element& v, const std::string& sub) {
    return ReadTopField(&reader, key, v, sub, config);
  });
  if (!reader.failed() && config->command.empty()) reader.Fail("command", "required: the program and its arguments");
  if (!reader.failed() && config->prompt.pattern.empty()) reader.Fail("prompt", "required: how to recognise the input prompt");
  if (!reader.failed() && config->busy_osc != 0 && config->busy_osc_pattern.empty()) {
    reader.Fail("busy_osc_pattern", "required when busy_osc is set");
  }
  if (!reader.failed() && config->busy_until_osc && config->busy_osc == 0) {
    reader.Fail("busy_until_osc", "needs busy_osc");
  }
  if (!reader.failed() && config->end_osc != 0 && config->echo_osc == 0) {
    reader.Fail("end_osc", "needs echo_osc (its payload is the echo mark's)");
  }
  if (!reader.failed() && config->submit.enter_only && config->submit.wrap.find("{pipe}") == std::string::npos) {
    reader.Fail("submit.enter_only", "needs a submit.wrap with {pipe}");
  }
  if (!reader.failed() && config->submit.pipe_only && config->submit.wrap.find("{pipe}") == std::string::npos) {
    reader.Fail("submit.pipe_only", "needs a submit.wrap with {pipe}");
  }
  if (!reader.failed() && config->submit.pipe_only && config->submit.enter_only) {
    reader.Fail("submit.pipe_only", "cannot go with submit.enter_only: one says what is typed, the other that nothing is");
  }
  if (!reader.failed() && config->prompt_osc != 0 &&
      (config->prompt.scope != MatchScope::kCursorLine ||
       (!config->continuation_prompt.pattern.empty() && config->continuation_prompt.scope != MatchScope::kCursorLine))) {
    reader.Fail("prompt_osc", "needs prompt and continuation_prompt with scope cursor_line (the mark is on the cursor's row)");
  }
  if (reader.failed()) {
    *err = path + ": " + error;
    return false;
  }
  return true;
}

bool LoadEngineFile(const std::string& path, EngineConfig* config, std::string* err) {
  std::string text;
  if (!ReadWholeFile(path, &text)) {
    *err = path + ": cannot read the engine file";
    return false;
  }
  return ParseEngineConfig(path, text, config, err);
}

namespace {

void ReplaceAll(const std::string& from, const std::string& to, std::string* s) {
  for (size_t p = 0; (p = s->find(from, p)) != std::string::npos; p += to.size()) s->replace(p, from.size(), to);
}

}  // namespace

void ExpandPlaceholders(const std::string& token, EngineConfig* c) {
  size_t slash = LastPathSeparator(c->file);
  std::string dir = slash == std::string::npos ? "." : c->file.substr(0, slash);
  auto expand = [&](std::string* s) {
    ReplaceAll("{token}", token, s);
    ReplaceAll("{engine_dir}", dir, s);
  };
  for (std::string& arg : c->command) expand(&arg);
  for (auto& kv : c->env) expand(&kv.second);
  expand(&c->prompt.pattern);
  expand(&c->continuation_prompt.pattern);
  expand(&c->submit.wrap);
  expand(&c->prompt_mark);
}

std::string NewSessionToken() {
  std::random_device rd;
  char buf[8];
  snprintf(buf, sizeof buf, "%06x", static_cast<unsigned>(rd()) & 0xffffff);
  return buf;
}

std::vector<std::string> ListEngines(const std::string& dir) {
  std::vector<std::string> names;
  std::vector<std::string> files;
  ListDirectory(dir, &files);
  for (const std::string& file : files) {
    if (file.size() <= 5 || file.compare(file.size() - 5, 5, ".json") != 0) continue;
    if (file == "schema.json") continue;
    names.push_back(BaseName(file));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace tuidriver
