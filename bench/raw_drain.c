/* raw_drain: the benchmark's physical-limit baseline. Compiled by bench/run.sh
 * (cc -O2), not by the project's CMake.
 *
 *   raw_drain drain -- CMD [ARGS...]
 *       Runs CMD on a new PTY (120x40) and reads the master end in 64 KiB
 *       chunks, discarding the bytes, until the program has exited and the PTY
 *       is dry. Prints {"bytes":N,"seconds":S,"user":U,"sys":S} where seconds
 *       runs from just before the fork to the last byte. No emulator, no
 *       parsing: nothing can read a PTY faster on this machine.
 *
 *   raw_drain spawn [--until TEXT] -- CMD [ARGS...]
 *       The startup baseline: spawns CMD on a PTY the way a driver must (new
 *       session, controlling terminal, exec checked through a CLOEXEC pipe) and
 *       prints "ready" once the exec succeeded or, with --until, once TEXT
 *       appeared in the program's output. Then it drains until the program
 *       exits (or kills it after --until), and exits.
 *
 * Like the daemon it keeps the slave end open and learns of the exit from
 * waitpid, so the final bytes are never lost to an early EIO.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Child side: new session, the slave as controlling terminal and stdio. */
static void ExecChild(int master, int slave, int exec_pipe, char** argv) {
  close(master);
  setsid();
  ioctl(slave, TIOCSCTTY, 0);
  dup2(slave, 0);
  dup2(slave, 1);
  dup2(slave, 2);
  if (slave > 2) close(slave);
  signal(SIGPIPE, SIG_DFL);
  execvp(argv[0], argv);
  int e = errno;
  if (write(exec_pipe, &e, sizeof e) < 0) _exit(127);
  _exit(127);
}

/* Spawns argv on a fresh 120x40 PTY. Returns the child's pid, fills *master and
 * *slave (the parent keeps the slave so reads never hit a premature EIO). */
static pid_t Spawn(char** argv, int* master, int* slave) {
  struct winsize ws = {.ws_row = 40, .ws_col = 120};
  if (openpty(master, slave, NULL, NULL, &ws) != 0) {
    perror("openpty");
    exit(1);
  }
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) {
    perror("pipe2");
    exit(1);
  }
  pid_t pid = fork();
  if (pid == 0) ExecChild(*master, *slave, p[1], argv);
  close(p[1]);
  int e = 0;
  ssize_t n;
  do n = read(p[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  close(p[0]);
  if (n > 0) {
    fprintf(stderr, "raw_drain: %s: %s\n", argv[0], strerror(e));
    exit(3);
  }
  fcntl(*master, F_SETFL, fcntl(*master, F_GETFL) | O_NONBLOCK);
  return pid;
}

/* Reads everything available now; returns bytes read, -1 on EOF/EIO. Calls
 * on_data (may be NULL) with each chunk. */
static long ReadAvailable(int fd, char* buf, size_t cap, int (*on_data)(const char*, size_t)) {
  long total = 0;
  for (;;) {
    ssize_t n = read(fd, buf, cap);
    if (n > 0) {
      total += n;
      if (on_data && on_data(buf, (size_t)n)) return total;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return total;
    return total > 0 ? total : -1;
  }
}

static const char* g_until; /* the text "spawn --until" waits for */
static char g_tail[4096];   /* the output so far, only its tail is needed */
static size_t g_tail_len;

static int SeenUntil(const char* data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (g_tail_len + 1 >= sizeof g_tail) {
      memmove(g_tail, g_tail + sizeof g_tail / 2, sizeof g_tail / 2);
      g_tail_len -= sizeof g_tail / 2;
    }
    g_tail[g_tail_len++] = data[i];
  }
  g_tail[g_tail_len] = 0;
  return strstr(g_tail, g_until) != NULL;
}

/* Drains the master until the child has exited and no byte is left. Returns the
 * byte count; stops early (returning -1) when on_data says so. */
static long DrainUntilExit(int master, pid_t pid, int (*on_data)(const char*, size_t)) {
  static char buf[65536];
  long bytes = 0;
  int exited = 0;
  for (;;) {
    long n = ReadAvailable(master, buf, sizeof buf, on_data);
    if (on_data && g_until && g_tail_len && strstr(g_tail, g_until)) return -1;
    if (n > 0) bytes += n;
    if (exited) return bytes; /* one last read after waitpid saw the exit */
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      exited = 1;
      continue;
    }
    struct pollfd pfd = {.fd = master, .events = POLLIN};
    poll(&pfd, 1, 5); /* wakes for data, or every 5 ms to check waitpid */
  }
}

static int Usage(void) {
  fprintf(stderr, "usage: raw_drain drain -- CMD...\n       raw_drain spawn [--until TEXT] -- CMD...\n");
  return 2;
}

int main(int argc, char** argv) {
  if (argc < 4) return Usage();
  const char* mode = argv[1];
  int i = 2;
  if (i + 1 < argc && strcmp(argv[i], "--until") == 0) {
    g_until = argv[i + 1];
    i += 2;
  }
  if (i >= argc || strcmp(argv[i], "--") != 0) return Usage();
  char** cmd = argv + i + 1;
  int master, slave;
  if (strcmp(mode, "drain") == 0) {
    double t0 = Now();
    pid_t pid = Spawn(cmd, &master, &slave);
    long bytes = DrainUntilExit(master, pid, NULL);
    double t1 = Now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("{\"bytes\":%ld,\"seconds\":%.6f,\"user\":%.3f,\"sys\":%.3f}\n", bytes, t1 - t0,
           ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6, ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
    return 0;
  }
  if (strcmp(mode, "spawn") == 0) {
    pid_t pid = Spawn(cmd, &master, &slave);
    if (!g_until) {
      printf("ready\n");
      fflush(stdout);
      DrainUntilExit(master, pid, NULL);
      return 0;
    }
    if (DrainUntilExit(master, pid, SeenUntil) >= 0) return 4; /* exited first */
    printf("ready\n");
    fflush(stdout);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return 0;
  }
  return Usage();
}
