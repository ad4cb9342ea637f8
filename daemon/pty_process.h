// A child process running on a pseudo-terminal.
//
// The daemon keeps the slave end open for the child's whole life: reading
// the master until EIO loses the last bytes a child wrote (measured: 9 runs
// in 768 lost exactly 2048 bytes). Exit is learnt from waitpid; the caller
// then drains the master until EAGAIN before it reports the exit.
#ifndef TUIDRIVER_PTY_PROCESS_H_
#define TUIDRIVER_PTY_PROCESS_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "child.h"

namespace tuidriver {

struct SpawnOptions {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH
  std::map<std::string, std::string> env_set;
  std::vector<std::string> env_strip;  // names; "PREFIX_*" strips a family
  std::string cwd;  // empty: inherit
  int cols = 120;
  int rows = 40;
  // A pipe for prompts (PtyProcess::PipePrompt): its read end stays open in
  // the child, which finds its number in $TUIDRIVER_PROMPT_FD.
  bool prompt_pipe = false;
  // Each prompt's record says `run`: the helper runs it as it arrives, and
  // nothing is typed for it (submit.pipe_only).
  bool prompts_run = false;
};

// Bytes for a non-blocking fd, written in order as far as the fd takes
// them; the rest waits for Flush. A reader that stops reading must not
// freeze the daemon.
class PendingWrites {
 public:
  // Appends, then writes what the fd takes now. False once the fd is
  // broken: what waited is dropped.
  bool Write(int fd, const char* data, size_t len);
  bool Flush(int fd);
  size_t pending() const { return bytes_.size() - sent_; }
  void Drop();

 private:
  std::string bytes_;
  size_t sent_ = 0;  // how much of bytes_ has been written
};

class PtyProcess {
 public:
  PtyProcess() = default;
  ~PtyProcess();  // closes both ends; does not kill the child (see Kill)
  PtyProcess(const PtyProcess&) = delete;
  PtyProcess& operator=(const PtyProcess&) = delete;

  // Forks the child in a new session with the PTY as its controlling
  // terminal. Signals are blocked around fork and reset in the child, and
  // inherited fds above 2 are closed. A command that cannot be executed is
  // reported here (through a CLOEXEC pipe), not as a mysterious exit 127.
  bool Spawn(const SpawnOptions& options, std::string* err);

  int master_fd() const { return master_; }
  pid_t pid() const { return pid_; }
  // The program file argv[0] was found as on PATH.
  const std::string& executable() const { return executable_; }

  // Sends data to the program without ever blocking: what the PTY does not
  // take now waits, in order, for FlushInput. A program that stops reading
  // its input must not freeze the daemon (it did: a large `send` to such a
  // program blocked every request, close and even SIGTERM). Returns false
  // if the PTY is gone.
  bool Write(const char* data, size_t len) { return master_ >= 0 && input_.Write(master_, data, len); }
  bool Write(const std::string& s) { return Write(s.data(), s.size()); }
  // Writes what waits, as far as the PTY takes it now (call on POLLOUT).
  bool FlushInput() { return input_.Flush(master_); }
  // Bytes written but not yet taken by the PTY.
  size_t input_pending() const { return input_.pending(); }
  // Forgets what waits for the program, typed or held (it is gone).
  void DropInput() {
    input_.Drop();
    held_prompts_.clear();
  }
  // Input typed and not yet read by the program: waiting here, or in the
  // terminal's queue.
  bool TypedInputUnread() const;

  // Whether the program waits reading the terminal (platform.h), for what
  // the daemon has seen of it: not while input waits (typed, not yet read:
  // there is something to read first), nor while output waits unread (it
  // may have printed more, its prompt, before it began to read).
  TerminalReader ReadsTerminal() const;

  // Sends a prompt through the prompt pipe as "<number> <bytes>\n" and the
  // prompt, without blocking (what the pipe does not take waits for
  // FlushPrompts). Returns its number (1, 2, ...) for the line the engine
  // types, or 0 without a pipe. A REPL reads prompts from the pipe at the
  // speed of one read, where each typed character costs it several system
  // calls (readline reads, checks and echoes one at a time).
  // With SpawnOptions::prompts_run, a prompt waits here while input typed
  // before it is still unread (ReleasePrompts): the pipe would overtake
  // the terminal, and the helper run the ask before a line sent before it.
  uint64_t PipePrompt(const std::string& prompt);
  // "<number> drop\n": prompts up to `number` are void (ChildInput). A
  // prompt still held is forgotten instead.
  void DropPrompt(uint64_t number);
  // Sends the held prompts once the program has read the input before them.
  void ReleasePrompts();
  bool prompts_held() const { return !held_prompts_.empty(); }
  // The pipe's write end; -1 without a pipe or once the reader is gone.
  int prompt_fd() const { return prompt_fd_; }
  bool FlushPrompts();
  size_t prompts_pending() const { return prompts_.pending(); }

  bool Resize(int cols, int rows);

  // Sends sig to the foreground process group of the terminal (what ^C
  // would reach), falling back to the child's own group.
  bool SignalForeground(int sig);
  // Sends sig to the child's whole process group, which may outlive the
  // child itself.
  bool SignalGroup(int sig);

  // Reaps children without blocking: the program, and any orphans of its
  // that were handed to us (see BecomeSubreaper in platform.h). Returns true once the
  // program has exited.
  bool TryReap();
  const ExitStatus& exit_status() const { return status_; }

  // The process the terminal's foreground group is led by (tcgetpgrp).
  pid_t ForegroundPid() const;
  // The child's current working directory; empty when it cannot be read.
  std::string Cwd() const;

 private:
  void ClosePromptPipe();

  int master_ = -1;
  int slave_ = -1;
  pid_t pid_ = -1;
  std::string executable_;
  ExitStatus status_;
  PendingWrites input_;  // bytes for the program, not yet taken by the PTY
  int prompt_fd_ = -1;
  PendingWrites prompts_;
  uint64_t prompts_sent_ = 0;
  bool prompts_run_ = false;  // SpawnOptions::prompts_run
  std::vector<std::pair<uint64_t, std::string>> held_prompts_;  // number, record
};

// Reads what is available from fd into buf. Returns bytes read, 0 when
// nothing is available now (EAGAIN), -1 at EOF or error (EIO on a PTY
// master means EOF).
ssize_t ReadAvailable(int fd, char* buf, size_t len);


// Sends sig to every process whose parent is this process: after the
// program is reaped, those are the orphans it left. Returns how many.
int SignalOrphans(int sig);

// Reaps our exited children for up to `max_ms`, until none is left.
void ReapOrphans(int max_ms);

}  // namespace tuidriver

#endif  // TUIDRIVER_PTY_PROCESS_H_
