#include "conpty_process.h"

#include <atomic>
#include <cstdio>

#include "platform.h"

namespace tuidriver {
namespace {

// The exec helper's command line travels in this variable (it is removed
// before the real command starts): see StartPlatform in platform_windows.cc.
constexpr wchar_t kExecLineVar[] = L"TUIDRIVER_EXEC_LINE";

std::string LastError(const char* what) {
  DWORD code = GetLastError();
  wchar_t* text = nullptr;
  FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                 nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::string message = text ? Narrow(text) : "";
  if (text) LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == '.')) {
    message.pop_back();
  }
  return std::string(what) + ": " + (message.empty() ? "error " + std::to_string(code) : message);
}

// A named pipe of one instance: our end overlapped (`outbound`: we write),
// the other end, for the console, a plain handle.
bool OpenPipe(bool outbound, HANDLE* ours, HANDLE* theirs, std::string* err) {
  static std::atomic<unsigned> serial{0};
  wchar_t name[128];
  swprintf(name, 128, L"\\\\.\\pipe\\tuidriver-%lu-%u-%ls", GetCurrentProcessId(), serial++,
           outbound ? L"in" : L"out");
  DWORD mode = (outbound ? PIPE_ACCESS_OUTBOUND : PIPE_ACCESS_INBOUND) | FILE_FLAG_OVERLAPPED |
               FILE_FLAG_FIRST_PIPE_INSTANCE;
  *ours = CreateNamedPipeW(name, mode, PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT, 1, 65536, 65536, 0,
                           nullptr);
  if (*ours == INVALID_HANDLE_VALUE) {
    *err = LastError("CreateNamedPipe");
    return false;
  }
  *theirs = CreateFileW(name, outbound ? GENERIC_READ : GENERIC_WRITE, 0, nullptr, OPEN_EXISTING, 0, nullptr);
  if (*theirs == INVALID_HANDLE_VALUE) {
    *err = LastError("open pipe");
    CloseHandle(*ours);
    *ours = INVALID_HANDLE_VALUE;
    return false;
  }
  return true;
}

HANDLE NewJob() {
  HANDLE job = CreateJobObjectW(nullptr, nullptr);
  if (!job) return nullptr;
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits);
  return job;
}

// The command line for CreateProcessW: the resolved program, quoted, and
// the arguments; a batch file runs through cmd.exe.
std::wstring CommandLine(const std::string& program, const std::vector<std::string>& argv) {
  std::wstring line = QuoteArgument(Widen(program));
  for (size_t i = 1; i < argv.size(); ++i) line += L" " + QuoteArgument(Widen(argv[i]));
  size_t dot = program.rfind('.');
  std::string ext = dot == std::string::npos ? "" : program.substr(dot);
  for (char& c : ext) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  if (ext == ".cmd" || ext == ".bat") {
    const wchar_t* comspec = _wgetenv(L"ComSpec");
    line = QuoteArgument(comspec ? comspec : L"C:\\Windows\\System32\\cmd.exe") + L" /d /s /c \"" + line + L"\"";
  }
  return line;
}

}  // namespace

ConptyProcess::ConptyProcess() {
  read_ov_.hEvent = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  write_ov_.hEvent = CreateEventW(nullptr, TRUE, FALSE, nullptr);
}

ConptyProcess::~ConptyProcess() {
  if (job_) {
    TerminateJobObject(job_, 1);
    CloseHandle(job_);
  }
  if (console_) ClosePseudoConsole(console_);
  for (HANDLE h : {input_, output_}) {
    if (h != INVALID_HANDLE_VALUE) {
      CancelIo(h);
      CloseHandle(h);
    }
  }
  if (process_) CloseHandle(process_);
  CloseHandle(read_ov_.hEvent);
  CloseHandle(write_ov_.hEvent);
}

