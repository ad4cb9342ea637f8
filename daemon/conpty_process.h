// A child process on a Windows pseudo console (ConPTY): PtyProcess's twin
// for the Windows build (docs/windows.md), with the same calls the session
// makes, so that everything above it is shared.
//
// The pipes are named pipes opened overlapped on our side (CreatePipe's
// anonymous pipes cannot be waited on); the loop (session_windows.cc) waits
// on read_event(), write_event() and process(). The child and every process
// it starts run in a job object that kills them all when it is closed:
// `signal` TERM/KILL/HUP terminate the job, INT types Ctrl-C (\x03) into the
// console. Exit is learnt from the process handle; ClosePseudoConsole then
// ends the output pipe, which is read to EOF before the exit is reported.
#ifndef TUIDRIVER_CONPTY_PROCESS_H_
#define TUIDRIVER_CONPTY_PROCESS_H_

#include <windows.h>

#include <cstdint>
#include <string>
#include <vector>

#include "child.h"
#include "pty_process.h"  // SpawnOptions

namespace tuidriver {

class ConptyProcess {
 public:
  ConptyProcess();
  ~ConptyProcess();  // kills the job (what a closed job handle does anyway)
  ConptyProcess(const ConptyProcess&) = delete;
  ConptyProcess& operator=(const ConptyProcess&) = delete;

  // Resolves argv[0] on PATH with PATHEXT (a .cmd or .bat runs through
  // %ComSpec% /c), quotes the command line, builds the UTF-16 environment,
  // and starts the child in the job on a new pseudo console. A command
  // that cannot be started is reported here.
  bool Spawn(const SpawnOptions& options, std::string* err);

  HANDLE process() const { return process_; }
  HANDLE read_event() const { return read_ov_.hEvent; }
  HANDLE write_event() const { return write_ov_.hEvent; }
  pid_t pid() const { return static_cast<pid_t>(pid_); }
  // The program file argv[0] was found as on PATH (with PATHEXT).
  const std::string& executable() const { return executable_; }
  pid_t ForegroundPid() const { return static_cast<pid_t>(pid_); }
  // The directory the child started in: another process's cwd lives in
  // its PEB, which is not read here.
  std::string Cwd() const { return cwd_; }

  // Program output into *out: > 0 bytes appended, 0 when none waits now,
  // -1 at EOF (the pseudo console was closed).
  long ReadOutput(std::string* out);
  bool output_ended() const { return read_eof_; }

  // Input for the console, written overlapped: never blocks; what waits is
  // sent on by FlushInput (on write_event()). False once the pipe is gone.
  bool Write(const char* data, size_t len);
  bool Write(const std::string& s) { return Write(s.data(), s.size()); }
  bool FlushInput();
  size_t input_pending() const { return queued_.size() + in_flight_.size(); }
  void DropInput() { queued_.clear(); }
  bool TypedInputUnread() const { return input_pending() > 0; }

  // No prompt pipe on Windows yet: engines type their prompts.
  uint64_t PipePrompt(const std::string&) { return 0; }
  void DropPrompt(uint64_t) {}
  bool prompts_held() const { return false; }
  // Which process reads the console is not observable here: the engine's
  // patterns decide (docs/engines.md).
  TerminalReader ReadsTerminal() const { return TerminalReader::kUnknown; }

  // ResizePseudoConsole (E_NOTIMPL under Wine 8: false there).
  bool Resize(int cols, int rows);
  // INT: Ctrl-C typed into the console. TERM, KILL, HUP, QUIT: the whole
  // job terminated, reported as that signal. Others: false.
  bool SignalForeground(int sig);
  bool SignalGroup(int sig) { return SignalForeground(sig); }
  // Every process left in the job.
  void KillTree();
  // Pids of the processes in the job (QueryInformationJobObject).
  std::vector<pid_t> JobPids() const;

  // Once process() is signalled: records the exit and closes the pseudo
  // console (on a thread: it can wait for its output to be read), so the
  // output pipe ends. True once the program has exited.
  bool TryReap();
  const ExitStatus& exit_status() const { return status_; }

 private:
  bool StartProcess(const std::wstring& command_line, const std::wstring& env, const std::wstring& cwd,
                    COORD size, std::string* err);

  std::string executable_;
  HPCON console_ = nullptr;
  HANDLE input_ = INVALID_HANDLE_VALUE;   // our end of the console's input
  HANDLE output_ = INVALID_HANDLE_VALUE;  // our end of the console's output
  HANDLE process_ = nullptr;
  HANDLE job_ = nullptr;
  DWORD pid_ = 0;
  std::string cwd_;
  ExitStatus status_;
  int terminated_by_ = 0;  // the signal whose TerminateJobObject ended it

  OVERLAPPED read_ov_ = {};
  bool read_pending_ = false;
  bool read_eof_ = false;
  char read_buf_[65536];

  OVERLAPPED write_ov_ = {};
  bool write_pending_ = false;
  std::string in_flight_;  // the buffer of the overlapped write under way
  std::string queued_;     // what waits behind it
};

// Windows-only helpers of the loop and the exec helper (platform_windows.cc).

// UTF-8 to UTF-16 and back.
std::wstring Widen(const std::string& s);
std::string Narrow(const std::wstring& s);
// Whether we run under Wine (ntdll exports wine_get_version).
bool RunningUnderWine();
// A handle to our parent process to wait on (SYNCHRONIZE); nullptr if it
// cannot be opened (it is gone, or not a Windows process).
HANDLE OpenParentProcess();
// argv[0] found on PATH (`path`, ';'-separated) with each of PATHEXT's
// extensions when it has none; a name with a directory is checked as it is.
bool ResolveWindowsCommand(const std::string& argv0, const std::string& path, const std::string& pathext,
                           std::string* resolved);
// One argument quoted for CreateProcessW's command line, so that
// CommandLineToArgvW gives it back unchanged.
std::wstring QuoteArgument(const std::wstring& arg);
// The environment block for CreateProcessW: ours with `options`' strips
// and sets applied, sorted by name regardless of case, double-NUL ended.
std::wstring EnvironmentBlock(const SpawnOptions& options);

}  // namespace tuidriver

#endif  // TUIDRIVER_CONPTY_PROCESS_H_
