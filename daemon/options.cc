#include "options.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>

#include "platform.h"

namespace tuidriver {
namespace {

bool ParseInt(const std::string& name, const std::string& text, long min, long max,
              long* out, std::string* err) {
  char* end = nullptr;
  long v = strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < min || v > max) {
    *err = name + " needs a whole number from " + std::to_string(min) + " to " +
           std::to_string(max) + ", got '" + text + "'";
    return false;
  }
  *out = v;
  return true;
}

bool IsDir(const std::string& path) {
  struct stat st;
  return StatPath(path, &st) && S_ISDIR(st.st_mode);
}

// Splits "--name=value" or takes the value from the next argument.
bool TakeValue(const std::string& arg, const std::string& name, int argc, char** argv,
               int* i, std::string* value, std::string* err) {
  if (arg.size() > name.size() && arg[name.size()] == '=') {
    *value = arg.substr(name.size() + 1);
    return true;
  }
  if (*i + 1 >= argc) {
    *err = name + " needs a value";
    return false;
  }
  *value = argv[++*i];
  return true;
}

bool Matches(const std::string& arg, const std::string& name) {
  return arg == name || (arg.compare(0, name.size() + 1, name + "=") == 0);
}

bool ParseOne(const std::string& arg, int argc, char** argv, int* i, Options* o,
              std::string* err) {
  std::string v;
  long n;
  if (arg == "-h" || arg == "--help") o->action = Options::Action::kHelp;
  else if (arg == "--version") o->action = Options::Action::kVersion;
  else if (arg == "--list-engines") o->action = Options::Action::kListEngines;
  else if (arg == "--list-fields") o->action = Options::Action::kListFields;
  else if (arg == "--list-error-kinds") o->action = Options::Action::kListErrorKinds;
  else if (Matches(arg, "--cols")) {
    if (!TakeValue(arg, "--cols", argc, argv, i, &v, err) || !ParseInt("--cols", v, 2, 1000, &n, err)) return false;
    o->cols = static_cast<int>(n);
  } else if (Matches(arg, "--rows")) {
    if (!TakeValue(arg, "--rows", argc, argv, i, &v, err) || !ParseInt("--rows", v, 2, 1000, &n, err)) return false;
    o->rows = static_cast<int>(n);
  } else if (Matches(arg, "--scrollback")) {
    if (!TakeValue(arg, "--scrollback", argc, argv, i, &v, err) ||
        !ParseInt("--scrollback", v, 0, 10000000, &o->scrollback, err)) return false;
  } else if (Matches(arg, "--mode")) {
    if (!TakeValue(arg, "--mode", argc, argv, i, &o->mode, err)) return false;
    if (o->mode != "exec" && o->mode != "agent") {
      *err = "--mode must be exec or agent, got '" + o->mode + "'";
      return false;
    }
  } else if (Matches(arg, "--extra-arg")) {
    if (!TakeValue(arg, "--extra-arg", argc, argv, i, &v, err)) return false;
    o->extra_args.push_back(v);
  } else if (Matches(arg, "--env")) {
    if (!TakeValue(arg, "--env", argc, argv, i, &v, err)) return false;
    size_t eq = v.find('=');
    if (eq == std::string::npos || eq == 0) {
      *err = "--env needs NAME=VALUE, got '" + v + "'";
      return false;
    }
    o->env.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  } else if (Matches(arg, "--resume")) {
    if (!TakeValue(arg, "--resume", argc, argv, i, &o->resume, err)) return false;
  } else if (Matches(arg, "--record")) {
    if (!TakeValue(arg, "--record", argc, argv, i, &o->record, err)) return false;
  } else if (Matches(arg, "--cwd")) {
    if (!TakeValue(arg, "--cwd", argc, argv, i, &o->cwd, err)) return false;
  } else if (Matches(arg, "--engine-file")) {
    if (!TakeValue(arg, "--engine-file", argc, argv, i, &o->engine_file, err)) return false;
  } else if (arg.size() > 1 && arg[0] == '-') {
    *err = "unknown option '" + arg + "'";
    return false;
  } else if (o->engine.empty()) {
    o->engine = arg;
  } else {
    *err = "unexpected argument '" + arg + "' (one engine name; a raw command goes after --)";
    return false;
  }
  return true;
}

}  // namespace

bool ParseOptions(int argc, char** argv, Options* o, std::string* err) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      for (++i; i < argc; ++i) o->command.push_back(argv[i]);
      break;
    }
    if (!ParseOne(arg, argc, argv, &i, o, err)) return false;
  }
  if (o->action != Options::Action::kRun) return true;
  bool has_engine = !o->engine.empty() || !o->engine_file.empty();
  if (has_engine && !o->command.empty()) {
    *err = "give either an engine or a command after --, not both";
    return false;
  }
  if (!has_engine && o->command.empty()) {
    *err = "no engine and no command (try: tuidriver python, or tuidriver -- bash)";
    return false;
  }
  return true;
}

const char* UsageText() {
  return "usage: tuidriver ENGINE [options]\n"
         "       tuidriver [--cols N] [--rows N] -- COMMAND [ARGS...]\n"
         "       tuidriver --list-engines | --list-fields | --list-error-kinds | --version | --help\n"
         "\n"
         "Drives one interactive program through a pseudo-terminal and speaks\n"
         "newline-delimited JSON on stdin/stdout (see docs/protocol.md).\n"
         "\n"
         "options:\n"
         "  --cols N, --rows N     terminal size (default: the engine's, else 120x40)\n"
         "  --mode exec|agent      agent mode adds the engine's agent_args and\n"
         "                         answers its agent-mode dialogs (default exec)\n"
         "  --extra-arg=VAL        append VAL to the program's arguments (repeatable)\n"
         "  --cwd DIR              start the program in DIR\n"
         "  --env NAME=VALUE       set NAME in the program's environment, over the\n"
         "                         engine's env and the defaults TERM=xterm-256color,\n"
         "                         COLORTERM=truecolor (repeatable)\n"
         "  --resume SESSION_ID    continue an earlier conversation (engines with a transcript)\n"
         "  --engine-file PATH     load the engine from PATH instead of engines/\n"
         "  --scrollback N         lines of history kept (default 10000)\n"
         "  --record FILE          record the session to FILE (asciicast v2, asciinema)\n"
         "\n"
         "environment:\n"
         "  TUIDRIVER_ENGINES      directory of engine files (default: found next to\n"
         "                         the binary)\n"
         "\n"
         "example:\n"
         "  echo '{\"id\":1,\"type\":\"ask\",\"prompt\":\"6*7\"}' | tuidriver python\n"
         "\n"
         "exit codes: 0 normal, 2 usage error or unknown engine, 3 the program\n"
         "could not be spawned or never became ready.\n";
}

std::string FindEnginesDir() {
  std::string env = EnvVar("TUIDRIVER_ENGINES");
  if (!env.empty()) return env;
  std::string exe = SelfExePath();
  std::string dir = exe.substr(0, exe.rfind('/'));
  if (exe.empty()) return "engines";
  for (const char* rel : {"/../engines", "/../../engines", "/engines", "/../share/tuidriver/engines"}) {
    // Canonical, so messages name /opt/x/engines rather than /opt/x/bin/../engines.
    if (!IsDir(dir + rel)) continue;
    std::string real = RealPath(dir + rel);
    return real.empty() ? dir + rel : real;
  }
  return dir + "/../engines";
}

}  // namespace tuidriver
