// Windows side of platform.h, and the helpers conpty_process.h declares.
// Cross-built with mingw-w64 and tested under Wine (docs/windows.md).
#include "platform.h"

#include <dirent.h>
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <stdio.h>
#include <windows.h>
// after windows.h, which they need
#include <shellapi.h>
#include <tlhelp32.h>

#include <algorithm>
#include <map>

#include "conpty_process.h"
#include <fnmatch.h>  // daemon/win32/fnmatch.h: declared for glob_files.cc

namespace tuidriver {

std::wstring Widen(const std::string& s) {
  if (s.empty()) return L"";
  int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
  std::wstring w(static_cast<size_t>(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), &w[0], n);
  return w;
}

std::string Narrow(const std::wstring& w) {
  if (w.empty()) return "";
  int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr, nullptr);
  std::string s(static_cast<size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), &s[0], n, nullptr, nullptr);
  return s;
}

bool RunningUnderWine() {
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  return ntdll && GetProcAddress(ntdll, "wine_get_version") != nullptr;
}

namespace {

DWORD ParentPid() {
  HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snap == INVALID_HANDLE_VALUE) return 0;
  PROCESSENTRY32W e = {};
  e.dwSize = sizeof e;
  DWORD self = GetCurrentProcessId(), parent = 0;
  for (BOOL ok = Process32FirstW(snap, &e); ok; ok = Process32NextW(snap, &e)) {
    if (e.th32ProcessID == self) parent = e.th32ParentProcessID;
  }
  CloseHandle(snap);
  return parent;
}

bool IsFile(const std::string& path) {
  DWORD a = GetFileAttributesW(Widen(path).c_str());
  return a != INVALID_FILE_ATTRIBUTES && !(a & FILE_ATTRIBUTE_DIRECTORY);
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string::npos) end = s.size();
    if (end > start) parts.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// `base` as it is if it has an extension, else with each of PATHEXT's.
bool FindWithExtensions(const std::string& base, const std::vector<std::string>& exts, std::string* found) {
  size_t slash = base.find_last_of("\\/");
  bool has_ext = base.find('.', slash == std::string::npos ? 0 : slash + 1) != std::string::npos;
  if (has_ext && IsFile(base)) {
    *found = base;
    return true;
  }
  for (const std::string& ext : exts) {
    if (IsFile(base + ext)) {
      *found = base + ext;
      return true;
    }
  }
  return false;
}

std::wstring Upper(std::wstring s) {
  for (wchar_t& c : s) c = towupper(c);
  return s;
}

bool StripMatches(const std::string& pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*') {
    return _strnicmp(name.c_str(), pattern.c_str(), pattern.size() - 1) == 0;
  }
  return _stricmp(pattern.c_str(), name.c_str()) == 0;
}

// Runs the command in TUIDRIVER_EXEC_LINE with the console's CONIN$ and
// CONOUT$ as its std handles, and exits with its exit code (Wine only:
// ConptyProcess::StartProcess says why).
int RunExecHelper() {
  DWORD n = GetEnvironmentVariableW(L"TUIDRIVER_EXEC_LINE", nullptr, 0);
  if (n == 0) return 127;
  std::wstring line(n, L'\0');
  GetEnvironmentVariableW(L"TUIDRIVER_EXEC_LINE", &line[0], n);
  line.resize(n - 1);
  SetEnvironmentVariableW(L"TUIDRIVER_EXEC_LINE", nullptr);
  SECURITY_ATTRIBUTES inherit = {sizeof inherit, nullptr, TRUE};
  HANDLE in = CreateFileW(L"CONIN$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                          OPEN_EXISTING, 0, nullptr);
  HANDLE out = CreateFileW(L"CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                           OPEN_EXISTING, 0, nullptr);
  STARTUPINFOW si = {};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = in;
  si.hStdOutput = out;
  si.hStdError = out;
  PROCESS_INFORMATION pi = {};
  if (!CreateProcessW(nullptr, &line[0], nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi)) {
    const char message[] = "tuidriver: the exec helper could not start the command\r\n";
    DWORD written;
    WriteFile(out, message, sizeof message - 1, &written, nullptr);
    return 127;
  }
  CloseHandle(pi.hThread);
  WaitForSingleObject(pi.hProcess, INFINITE);
  DWORD code = 1;
  GetExitCodeProcess(pi.hProcess, &code);
  return static_cast<int>(code);
}

}  // namespace

HANDLE OpenParentProcess() {
  DWORD parent = ParentPid();
  return parent ? OpenProcess(SYNCHRONIZE, FALSE, parent) : nullptr;
}

bool ResolveWindowsCommand(const std::string& argv0, const std::string& path, const std::string& pathext,
                           std::string* resolved) {
  std::vector<std::string> exts = Split(pathext, ';');
  if (argv0.find_first_of("\\/:") != std::string::npos) return FindWithExtensions(argv0, exts, resolved);
  for (const std::string& dir : Split(path, ';')) {
    if (FindWithExtensions(dir + "\\" + argv0, exts, resolved)) return true;
  }
  return false;
}

std::wstring QuoteArgument(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
  // Backslashes count only before a quote: doubled there, and before the
  // closing quote (CommandLineToArgvW's rules).
  std::wstring out = L"\"";
  size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
    backslashes = 0;
    out += c;
  }
  out.append(backslashes * 2, L'\\');
  return out + L"\"";
}

