// Command-line parsing and engine lookup for the tuidriver binary.
#ifndef TUIDRIVER_OPTIONS_H_
#define TUIDRIVER_OPTIONS_H_

#include <string>
#include <utility>
#include <vector>

namespace tuidriver {

struct Options {
  enum class Action { kRun, kHelp, kVersion, kListEngines, kListFields, kListErrorKinds } action = Action::kRun;
  std::string engine;                  // engine name, or empty for a raw session
  std::string engine_file;             // --engine-file
  std::vector<std::string> command;    // after "--": a raw session
  int cols = 0, rows = 0;              // 0: the engine's default
  std::string mode = "exec";
  std::vector<std::string> extra_args;
  // --env NAME=VALUE: set in the program's environment, over the engine's.
  std::vector<std::pair<std::string, std::string>> env;
  std::string cwd;
  std::string resume;                  // --resume SESSION_ID
  long scrollback = 10000;
  std::string record;                  // --record FILE
};

// Parses argv. On a usage error returns false with *err set.
bool ParseOptions(int argc, char** argv, Options* options, std::string* err);

const char* UsageText();

// Where engines/*.json live: $TUIDRIVER_ENGINES, else the first of
// <dir of binary>/../engines, <dir>/../../engines, <dir>/engines,
// <dir>/../share/tuidriver/engines that exists.
std::string FindEnginesDir();

}  // namespace tuidriver

#endif  // TUIDRIVER_OPTIONS_H_