bool ConptyProcess::Spawn(const SpawnOptions& options, std::string* err) {
  if (options.argv.empty() || options.argv[0].empty()) {
    *err = "empty command";
    return false;
  }
  std::wstring env = EnvironmentBlock(options);
  // PATH and PATHEXT as the child will see them.
  std::string path, pathext = ".COM;.EXE;.BAT;.CMD";
  for (const wchar_t* e = env.c_str(); *e; e += wcslen(e) + 1) {
    std::string entry = Narrow(e);
    if (_strnicmp(entry.c_str(), "PATH=", 5) == 0) path = entry.substr(5);
    if (_strnicmp(entry.c_str(), "PATHEXT=", 8) == 0) pathext = entry.substr(8);
  }
  std::string program;
  if (!ResolveWindowsCommand(options.argv[0], path, pathext, &program)) {
    *err = options.argv[0] + ": command not found";
    return false;
  }
  executable_ = program;
  std::wstring cwd = Widen(options.cwd);
  if (!options.cwd.empty()) {
    DWORD attributes = GetFileAttributesW(cwd.c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES || !(attributes & FILE_ATTRIBUTE_DIRECTORY)) {
      *err = "cannot change directory to " + options.cwd + ": No such directory";
      return false;
    }
  }
  wchar_t here[MAX_PATH];
  cwd_ = !options.cwd.empty() ? options.cwd : GetCurrentDirectoryW(MAX_PATH, here) ? Narrow(here) : "";
  COORD size = {static_cast<SHORT>(options.cols), static_cast<SHORT>(options.rows)};
  return StartProcess(CommandLine(program, options.argv), env, cwd, size, err);
}

bool ConptyProcess::StartProcess(const std::wstring& command_line, const std::wstring& env_in,
                                 const std::wstring& cwd, COORD size, std::string* err) {
  HANDLE console_in, console_out;
  if (!OpenPipe(true, &input_, &console_in, err)) return false;
  if (!OpenPipe(false, &output_, &console_out, err)) {
    CloseHandle(console_in);
    return false;
  }
  HRESULT hr = CreatePseudoConsole(size, console_in, console_out, 0, &console_);
  CloseHandle(console_in);  // the console holds its own copies
  CloseHandle(console_out);
  if (FAILED(hr)) {
    console_ = nullptr;
    *err = "CreatePseudoConsole failed: " + std::to_string(static_cast<long>(hr));
    return false;
  }
  job_ = NewJob();
  std::wstring line = command_line, env = env_in;
  // Wine gives a child started with STARTF_USESTDHANDLES and no handles no
  // console handles at all (docs/windows.md): there, we start ourselves as
  // an exec helper that opens CONIN$/CONOUT$ and starts the command.
  if (RunningUnderWine()) {
    std::string self = SelfExePath();
    std::wstring var = std::wstring(kExecLineVar) + L"=" + line;
    env.insert(0, var + L'\0');
    line = QuoteArgument(Widen(self)) + L" --exec-helper";
  }
  STARTUPINFOEXW si = {};
  si.StartupInfo.cb = sizeof si;
  // Keeps the child's std handles off our own stdout (the protocol channel).
  si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  SIZE_T attr_size = 0;
  InitializeProcThreadAttributeList(nullptr, 1, 0, &attr_size);
  std::vector<char> attr_buf(attr_size);
  si.lpAttributeList = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attr_buf.data());
  InitializeProcThreadAttributeList(si.lpAttributeList, 1, 0, &attr_size);
  UpdateProcThreadAttribute(si.lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE, console_, sizeof console_,
                            nullptr, nullptr);
  PROCESS_INFORMATION pi = {};
  BOOL ok = CreateProcessW(nullptr, &line[0], nullptr, nullptr, FALSE,
                           EXTENDED_STARTUPINFO_PRESENT | CREATE_UNICODE_ENVIRONMENT | CREATE_SUSPENDED,
                           const_cast<wchar_t*>(env.c_str()), cwd.empty() ? nullptr : cwd.c_str(),
                           &si.StartupInfo, &pi);
  DeleteProcThreadAttributeList(si.lpAttributeList);
  if (!ok) {
    *err = LastError("CreateProcess");
    return false;
  }
  if (job_) AssignProcessToJobObject(job_, pi.hProcess);
  ResumeThread(pi.hThread);
  CloseHandle(pi.hThread);
  process_ = pi.hProcess;
  pid_ = pi.dwProcessId;
  return true;
}

