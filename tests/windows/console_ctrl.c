/* console_ctrl.exe TRIGGER EVENT COMMAND...: runs COMMAND on a console of
 * its own with our std handles, and once the file TRIGGER exists sends
 * EVENT to that console: c and break with GenerateConsoleCtrlEvent
 * (CTRL_C_EVENT, CTRL_BREAK_EVENT), close by closing the console's window
 * (CTRL_CLOSE_EVENT: this helper ends with it). Exits with COMMAND's exit
 * code. For test_wine.py's ConsoleCtrl tests (tuidriver.exe's own
 * console); built by scripts/test-windows.sh with mingw-w64. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

static BOOL WINAPI Ignore(DWORD type) {
  (void)type;
  return TRUE; /* the event is for the command, not for us */
}

/* Our own command line after the first `skip` arguments (no quoting
 * undone: what follows is passed on as it was given). */
static wchar_t* Rest(wchar_t* line, int skip) {
  for (int i = 0; i < skip; ++i) {
    int quoted = 0;
    while (*line == L' ' || *line == L'\t') ++line;
    for (; *line && (quoted || (*line != L' ' && *line != L'\t')); ++line) {
      if (*line == L'"') quoted = !quoted;
    }
  }
  while (*line == L' ' || *line == L'\t') ++line;
  return line;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: console_ctrl TRIGGER c|break|close COMMAND...\n");
    return 2;
  }
  DWORD event = strcmp(argv[2], "break") == 0 ? CTRL_BREAK_EVENT : CTRL_C_EVENT;
  /* Taken first: AllocConsole makes the new console's handles the std ones. */
  HANDLE std_handles[3] = {GetStdHandle(STD_INPUT_HANDLE), GetStdHandle(STD_OUTPUT_HANDLE),
                           GetStdHandle(STD_ERROR_HANDLE)};
  FreeConsole();
  if (!AllocConsole()) {
    fprintf(stderr, "console_ctrl: AllocConsole failed (%lu)\n", GetLastError());
    return 2;
  }
  for (int i = 0; i < 3; ++i) SetHandleInformation(std_handles[i], HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  STARTUPINFOW si = {0};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = std_handles[0];
  si.hStdOutput = std_handles[1];
  si.hStdError = std_handles[2];
  PROCESS_INFORMATION pi = {0};
  if (!CreateProcessW(NULL, Rest(GetCommandLineW(), 3), NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
    fprintf(stderr, "console_ctrl: CreateProcess failed (%lu)\n", GetLastError());
    return 2;
  }
  /* After the start: the child would inherit "ignore Ctrl-C" otherwise. */
  SetConsoleCtrlHandler(Ignore, TRUE);
  while (GetFileAttributesA(argv[1]) == INVALID_FILE_ATTRIBUTES) {
    if (WaitForSingleObject(pi.hProcess, 50) == WAIT_OBJECT_0) break;
  }
  if (strcmp(argv[2], "close") == 0) {
    HWND window = GetConsoleWindow(); /* NULL: PostMessage would post to our own queue */
    if (!window || !PostMessageW(window, WM_CLOSE, 0, 0)) {
      fprintf(stderr, "console_ctrl: no console window to close (%lu)\n", GetLastError());
    }
  } else if (!GenerateConsoleCtrlEvent(event, 0)) {
    fprintf(stderr, "console_ctrl: GenerateConsoleCtrlEvent failed (%lu)\n", GetLastError());
  }
  WaitForSingleObject(pi.hProcess, 60000);
  DWORD code = 2;
  GetExitCodeProcess(pi.hProcess, &code);
  return (int)code;
}