std::wstring EnvironmentBlock(const SpawnOptions& options) {
  // Names compare regardless of case on Windows; the map keeps one each.
  std::map<std::wstring, std::wstring> env;  // upper-cased name -> "Name=value"
  wchar_t* block = GetEnvironmentStringsW();
  for (const wchar_t* e = block; e && *e; e += wcslen(e) + 1) {
    std::wstring entry(e);
    size_t eq = entry.find(L'=', 1);  // "=C:=C:\x" names start with '='
    if (eq == std::wstring::npos) continue;
    std::string name = Narrow(entry.substr(0, eq));
    bool stripped = false;
    for (const auto& kv : options.env_set) stripped |= _stricmp(kv.first.c_str(), name.c_str()) == 0;
    for (const std::string& s : options.env_strip) stripped |= StripMatches(s, name);
    if (!stripped) env[Upper(entry.substr(0, eq))] = entry;
  }
  if (block) FreeEnvironmentStringsW(block);
  for (const auto& kv : options.env_set) env[Upper(Widen(kv.first))] = Widen(kv.first + "=" + kv.second);
  std::wstring out;
  for (const auto& kv : env) out += kv.second + L'\0';
  return out + L'\0';
}

bool SetNonblocking(int) { return false; }

void WaitWritable(int, int timeout_ms) { Sleep(static_cast<DWORD>(std::min(timeout_ms, 10))); }

void ReleaseFreeMemory() { _heapmin(); }

bool TryLockFile(int fd, bool shared) {
  HANDLE file = reinterpret_cast<HANDLE>(_get_osfhandle(fd));
  OVERLAPPED at = {};
  DWORD how = (shared ? 0 : LOCKFILE_EXCLUSIVE_LOCK) | LOCKFILE_FAIL_IMMEDIATELY;
  return LockFileEx(file, how, 0, 1, 0, &at) != 0;
}

int OpenFd(const std::string& path, int flags, int mode) { return _wopen(Widen(path).c_str(), flags, mode); }

FILE* OpenStream(const std::string& path, const char* mode) {
  return _wfopen(Widen(path).c_str(), Widen(mode).c_str());
}

bool StatPath(const std::string& path, struct stat* st, bool) {
  struct _stat64 wide;
  if (_wstat64(Widen(path).c_str(), &wide) != 0) return false;
  *st = {};
  st->st_dev = wide.st_dev;
  st->st_ino = wide.st_ino;
  st->st_mode = wide.st_mode;
  st->st_nlink = wide.st_nlink;
  st->st_size = static_cast<decltype(st->st_size)>(wide.st_size);
  st->st_atime = wide.st_atime;
  st->st_mtime = wide.st_mtime;
  st->st_ctime = wide.st_ctime;
  return true;
}

bool ListDirectory(const std::string& dir, std::vector<std::string>* names) {
  _WDIR* d = _wopendir(Widen(dir).c_str());
  if (!d) return false;
  while (const _wdirent* e = _wreaddir(d)) names->push_back(Narrow(e->d_name));
  _wclosedir(d);
  return true;
}

std::string RealPath(const std::string& path) {
  wchar_t* full = _wfullpath(nullptr, Widen(path).c_str(), 0);
  if (!full) return "";
  std::string out = Narrow(full);
  free(full);
  return out;
}

size_t LastPathSeparator(const std::string& path) { return path.find_last_of("/\\"); }

std::string EnvVar(const char* name) {
  const wchar_t* value = _wgetenv(Widen(name).c_str());
  return value ? Narrow(value) : "";
}