long ConptyProcess::ReadOutput(std::string* out) {
  if (read_eof_) return -1;
  long total = 0;
  for (;;) {
    DWORD n = 0;
    if (read_pending_) {
      if (!GetOverlappedResult(output_, &read_ov_, &n, FALSE)) {
        if (GetLastError() == ERROR_IO_INCOMPLETE) return total;
        read_eof_ = true;  // ERROR_BROKEN_PIPE: the console is closed
        return total > 0 ? total : -1;
      }
      read_pending_ = false;
    } else if (!ReadFile(output_, read_buf_, sizeof read_buf_, &n, &read_ov_)) {
      if (GetLastError() == ERROR_IO_PENDING) {
        read_pending_ = true;
        continue;  // it may have completed already
      }
      read_eof_ = true;
      return total > 0 ? total : -1;
    }
    out->append(read_buf_, n);
    total += static_cast<long>(n);
    if (total >= static_cast<long>(sizeof read_buf_) * 4) return total;  // let requests in
  }
}

bool ConptyProcess::Write(const char* data, size_t len) {
  if (input_ == INVALID_HANDLE_VALUE) return false;
  queued_.append(data, len);
  return FlushInput();
}

bool ConptyProcess::FlushInput() {
  if (input_ == INVALID_HANDLE_VALUE) return false;
  for (;;) {
    DWORD n = 0;
    if (write_pending_) {
      if (!GetOverlappedResult(input_, &write_ov_, &n, FALSE)) {
        if (GetLastError() == ERROR_IO_INCOMPLETE) return true;
        in_flight_.clear();
        queued_.clear();
        write_pending_ = false;
        return false;
      }
      write_pending_ = false;
      in_flight_.erase(0, n);
    }
    if (in_flight_.empty()) in_flight_.swap(queued_);
    if (in_flight_.empty()) return true;
    if (WriteFile(input_, in_flight_.data(), static_cast<DWORD>(in_flight_.size()), &n, &write_ov_)) {
      in_flight_.erase(0, n);
      continue;
    }
    if (GetLastError() != ERROR_IO_PENDING) {
      in_flight_.clear();
      queued_.clear();
      return false;
    }
    write_pending_ = true;
  }
}

bool ConptyProcess::Resize(int cols, int rows) {
  if (!console_) return false;
  COORD size = {static_cast<SHORT>(cols), static_cast<SHORT>(rows)};
  return SUCCEEDED(ResizePseudoConsole(console_, size));
}

bool ConptyProcess::SignalForeground(int sig) {
  if (sig == SIGINT) return Write("\x03", 1);
  if (sig != SIGTERM && sig != SIGKILL && sig != SIGHUP && sig != SIGQUIT) {
    SetLastError(ERROR_NOT_SUPPORTED);
    return false;
  }
  if (status_.exited || !job_) return false;
  if (!terminated_by_) terminated_by_ = sig;
  return TerminateJobObject(job_, 128 + sig) != 0;
}

void ConptyProcess::KillTree() {
  if (job_) TerminateJobObject(job_, 128 + SIGKILL);
}

std::vector<pid_t> ConptyProcess::JobPids() const {
  std::vector<pid_t> pids;
  if (!job_) return pids;
  struct {
    JOBOBJECT_BASIC_PROCESS_ID_LIST list;
    ULONG_PTR more[255];
  } ids = {};
  if (!QueryInformationJobObject(job_, JobObjectBasicProcessIdList, &ids, sizeof ids, nullptr)) return pids;
  for (DWORD i = 0; i < ids.list.NumberOfProcessIdsInList; ++i) {
    pids.push_back(static_cast<pid_t>(ids.list.ProcessIdList[i]));
  }
  return pids;
}

namespace {
DWORD WINAPI CloseConsole(void* console) {
  ClosePseudoConsole(static_cast<HPCON>(console));
  return 0;
}
}  // namespace

bool ConptyProcess::TryReap() {
  if (status_.exited) return true;
  if (!process_ || WaitForSingleObject(process_, 0) != WAIT_OBJECT_0) return false;
  DWORD code = 0;
  GetExitCodeProcess(process_, &code);
  status_.exited = true;
  if (terminated_by_) {
    status_.signal = terminated_by_;
  } else {
    status_.code = static_cast<int>(code);
  }
  // ClosePseudoConsole can wait until its last output is read, which only
  // this thread does: close it on another, and read on to EOF.
  if (console_) {
    HANDLE thread = CreateThread(nullptr, 0, CloseConsole, console_, 0, nullptr);
    if (thread) CloseHandle(thread);
    else ClosePseudoConsole(console_);
    console_ = nullptr;
  }
  return true;
}

}  // namespace tuidriver
