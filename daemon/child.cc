#include "child.h"

#include <signal.h>

#include <cctype>
#include <cstdlib>

namespace tuidriver {

namespace {
struct SignalEntry {
  const char* name;
  int number;
};
const SignalEntry kSignals[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},     {"QUIT", SIGQUIT}, {"KILL", SIGKILL},
    {"TERM", SIGTERM}, {"USR1", SIGUSR1},   {"USR2", SIGUSR2}, {"STOP", SIGSTOP},
    {"CONT", SIGCONT}, {"TSTP", SIGTSTP},   {"WINCH", SIGWINCH}, {"ABRT", SIGABRT},
    {"ALRM", SIGALRM}, {"PIPE", SIGPIPE},   {"SEGV", SIGSEGV}, {"TTIN", SIGTTIN},
    {"TTOU", SIGTTOU},
};
}  // namespace

int SignalFromName(const std::string& name) {
  std::string upper;
  for (char c : name) upper += static_cast<char>(toupper(static_cast<unsigned char>(c)));
  if (upper.compare(0, 3, "SIG") == 0) upper = upper.substr(3);
  if (!upper.empty() && upper.find_first_not_of("0123456789") == std::string::npos) {
    int n = atoi(upper.c_str());
    return (n > 0 && n < NSIG) ? n : 0;
  }
  for (const SignalEntry& e : kSignals) {
    if (upper == e.name) return e.number;
  }
  return 0;
}

std::string SignalName(int sig) {
  for (const SignalEntry& e : kSignals) {
    if (e.number == sig) return e.name;
  }
  return std::to_string(sig);
}

}  // namespace tuidriver
