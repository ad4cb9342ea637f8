// tuidriver: drive one interactive terminal program over NDJSON.
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "engine_config.h"
#include "error_kind.h"
#include "json_writer.h"
#include "messages.h"
#include "options.h"
#include "platform.h"
#include "request.h"
#include "session.h"

namespace {

// Exit code 2 or 3 with one JSON error line on stdout and a plain message
// on stderr.
int Fail(int code, tuidriver::ErrorKind kind, const std::string& message) {
  std::string line = tuidriver::SessionErrorMessage(kind, message) + "\n";
  fwrite(line.data(), 1, line.size(), stdout);
  fflush(stdout);
  fprintf(stderr, "tuidriver: %s\n", message.c_str());
  if (kind == tuidriver::ErrorKind::kUsage) fprintf(stderr, "%s", tuidriver::UsageText());
  return code;
}

int ListEngines() {
  std::string dir = tuidriver::FindEnginesDir();
  printf("engines in %s:\n", dir.c_str());
  for (const std::string& name : tuidriver::ListEngines(dir)) {
    tuidriver::EngineConfig config;
    std::string err;
    if (tuidriver::LoadEngineFile(dir + "/" + name + ".json", &config, &err)) {
      printf("  %-10s %s\n", name.c_str(), config.description.c_str());
    } else {
      printf("  %-10s (invalid: %s)\n", name.c_str(), err.c_str());
    }
  }
  return 0;
}

// One JSON line: each request type and every field it accepts.
int ListFields() {
  tuidriver::JsonObject o;
  for (const std::string& type : tuidriver::KnownRequestTypes()) {
    std::vector<std::string> fields = {"id", "type"};
    for (const std::string& f : tuidriver::KnownRequestFields(type)) fields.push_back(f);
    o.AddStringArray(type.c_str(), fields);
  }
  printf("%s\n", o.Finish().c_str());
  return 0;
}

// Every error kind the daemon sends, one a line (error_kind.h).
int ListErrorKinds() {
  for (const std::string& kind : tuidriver::ErrorKindNames()) printf("%s\n", kind.c_str());
  return 0;
}

bool LoadEngine(const tuidriver::Options& o, tuidriver::EngineConfig* config, std::string* err) {
  std::string path = o.engine_file;
  if (path.empty()) {
    if (o.engine.find('/') != std::string::npos) {
      *err = "engine names contain no '/'; use --engine-file PATH for a file";
      return false;
    }
    std::string dir = tuidriver::FindEnginesDir();
    path = dir + "/" + o.engine + ".json";
    struct stat st;
    if (!tuidriver::StatPath(path, &st)) {
      // The names, as an unknown request type lists the known ones: a typo
      // is seen at a glance.
      std::string known;
      for (const std::string& name : tuidriver::ListEngines(dir)) known += (known.empty() ? "" : ", ") + name;
      if (known.empty()) *err = "unknown engine '" + o.engine + "' (no engines in " + dir + ")";
      else *err = "unknown engine '" + o.engine + "' (known: " + known + "; no " + path + ")";
      return false;
    }
  }
  return tuidriver::LoadEngineFile(path, config, err);
}

std::string ChildHome(const tuidriver::EngineConfig& engine) {
  auto it = engine.env.find("HOME");
  if (it != engine.env.end()) return it->second;
  return tuidriver::DefaultHome();
}

// The session id (new, or --resume's), its arguments on the command line,
// and the transcript file the CLI will write for it.
void AddTranscript(const tuidriver::Options& o, tuidriver::SessionOptions* s) {
  const tuidriver::TranscriptConfig& t = s->engine.transcript;
  // A CLI that takes no id for a new session (Codex) names its file itself.
  if (!o.resume.empty()) s->session_id = o.resume;
  else if (!t.session_args.empty()) s->session_id = tuidriver::NewSessionId();
  for (std::string arg : o.resume.empty() ? t.session_args : t.resume_args) {
    for (size_t p; (p = arg.find("{session_id}")) != std::string::npos;) arg.replace(p, 12, s->session_id);
    s->engine.command.push_back(arg);
  }
  std::string cwd = o.cwd.empty() ? "." : o.cwd;
  std::string real = tuidriver::RealPath(cwd);  // "." is the current directory
  if (!real.empty()) cwd = real;
  s->transcript_cwd = cwd;
  s->transcript_path = tuidriver::TranscriptPath(t.path, ChildHome(s->engine), cwd, s->session_id);
}

}  // namespace

int main(int argc, char** argv) {
  int helper_code = tuidriver::StartPlatform(argc, argv);
  if (helper_code >= 0) return helper_code;
  // UTF-8 arguments (on Windows not main's argv: platform.h says why).
  std::vector<std::string> args = tuidriver::ProgramArguments(argc, argv);
  std::vector<char*> arg_ptrs;
  for (std::string& a : args) arg_ptrs.push_back(&a[0]);
  arg_ptrs.push_back(nullptr);
  tuidriver::Options o;
  std::string err;
  if (!tuidriver::ParseOptions(static_cast<int>(args.size()), arg_ptrs.data(), &o, &err)) return Fail(2, tuidriver::ErrorKind::kUsage, err);
  switch (o.action) {
    case tuidriver::Options::Action::kHelp:
      printf("%s", tuidriver::UsageText());
      return 0;
    case tuidriver::Options::Action::kVersion:
      printf("tuidriver %s\n", TUIDRIVER_VERSION);
      return 0;
    case tuidriver::Options::Action::kListEngines:
      return ListEngines();
    case tuidriver::Options::Action::kListFields:
      return ListFields();
    case tuidriver::Options::Action::kListErrorKinds:
      return ListErrorKinds();
    case tuidriver::Options::Action::kRun:
      break;
  }
  tuidriver::SessionOptions session;
  session.raw = o.command.size() > 0;
  if (session.raw) {
    session.engine.name = "raw";
    session.engine.command = o.command;
  } else if (!LoadEngine(o, &session.engine, &err)) {
    return Fail(2, tuidriver::ErrorKind::kEngine, err);
  }
  if (!o.engine.empty() && !o.engine_file.empty()) session.engine.name = o.engine;
  if (!session.raw) tuidriver::ExpandPlaceholders(tuidriver::NewSessionToken(), &session.engine);
  // The caller's variables, as given: over the engine's, never stripped.
  for (const auto& kv : o.env) session.engine.env[kv.first] = kv.second;
  if (!o.resume.empty() && session.engine.transcript.resume_args.empty()) {
    return Fail(2, tuidriver::ErrorKind::kUsage, "--resume needs an engine that declares transcript.resume_args (" +
                                session.engine.name + " does not)");
  }
  if (!session.engine.transcript.format.empty()) AddTranscript(o, &session);
  std::vector<std::string>& argv_out = session.engine.command;
  if (o.mode == "agent") {
    argv_out.insert(argv_out.end(), session.engine.agent_args.begin(), session.engine.agent_args.end());
  }
  argv_out.insert(argv_out.end(), o.extra_args.begin(), o.extra_args.end());
  if (o.cols) session.engine.cols = o.cols;
  if (o.rows) session.engine.rows = o.rows;
  session.mode = o.mode;
  session.cwd = o.cwd;
  session.scrollback_lines = static_cast<size_t>(o.scrollback);
  session.record_path = o.record;
  session.start_alone_until =
      tuidriver::TranscriptPath(session.engine.start_alone_until, ChildHome(session.engine), "", "");
  tuidriver::Session s(std::move(session), STDIN_FILENO, STDOUT_FILENO);
  return s.Run();
}
