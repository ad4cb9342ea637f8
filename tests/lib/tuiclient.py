"""The one NDJSON client of the real tuidriver binary, for the integration
tests, the end-to-end tests and the bench.

The binary comes from $TUIDRIVER_BIN (ctest sets it), else build/tuidriver.
tests/lib is on PYTHONPATH: ctest sets it, and `tests/py FILE` runs one file
by hand. The programs the tests drive are in tests/programs (PROGRAMS).
"""
import json
import os
import queue
import select
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("TUIDRIVER_BIN", os.path.join(ROOT, "build", "tuidriver"))
PROGRAMS = os.path.join(ROOT, "tests", "programs")


def program(name):
    """The path of a helper program in tests/programs."""
    return os.path.join(PROGRAMS, name)


def _check_text(value):
    """Raises if a decoded JSON value holds a lone surrogate (\\ud800 escapes
    decode fine in Python but are not UTF-8)."""
    if isinstance(value, str):
        value.encode("utf-8")
    elif isinstance(value, list):
        for v in value:
            _check_text(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_text(k)
            _check_text(v)


def parse_line(line: bytes):
    """One stdout line: strict UTF-8, one JSON object. Raises otherwise, so
    every test checks the stream is never corrupted."""
    obj = json.loads(line.decode("utf-8"))
    if not isinstance(obj, dict):
        raise ValueError("tuidriver printed a line that is not a JSON object: %r" % line[:200])
    _check_text(obj)
    return obj


class PipeReader:
    """Reads one of the daemon's pipes with a deadline. POSIX: select() on it,
    then one read. Windows, whose select() takes sockets only: a thread reads
    the pipe into a queue from the start, and the deadline is the queue's."""

    def __init__(self, pipe, threaded):
        self.pipe = pipe
        self.chunks = None
        self.eof = False
        if threaded:
            self.chunks = queue.Queue()
            threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        while True:
            try:
                chunk = os.read(self.pipe.fileno(), 65536)
            except (OSError, ValueError):  # closed by release()
                chunk = b""
            self.chunks.put(chunk)
            if not chunk:
                return

    def read(self, timeout):
        """The next bytes, b"" at end of file, None if none came within
        `timeout` s (0: only what is there now)."""
        if self.chunks is None:
            if not select.select([self.pipe], [], [], timeout)[0]:
                return None
            # (64 KiB, as the bench's floors read the PTY: a read of
            # 1 MiB costs Python an mmap and munmap each, 12 us.)
            return os.read(self.pipe.fileno(), 65536)
        if self.eof:
            return b""
        try:
            chunk = self.chunks.get(timeout=timeout) if timeout > 0 else self.chunks.get_nowait()
        except queue.Empty:
            return None
        self.eof = not chunk
        return chunk

    def available(self):
        """The bytes there now, or None. The thread lags behind the pipe: what
        it brings within 0.2 s counts."""
        return self.read(0 if self.chunks is None else 0.2)

    def rest(self):
        """What is left once the process has exited: bytes until the end of
        file, or until none are there (a grandchild may hold the pipe). The
        thread may lag behind the exit: it gets a second."""
        out = b""
        while True:
            chunk = self.read(0 if self.chunks is None else 1)
            if not chunk:
                return out
            out += chunk


class Daemon:
    """One tuidriver process. Lines are read with a deadline, never forever.
    `launcher` replaces the binary's path in the command line (e.g. `chroot DIR /tuidriver`).
    `lean` is for the bench's timed paths: stderr is dropped, lines are parsed
    without the UTF-8 walk, and messages no one waits for are not kept.
    `threaded_reads`: read the pipes with threads (PipeReader), as on Windows."""

    def __init__(self, *args, env=None, wait_ready=True, timeout=20, pass_fds=(), launcher=None, lean=False,
                 threaded_reads=os.name == "nt"):
        full_env = dict(os.environ)
        full_env.setdefault("TUIDRIVER_ENGINES", os.path.join(ROOT, "engines"))
        if env:
            full_env.update(env)
        self.proc = subprocess.Popen(
            [*(launcher or [BIN]), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if lean else subprocess.PIPE, env=full_env, pass_fds=pass_fds)
        self.stdout = PipeReader(self.proc.stdout, threaded_reads)
        self.stderr = PipeReader(self.proc.stderr, threaded_reads) if self.proc.stderr else None
        self.lean = lean
        self.buf = b""  # read, not yet parsed (the bench's drain reads raw bytes past it)
        self.events = []  # lines read while waiting for something else
        self.stderr_rest = b""  # stderr's last bytes, read by release()
        self.next_id = 1
        self.ready = None
        if wait_ready:
            self.ready = self.wait_for(lambda m: m.get("type") == "ready", timeout)

    # -- low level ----------------------------------------------------------
    def send_raw(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj):
        self.send_raw((json.dumps(obj) + "\n").encode())

    def read_line(self, timeout=10):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no line from tuidriver within %.1fs; stderr: %s" % (
                    timeout, self.stderr_tail()))
            chunk = self.stdout.read(left)
            if chunk == b"":
                raise EOFError("tuidriver closed stdout; stderr: %s" % self.stderr_tail())
            if chunk:
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line) if self.lean else parse_line(line)

    def wait_for(self, pred, timeout=10):
        """Returns the first message matching pred; earlier ones go to events."""
        for i, m in enumerate(self.events):
            if pred(m):
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            m = self.read_line(max(0.01, deadline - time.monotonic()))
            if pred(m):
                return m
            if not self.lean:
                self.events.append(m)

    def request(self, type_, wait=30, **fields):
        """Sends one request and returns its reply, waiting at most `wait` s.
        Durations go on the wire in ms (`timeout_ms`); the older `timeout` in
        seconds is refused here, so one spelling is taught (test_protocol's
        test_timeout_ms sends it with send(), to prove the daemon takes it)."""
        if "timeout" in fields:
            raise TypeError("request(%r): send timeout_ms, not timeout (seconds)" % type_)
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "type": type_, **fields})
        return self.wait_for(lambda m: m.get("id") == rid and m.get("type") == "reply", wait)

    def wait_screen(self, pred, timeout=10):
        """Polls `screen` until pred(screen) holds; returns the last screen."""
        deadline = time.monotonic() + timeout
        while True:
            s = self.request("screen")
            if pred(s) or time.monotonic() > deadline:
                return s
            self.request("wait_idle", idle_ms=20, timeout_ms=1000)

    def ask(self, prompt, timeout_ms=30000, **fields):
        """One ask; its reply is waited for 5 s past the ask's own timeout."""
        return self.request("ask", wait=timeout_ms / 1000 + 5, prompt=prompt, timeout_ms=timeout_ms, **fields)

    def close(self, timeout=15):
        """Ends the session with a `close` request, waits for the process to
        exit and releases it (release()); returns the close's reply."""
        try:
            reply = self.request("close", wait=timeout)
            self.proc.wait(timeout=timeout)
            return reply
        finally:
            self.release()

    def release(self):
        """Kills the process if it still runs and closes its pipes; what it had
        left on stderr is kept in `stderr_rest` (bytes)."""
        self.kill()
        if self.proc.stderr is not None and not self.proc.stderr.closed:
            # It has exited, so its writes are all in the pipe: read until
            # EOF or until nothing more is there (a grandchild may hold it).
            self.stderr_rest += self.stderr.rest()
        for f in filter(None, (self.proc.stdin, self.proc.stdout, self.proc.stderr)):
            try:
                f.close()
            except OSError:
                pass

    def end_input(self, timeout=10):
        """Closes the daemon's stdin, which ends it; kills it after `timeout` s."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def stderr_tail(self):
        if self.proc.stderr is None:  # lean: dropped
            return ""
        if self.proc.stderr.closed:  # released
            return self.stderr_rest.decode(errors="replace")[-2000:]
        try:
            chunk = self.stderr.available()
            if chunk:
                return chunk.decode(errors="replace")[-2000:]
        except (OSError, ValueError):
            pass
        return ""

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()


# For a daemon whose memory a test measures: under AddressSanitizer freed
# memory waits in a 256 MiB quarantine, which would hide what is live.
MEASURED_MEMORY_ENV = {"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0"}


def _status_kib(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError("no %s for pid %d" % (field, pid))


def peak_rss_kib(pid):
    """The most memory a process has held (VmHWM), in KiB (Linux /proc)."""
    return _status_kib(pid, "VmHWM")


def rss_kib(pid):
    """The memory a process holds now (VmRSS), in KiB (Linux /proc)."""
    return _status_kib(pid, "VmRSS")


def cpu_seconds(pid):
    """User plus system CPU time a process has used (Linux /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_once(args, stdin_text, timeout=30, env=None):
    """Runs tuidriver to completion with stdin_text; returns (code, messages, stderr)."""
    full_env = dict(os.environ)
    full_env.setdefault("TUIDRIVER_ENGINES", os.path.join(ROOT, "engines"))
    if env:
        full_env.update(env)
    p = subprocess.run([BIN, *args], input=stdin_text.encode(), capture_output=True,
                       timeout=timeout, env=full_env)
    msgs = [parse_line(l) for l in p.stdout.split(b"\n") if l.strip()]
    return p.returncode, msgs, p.stderr.decode(errors="replace")