std::string TempDir() {
  wchar_t dir[MAX_PATH + 1];
  DWORD n = GetTempPathW(MAX_PATH + 1, dir);
  if (n == 0 || n > MAX_PATH) return ".";
  std::string out = Narrow(std::wstring(dir, n));
  while (out.size() > 1 && (out.back() == '\\' || out.back() == '/')) out.pop_back();
  return out;
}

std::string DefaultHome() {
  std::string home = EnvVar("HOME");
  return home.empty() ? EnvVar("USERPROFILE") : home;
}

int StartPlatform(int argc, char** argv) {
  // No \n to \r\n on the protocol channel, and no ^Z as end of input.
  _setmode(0, _O_BINARY);
  _setmode(1, _O_BINARY);
  if (argc == 2 && strcmp(argv[1], "--exec-helper") == 0 && getenv("TUIDRIVER_EXEC_LINE")) return RunExecHelper();
  return -1;
}

std::vector<std::string> ProgramArguments(int argc, char** argv) {
  int n = 0;
  wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &n);
  if (!wide) return {argv, argv + argc};
  std::vector<std::string> args;
  for (int i = 0; i < n; ++i) args.push_back(Narrow(wide[i]));
  LocalFree(wide);
  return args;
}

bool DieWithParent() { return false; }  // the Windows loop waits on OpenParentProcess()
bool BecomeSubreaper() { return false; }  // the job object keeps every descendant

std::vector<pid_t> ChildPids(pid_t parent) {
  std::vector<pid_t> pids;
  HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snap == INVALID_HANDLE_VALUE) return pids;
  PROCESSENTRY32W e = {};
  e.dwSize = sizeof e;
  for (BOOL ok = Process32FirstW(snap, &e); ok; ok = Process32NextW(snap, &e)) {
    if (e.th32ParentProcessID == static_cast<DWORD>(parent)) pids.push_back(static_cast<pid_t>(e.th32ProcessID));
  }
  CloseHandle(snap);
  return pids;
}

std::string ProcessCwd(pid_t) { return ""; }  // in the other process's PEB

std::string SelfExePath() {
  wchar_t buf[32768];
  DWORD n = GetModuleFileNameW(nullptr, buf, 32768);
  if (n == 0 || n >= 32768) return "";
  // Forward slashes: the shared code cuts paths at '/', and Windows takes both.
  std::string path = Narrow(std::wstring(buf, n));
  std::replace(path.begin(), path.end(), '\\', '/');
  return path;
}

TerminalReader ForegroundReadsTerminal(int) { return TerminalReader::kUnknown; }

}  // namespace tuidriver

// fnmatch(3) for glob_files.cc: `*`, `?`, `[...]` (with `!` or `^`), a
// backslash escape, and FNM_PERIOD (a leading '.' only matched literally).
int fnmatch(const char* p, const char* s, int flags) {
  const char* start = s;
  while (*p) {
    bool leading_dot = (flags & FNM_PERIOD) && *s == '.' && s == start;
    switch (*p) {
      case '*':
        if (leading_dot) return FNM_NOMATCH;
        while (*p == '*') ++p;
        for (const char* t = s;; ++t) {
          if (fnmatch(p, t, flags & ~FNM_PERIOD) == 0) return 0;
          if (!*t) return FNM_NOMATCH;
        }
      case '?':
        if (!*s || leading_dot) return FNM_NOMATCH;
        ++p, ++s;
        break;
      case '[': {
        if (!*s || leading_dot) return FNM_NOMATCH;
        const char* q = p + 1;
        bool negate = *q == '!' || *q == '^';
        if (negate) ++q;
        bool matched = false;
        for (bool first = true; *q && (first || *q != ']'); first = false) {
          char lo = *q, hi = lo;
          if (q[1] == '-' && q[2] && q[2] != ']') hi = q[2], q += 2;
          matched |= *s >= lo && *s <= hi;
          ++q;
        }
        if (*q != ']') return *s == '[' ? fnmatch(p + 1, s + 1, flags & ~FNM_PERIOD) : FNM_NOMATCH;  // no class: a '['
        if (matched == negate) return FNM_NOMATCH;
        p = q + 1, ++s;
        break;
      }
      case '\\':
        if (p[1]) ++p;
        [[fallthrough]];
      default:
        if (*p != *s) return FNM_NOMATCH;
        ++p, ++s;
    }
  }
  return *s ? FNM_NOMATCH : 0;
}
