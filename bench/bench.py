#!/usr/bin/env python3
"""tuidriver benchmark suite: tuidriver against its peers and the physical limit,
side by side, in one process, runs interleaved. Run it through bench/run.sh.

Writes results.md (a table per measure: tuidriver, baselines, ratio, target, met
or missed) and chart.svg. These numbers are reports, never pass/fail tests.
"""
import argparse
import datetime
import fcntl
import json
import os
import platform
import pty
import random
import resource
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time

import agent
import lifetime
import pool
import ready
import chart
from stats import median, percentile
from tuiclient import Daemon

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MARKER = "TUIDRIVER-BENCH-END-7f3a9c"  # gen_text.py's END_MARKER


# ---------------------------------------------------------------- helpers

def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def vm_hwm_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def cpu_seconds(pid):
    """utime+stime of one process (not its children), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick


def daemon(argv, env=None):
    """tests/lib's client of the daemon on the measured binary argv[0], lean
    (the timed paths read lines without the tests' checks)."""
    return Daemon(*argv[1:], launcher=argv[:1], env=env, wait_ready=False, lean=True)


def node_ok():
    try:
        r = subprocess.run(["node", "-e", "require('node-pty');require('@xterm/headless')"],
                           cwd=HERE, capture_output=True, timeout=30)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


# ---------------------------------------------------------------- 1. throughput

def tp_raw(cfg, path):
    out = subprocess.run([cfg.raw_drain, "drain", "--", "cat", path], capture_output=True, check=True)
    r = json.loads(out.stdout)
    return {"seconds": r["seconds"], "bytes": r["bytes"], "cpu": r["user"] + r["sys"], "ok": True}


def tp_tuidriver(cfg, path, subscribe, encoding=None):
    """Time from Popen to the `exit` event, which the daemon sends only after every
    byte was read and rendered; then checks that the screen shows the marker."""
    t0 = time.perf_counter()
    if subscribe:
        # The child waits for a line so no byte is written before the subscription.
        d = daemon([cfg.td, "--scrollback", "10000", "--", "sh", "-c", 'read x; exec cat "$1"', "sh", path])
        d.send({"id": "s", "type": "subscribe", "events": ["output"], **({"encoding": encoding} if encoding else {})})
        d.send({"id": "g", "type": "send", "data": "go\n"})
        json_bytes, dropped = drain_events(d)
    else:
        d = daemon([cfg.td, "--scrollback", "10000", "--", "cat", path])
        d.wait_for(lambda m: m.get("type") == "exit", 120)
        json_bytes, dropped = 0, False
    seconds = time.perf_counter() - t0
    cpu = cpu_seconds(d.proc.pid)
    lines = d.request("screen", wait=120)["lines"]
    d.end_input()
    return {"seconds": seconds, "bytes": cfg.tp_bytes, "cpu": cpu, "json_bytes": json_bytes,
            "dropped": dropped, "ok": any(MARKER in l for l in lines)}


EXIT_EVENT = b'"type":"exit"'
DROPPED = re.compile(rb'"output_dropped","bytes":(\d+),')  # whole: the comma ends the number


def drain_events(d):
    """Reads the event stream until the exit event, in chunks of up to 1 MiB, fast
    enough that the daemon never has to drop output events. Returns (bytes, dropped
    bytes). The reader must cost little next to the daemon it measures, as it
    shares the 2 cores with it and `cat`: it reads into one reused buffer and
    looks at the bytes only with C-speed searches (with a regex over every
    chunk, a new bytes object per read and a copy of each, it took 0.22-0.29 s
    of CPU per 100 MB of base64 events instead of 0.14 s)."""
    fd = d.proc.stdout.fileno()
    try:
        fcntl.fcntl(fd, 1031, 1 << 20)  # F_SETPIPE_SZ: ride out the reader's scheduling gaps
    except OSError:
        pass
    keep = 64  # the end of the last chunk, so that a marker split between reads is found
    size = keep + (1 << 20)
    hay = bytearray(max(size, len(d.buf)))
    hay[:len(d.buf)] = d.buf
    end = total = len(d.buf)
    fresh, dropped = 0, 0  # fresh: where the bytes not searched before begin
    while True:
        if hay.find(b"output_dropped", 0, end) >= 0:  # rare: only then the regex
            dropped += sum(int(m.group(1)) for m in DROPPED.finditer(hay, 0, end) if m.end() > fresh)
        at = hay.find(EXIT_EVENT, 0, end)
        if at >= 0:
            rest = bytes(hay[at:end])
            while b"\n" not in rest:  # the exit line's end, if a read split it
                more = os.read(fd, 65536)
                if not more:
                    break
                rest += more
                total += len(more)
            d.buf = rest[rest.index(b"\n") + 1:] if b"\n" in rest else b""
            return total, dropped
        fresh = min(keep, end)
        hay[:fresh] = hay[end - fresh:end]
        n = os.readv(fd, [memoryview(hay)[fresh:size]])
        if not n:
            raise EOFError("tuidriver closed stdout")
        total += n
        end = fresh + n


EVENTS_BASE64 = "tuidriver + subscribe output (base64)"


def tp_node(cfg, path):
    out = subprocess.run(["node", os.path.join(HERE, "node_baseline.mjs"), "throughput", path, MARKER],
                         cwd=HERE, capture_output=True, check=True, timeout=300)
    r = json.loads(out.stdout.decode().strip().splitlines()[-1])
    return {"seconds": r["seconds"], "bytes": r["bytes"], "cpu": r["user"] + r["sys"], "ok": r["rendered"]}


def measure_throughput(cfg):
    variants = [("raw C drain", lambda: tp_raw(cfg, cfg.tp_file)),
                ("tuidriver", lambda: tp_tuidriver(cfg, cfg.tp_file, False)),
                ("tuidriver + subscribe output", lambda: tp_tuidriver(cfg, cfg.tp_file, True)),
                # The encoding the shim (its terminal, toPseudoterminal(), the servers) subscribes with.
                (EVENTS_BASE64, lambda: tp_tuidriver(cfg, cfg.tp_file, True, "base64"))]
    if cfg.node:
        variants.append(("node-pty + @xterm/headless", lambda: tp_node(cfg, cfg.tp_file)))
    if cfg.compare:
        # An older build in the same rounds: before/after without the load in between.
        older = argparse.Namespace(**vars(cfg))
        older.td = os.path.abspath(cfg.compare)
        variants.append((f"tuidriver {cfg.compare_label}", lambda: tp_tuidriver(older, cfg.tp_file, False)))
    runs = {name: [] for name, _ in variants}
    rng = random.Random(7)
    for rnd in range(cfg.tp_rounds):
        order = variants[:]
        rng.shuffle(order)  # interleaved, in a different order each round
        for name, fn in order:
            r = fn()
            r["mbps"] = r["bytes"] / 1e6 / r["seconds"]
            runs[name].append(r)
            log(f"throughput round {rnd + 1}/{cfg.tp_rounds} {name}: {r['mbps']:.1f} MB/s ok={r['ok']}")
    return runs


# ---------------------------------------------------------------- 2. latency

def measure_latency(cfg):
    """The six variants' sessions live side by side and take turns, a block
    of asks each, in a shuffled order each block: interleaved as the other
    measures are, so that the host's drift meets all of them alike."""
    engines = os.path.join(ROOT, "engines")
    variants = {
        "tuidriver ask": lambda: DaemonRepl(cfg, "python"),
        "python3 on a bare PTY (floor)": lambda: BareRepl(["python3", "-i", "-q"], b"6*7\r", b">>> "),
        ENGINE_REPL: lambda: BareRepl(["python3", "-q", "-i", os.path.join(engines, "python_repl.py"), "tok"],
                                      b"\r", b"\x1b]7704;tok\x07>>> ", piped=b"6*7"),
        "tuidriver ask (node)": lambda: DaemonRepl(cfg, "node"),
        "node on a bare PTY (floor)": lambda: BareRepl(["node", "-i"], b"6*7\r", b"> \x1b[3G"),
        ENGINE_REPL_NODE: lambda: BareRepl(["node", "--no-warnings", os.path.join(engines, "node_repl.js"), "tok"],
                                           b"", re.compile(rb"\x1b\]7704;tok\x07> (\x1b\[\d+G)?$"), piped=b"6*7", run=True),
    }
    sessions = {name: make() for name, make in variants.items()}
    names = list(sessions)
    rng = random.Random(5)
    for _ in range(cfg.asks // LATENCY_BLOCK):
        rng.shuffle(names)
        for name in names:
            for _ in range(LATENCY_BLOCK):
                sessions[name].ask()
    res = {name: sessions[name].close() for name in variants}
    for name, v in res.items():
        log(f"latency: {name} p50 {median(v['ms']):.2f} ms p99 {percentile(v['ms'], 99):.2f} ms, bad={v['bad']}")
    res["tuidriver send + 1 s silence"] = quiescence_tuidriver(cfg)
    if cfg.node:
        out = subprocess.run(["node", os.path.join(HERE, "node_baseline.mjs"), "quiet", str(cfg.quiet_n)],
                             cwd=HERE, capture_output=True, check=True, timeout=120)
        r = json.loads(out.stdout.decode().strip().splitlines()[-1])
        res["node-pty + xterm, 1 s silence"] = {"ms": r["ms"], "bad": 0 if r["ok"] else 1}
    return res


LATENCY_BLOCK = 50  # asks a variant takes in one turn


class DaemonRepl:
    """`ask("6*7")` on one session of `engine`, each timed from writing the
    request line to reading the reply line."""

    def __init__(self, cfg, engine):
        self.d = daemon([cfg.td, engine])
        self.d.wait_for(lambda m: m.get("type") == "ready", 120)
        self.ms, self.bad = [], 0

    def ask(self):
        req = (json.dumps({"id": len(self.ms), "type": "ask", "prompt": "6*7"}) + "\n").encode()
        t0 = time.perf_counter_ns()
        os.write(self.d.proc.stdin.fileno(), req)
        r = self.d.read_line(120)
        self.ms.append((time.perf_counter_ns() - t0) / 1e6)
        self.bad += not (r.get("ok") and r.get("text") == "42")

    def close(self):
        hwm_kb = vm_hwm_kb(self.d.proc.pid)
        self.d.end_input()
        return {"ms": self.ms, "bad": self.bad, "hwm_kb": hwm_kb}


# The engine's own REPL code (engines/python_repl.py, node_repl.js) on a bare
# PTY, typed what the daemon types: the REPL's time for an ask as the engine
# runs it, without the daemon.
ENGINE_REPL = "python_repl.py on a bare PTY (the engine's REPL, no daemon)"
ENGINE_REPL_NODE = "node_repl.js on a bare PTY (the engine's REPL, no daemon)"


class BareRepl:
    """The REPL's own speed: it runs on a 120x40 PTY, `line` is typed, the
    output read until the next prompt (bytes it ends with, or a pattern
    that ends it), no emulator. What any driver must wait for at least.
    With `piped` (the code), each ask first writes it to a prompt pipe as the
    daemon does (docs/engines.md), and `line` is typed, with the prompt's
    number in place of a %d (python's Enter alone has none); with `run` too,
    its record says `run` and nothing is typed (node's submit.pipe_only). HOME is an
    empty folder: python3 -i loads ~/.python_history, and readline looks
    through all of it at every line (the engines keep no history file)."""

    def __init__(self, argv, line, prompt, piped=None, run=False):
        self.line, self.piped, self.ms = line, piped, []
        self.flag = b" run" if run else b""
        self.home = tempfile.mkdtemp(prefix="tuidriver-bench-home-")
        self.pipe_r = self.pipe_w = -1
        if piped is not None:
            self.pipe_r, self.pipe_w = os.pipe()
            os.set_inheritable(self.pipe_r, True)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update(PYTHON_BASIC_REPL="1", NODE_DISABLE_COLORS="1", NODE_REPL_HISTORY="", HOME=self.home)
            # As the python engine runs it: unbuffered, C's stdout would take
            # readline's prompt a character a write.
            os.environ.pop("PYTHONUNBUFFERED", None)
            if piped is not None:
                os.environ["TUIDRIVER_PROMPT_FD"] = str(self.pipe_r)
            os.execvp(argv[0], argv)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.ends = (lambda b: prompt.search(b) is not None) if hasattr(prompt, "search") else (
            lambda b: b.endswith(prompt))
        buf = b""
        while not self.ends(buf):
            buf += os.read(self.fd, 65536)

    def ask(self):
        number, buf = len(self.ms) + 1, b""
        t0 = time.perf_counter_ns()
        if self.piped is not None:
            os.write(self.pipe_w, b"%d %d%s\n%s" % (number, len(self.piped), self.flag, self.piped))
        if self.line:
            os.write(self.fd, self.line % number if b"%d" in self.line else self.line)
        while not (b"42\r\n" in buf and self.ends(buf)):
            buf += os.read(self.fd, 65536)
        self.ms.append((time.perf_counter_ns() - t0) / 1e6)

    def close(self):
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        for f in (self.fd, self.pipe_r, self.pipe_w):
            if f >= 0:
                os.close(f)
        shutil.rmtree(self.home, ignore_errors=True)
        return {"ms": self.ms, "bad": 0}


def quiescence_tuidriver(cfg):
    """What an idle-window driver built on tuidriver would do: type the line with
    `send`, then wait until the output events have been silent for 1 s."""
    d = daemon([cfg.td, "python"])
    d.wait_for(lambda m: m.get("type") == "ready", 120)
    d.request("subscribe", wait=120, events=["output"])
    ms, bad = [], 0
    for i in range(cfg.quiet_n):
        t0 = time.perf_counter_ns()
        d.send({"id": f"q{i}", "type": "send", "data": "6*7\r"})
        last = time.perf_counter_ns()
        while True:
            try:
                d.read_line(timeout=max(0.0, 1.0 - (time.perf_counter_ns() - last) / 1e9))
                last = time.perf_counter_ns()  # any event restarts the window
            except TimeoutError:
                break
        ms.append((time.perf_counter_ns() - t0) / 1e6)
        lines = d.request("screen", wait=120)["lines"]
        bad += "42" not in lines
    d.end_input()
    return {"ms": ms, "bad": bad}


# ---------------------------------------------------------------- 4. startup

def time_to_first_line(argv, env=None, pred=lambda line: True):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env, bufsize=0)
    buf = b""
    while True:
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            raise EOFError(f"{argv[0]} printed no ready line")
        buf += chunk
        if b"\n" in buf and pred(buf.split(b"\n", 1)[0]):
            break
    ms = (time.perf_counter() - t0) * 1000
    p.stdin.close()
    p.wait(timeout=20)
    return ms


def bash_env():
    env = dict(os.environ, PS1="tuidriver$ ", PS2="tuidriver> ", HISTFILE="/dev/null", TERM="xterm-256color")
    for k in ("PROMPT_COMMAND", "BASH_ENV", "ENV"):
        env.pop(k, None)
    return env


NOFILE = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
DIAG_NOFILE = f"diagnosis: tuidriver -- true under prlimit --nofile=1024 (here: {NOFILE})"
DIAG_NOFILE_HELPER = "diagnosis: C helper true under prlimit --nofile=1024"


def measure_startup(cfg):
    variants = {
        "tuidriver bash": lambda: time_to_first_line([cfg.td, "bash"]),
        "C helper: bash on a PTY until its prompt": lambda: time_to_first_line(
            [cfg.raw_drain, "spawn", "--until", "tuidriver$ ", "--", "bash", "--noprofile", "--norc"], env=bash_env()),
        "tuidriver -- true": lambda: time_to_first_line([cfg.td, "--", "true"]),
        "C helper: true on a PTY": lambda: time_to_first_line([cfg.raw_drain, "spawn", "--", "true"]),
        "tuidriver --version (exec floor)": lambda: time_to_first_line([cfg.td, "--version"]),
    }
    if shutil.which("prlimit"):  # (a preexec_fn would cost Python a full fork: ~17 ms of noise)
        variants[DIAG_NOFILE] = lambda: time_to_first_line(["prlimit", "--nofile=1024", cfg.td, "--", "true"])
        variants[DIAG_NOFILE_HELPER] = lambda: time_to_first_line(
            ["prlimit", "--nofile=1024", cfg.raw_drain, "spawn", "--", "true"])
    runs = {k: [] for k in variants}
    rng = random.Random(11)
    names = list(variants)
    for _ in range(cfg.startup_n):
        rng.shuffle(names)
        for k in names:
            runs[k].append(variants[k]())
    for k, v in runs.items():
        log(f"startup {k}: median {median(v):.2f} ms")
    return runs


# ---------------------------------------------------------------- 5. memory

def hold_hwm(argv, ready, settle=0.3, cwd=None):
    """Starts argv, waits for ready(proc) to return, lets it settle, reads VmHWM."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=cwd, bufsize=0)
    try:
        extra = ready(p)
        time.sleep(settle)
        return vm_hwm_kb(p.pid), extra
    finally:
        p.stdin.close()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def first_line(p):
    return p.stdout.readline()


def measure_memory(cfg):
    res = {}

    def td_idle(p):
        while json.loads(p.stdout.readline()).get("type") != "ready":
            pass

    def td_lines(p):
        os.write(p.stdin.fileno(), (json.dumps({"id": 1, "type": "expect", "pattern": MARKER,
                                                "timeout_ms": 120000}) + "\n").encode())
        while True:
            m = json.loads(p.stdout.readline())
            if m.get("id") == 1:
                return m.get("ok")

    res["tuidriver bash, idle"] = hold_hwm([cfg.td, "bash"], td_idle)[0]
    kb, ok = hold_hwm([cfg.td, "--scrollback", "10000", "--", "sh", "-c",
                       'cat "$1"; exec sleep 600', "sh", cfg.mem_file], td_lines)
    res["tuidriver, 100,000 lines, 10,000 scrollback"] = kb if ok else -1
    if cfg.node:
        nb = os.path.join(HERE, "node_baseline.mjs")
        res["node-pty + xterm, bash idle"] = hold_hwm(["node", nb, "hold", "-", MARKER], first_line, cwd=HERE)[0]
        res["node-pty + xterm, 100,000 lines, 10,000 scrollback"] = hold_hwm(
            ["node", nb, "hold", cfg.mem_file, MARKER], first_line, cwd=HERE)[0]
    res["bare python3 (idle interpreter)"] = hold_hwm(
        ["python3", "-c", "import sys; print(1, flush=True); sys.stdin.read()"], first_line)[0]
    for k, v in res.items():
        log(f"memory {k}: {v / 1024:.1f} MB")
    return res


# ---------------------------------------------------------------- 6. binary

def measure_binary(cfg):
    with tempfile.TemporaryDirectory() as tmp:
        s = os.path.join(tmp, "tuidriver")
        shutil.copy(cfg.td, s)
        subprocess.run(["strip", s], check=True)
        size = os.path.getsize(s)
    out = subprocess.run(["readelf", "-d", cfg.td], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\).*\[(.+?)\]", out)
    headers = subprocess.run(["readelf", "-lW", cfg.td], capture_output=True, text=True, check=True).stdout
    return {"unstripped": os.path.getsize(cfg.td), "stripped": size, "needed": needed,
            "interp": "INTERP" in headers}


# ---------------------------------------------------------------- profiles

def run_until_exit(argv):
    """Runs a tuidriver command line (perhaps under perf) with stdin held open until
    the exit event, as a real client would; returns its stderr."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for line in p.stdout:
        if b'"type":"exit"' in line:
            break
    p.stdin.close()
    p.stdout.read()
    err = p.stderr.read()
    p.wait(timeout=300)
    return p.returncode, err.decode(errors="replace")


def perf_top(data, comm, n=18):
    rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "symbol",
                          "--comm", comm], capture_output=True, text=True)
    lines = [re.sub(r"[\s-]+$", "", l) for l in rep.stdout.splitlines() if l.strip() and not l.startswith("#")]
    return lines[:n]


def profile_throughput(cfg):
    """perf (sampling, cpu-clock) of the daemon rendering the profile input,
    falling back to callgrind on a smaller input. Returns (markdown, top lines)."""
    argv = [cfg.td, "--scrollback", "10000", "--", "cat", cfg.prof_file]
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        rc, stat = run_until_exit(["perf", "stat", "-e", "task-clock,context-switches,page-faults", "--"] + argv)
        if rc == 0 and run_until_exit(["perf", "record", "-F", "4999", "-o", data, "--"] + argv)[0] == 0:
            tops = perf_top(data, "tuidriver")
            keep = [l.strip() for l in stat.splitlines()
                    if any(w in l for w in ("task-clock", "context-switches", "page-faults", "elapsed", "user", "sys"))]
            md = (f"`perf stat` of `tuidriver -- cat` on {os.path.getsize(cfg.prof_file) / 1e6:.0f} MB of the same "
                  "text (the daemon and `cat`, which perf follows as its child):\n\n"
                  "```\n" + "\n".join(keep) + "\n```\n\n"
                  "`perf record -F 4999` (cpu-clock samples of the `tuidriver` process, self time, "
                  "kernel symbols `[k]`):\n\n```\n" + "\n".join(tops) + "\n```\n")
            return md, tops
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run_until_exit(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", cfg.td, "--", "cat",
                        cfg.prof_small])
        ann = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
        tops = [l for l in ann.splitlines() if re.match(r"^\s*[\d,]+ \(", l)][:18]
        md = "`valgrind --tool=callgrind` (instructions, self):\n\n```\n" + "\n".join(tops) + "\n```\n"
        return md, tops


EMULATOR_FILES = ("/daemon/vt_parser.", "/daemon/terminal.", "/daemon/screen_write.", "/daemon/grid.",
                  "/daemon/grid_reflow.")
EMULATOR_CLASSES = ("Terminal::", "Screen::", "VtParser::", "Grid::", "GridLine::")


def callgrind_split(cfg):
    """Instruction counts (load-independent) of the daemon rendering the 3 MB
    input under callgrind, self cost grouped into the emulator (parser and
    screen), the rest of the daemon, the character widths and libc. Returns (markdown,
    groups, total, size) or None without valgrind."""
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run_until_exit(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", cfg.td,
                        "--scrollback", "10000", "--", "cat", cfg.prof_small])
        ann = subprocess.run(["callgrind_annotate", "--threshold=100", out], capture_output=True, text=True).stdout
    rows = []
    for l in ann.splitlines():
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+?):(.+?)(?: \[(.*)\])?$", l)
        if m and "PROGRAM TOTALS" not in l:
            rows.append((int(m.group(1).replace(",", "")), m.group(2), m.group(3).strip(), m.group(4) or ""))
    total = sum(r[0] for r in rows)
    if not total:
        return None
    groups = {"the emulator (daemon/vt_parser.cc, daemon/terminal.cc)": 0,
              "the rest of the daemon (PTY, ppoll loop, protocol)": 0,
              # The emulator's CharWidth is inline (daemon/utf8.h): its cost counts there.
              "character widths (CharWidth outside the emulator)": 0,
              "libc (memset, memchr, malloc, syscall stubs...)": 0, "other (libstdc++, startup)": 0}
    keys = list(groups)
    for ir, path, fn, obj in rows:
        if any(f in path for f in EMULATOR_FILES) or any(c in fn for c in EMULATOR_CLASSES):
            groups[keys[0]] += ir
        elif "CharWidth" in fn or "utf8proc" in fn or "utf8proc" in path:
            groups[keys[2]] += ir
        elif "/daemon/" in path or "tuidriver::" in fn:
            groups[keys[1]] += ir
        # A static binary has libc inside, without debug info: its C symbols have no file.
        elif "libc.so" in obj or path.startswith("./") or (path == "???" and "::" not in fn
                                                             and not fn.startswith("operator ")):
            groups[keys[3]] += ir
        else:
            groups[keys[4]] += ir
    size = os.path.getsize(cfg.prof_small)
    top = [f"{ir:>13,}  {ir / total:6.1%}  {fn[:90]}" for ir, _, fn, _ in sorted(rows, reverse=True)[:16]]
    md = (f"`valgrind --tool=callgrind` of `tuidriver --scrollback 10000 -- cat` on {size / 1e6:.0f} MB of the same "
          f"text: {total:,} instructions in user space, {total / size:.0f} per byte (instruction counts do not "
          "depend on the machine's load). Self cost by owner:\n\n| code | instructions | share | per byte |\n"
          "|---|---|---|---|\n" +
          "".join(f"| {k} | {v:,} | {v / total:.0%} | {v / size:.0f} |\n" for k, v in groups.items()) +
          "\nTop functions (self):\n\n```\n" + "\n".join(top) + "\n```\n")
    return md, {k: v for k, v in groups.items()}, total, size


def callgrind_subscribed(cfg):
    """Instructions of the daemon on the same 3 MB with every byte out as
    `output` events (the child waits for a line, so the subscription comes
    first; stdout is read in big chunks). None without valgrind."""
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        d = daemon(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", cfg.td, "--scrollback", "10000",
                    "--", "sh", "-c", 'read x; exec cat "$1"', "sh", cfg.prof_small])
        d.send({"id": "s", "type": "subscribe", "events": ["output"]})
        d.send({"id": "g", "type": "send", "data": "go\n"})
        drain_events(d)
        d.close()
        ann = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
    m = re.search(r"^\s*([\d,]+) \(.*PROGRAM TOTALS", ann, re.M)
    return int(m.group(1).replace(",", "")) if m else None


def profile_startup(cfg):
    """perf of 30 raw-session startups: where the daemon's own milliseconds go."""
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        loop = f'for i in $(seq 30); do "$0" -- true </dev/null >/dev/null 2>&1; done'
        r = subprocess.run(["perf", "record", "-F", "10000", "-o", data, "--", "sh", "-c", loop, cfg.td],
                           capture_output=True, timeout=300)
        if r.returncode != 0:
            return None
        tops = perf_top(data, "tuidriver", 12)
    try:
        nofile = subprocess.run(["sh", "-c", "ulimit -n"], capture_output=True, text=True).stdout.strip()
    except OSError:
        nofile = "?"
    md = (f"`perf record -F 10000` over 30 runs of `tuidriver -- true` (self time of the `tuidriver` "
          f"processes, which includes the forked child until it execs; `ulimit -n` here is {nofile}):\n\n"
          "```\n" + "\n".join(tops) + "\n```\n")
    return md, tops


# ---------------------------------------------------------------- report

def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem_kb = 0
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    return {"nproc": os.cpu_count(), "cpu": cpu, "kernel": platform.release(), "mem_gb": mem_kb / 1024 / 1024}


def versions(cfg):
    def ver(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "?"
    v = {"tuidriver": ver([cfg.td, "--version"]), "node": ver(["node", "--version"]),
         "python3": platform.python_version(),
         "commit": ver(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]),
         "binary": os.path.relpath(cfg.td, ROOT)}
    for pkg in ("node-pty", "@xterm/headless"):
        try:
            with open(os.path.join(HERE, "node_modules", pkg, "package.json")) as f:
                v[pkg] = json.load(f)["version"]
        except OSError:
            v[pkg] = "not installed"
    return v




def write_results(cfg, r):
    import report  # the markdown layout lives in report.py
    text, missed = report.render(cfg, r, machine(), r.get("versions") or versions(cfg))
    with open(cfg.out, "w") as f:
        f.write(text)
    with open(cfg.chart, "w") as f:
        f.write(chart.render(r))
    return missed


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tuidriver", required=True)
    ap.add_argument("--raw-drain", required=True)
    ap.add_argument("--cache", required=True, help="where the generated inputs live")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "results.md"))
    ap.add_argument("--chart", default=os.path.join(HERE, "chart.svg"))
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--rerender", action="store_true",
                    help="rewrite results.md and chart.svg from the last run's measurements (cache/last-run.json)")
    ap.add_argument("--compare", help="an older tuidriver binary to run beside it in the throughput rounds")
    ap.add_argument("--compare-label", default="(older build)", help="its name in the tables")
    ap.add_argument("--only", default="binary,startup,memory,latency,agent,pool,lifetime,ready,throughput",
                    help="comma-separated measures to run (the others are left out of results.md)")
    ap.add_argument("--agents", default="claude,codex,gemini,opencode,kilo,pi,copilot,cline,qwen", help="comma-separated CLIs for the agent measure")
    cfg = ap.parse_args()
    cfg.agent_clis = cfg.agents.split(",")
    cfg.td = os.path.abspath(cfg.tuidriver)
    cfg.raw_drain = os.path.abspath(cfg.raw_drain)
    cfg.node = node_ok()
    if not cfg.node:
        log("node-pty/@xterm/headless unavailable: node baselines are skipped")
    mb = 25 if cfg.quick else 100
    cfg.tp_mb = mb
    cfg.tp_rounds = 3 if cfg.quick else 5
    cfg.asks = 300 if cfg.quick else 1000
    cfg.quiet_n = 2 if cfg.quick else 5
    cfg.startup_n = 8 if cfg.quick else 25
    cfg.agent_asks = 10 if cfg.quick else 20
    cfg.agent_idle = 2 if cfg.quick else 4
    cfg.pool_rounds = 3 if cfg.quick else 5
    cfg.ready_rounds = 3 if cfg.quick else 7
    cfg.ready_clis = [c for c in cfg.agent_clis if c in ("claude", "codex", "gemini")]
    cfg.life_asks = 100 if cfg.quick else 300
    cfg.life_turns = 300 if cfg.quick else 1000
    only = set(cfg.only.split(","))
    cfg.tp_file = gen(cfg, f"text-{mb}mb.txt", ["--mb", str(mb)])
    cfg.mem_file = gen(cfg, "lines-100k.txt", ["--lines", "100000"])
    cfg.prof_file = gen(cfg, "text-25mb.txt", ["--mb", "25"])
    cfg.prof_small = gen(cfg, "text-3mb.txt", ["--mb", "3"])
    with open(cfg.tp_file, "rb") as f:
        data = f.read()
    cfg.tp_bytes = len(data) + data.count(b"\n")  # the PTY turns LF into CR LF
    del data

    saved = os.path.join(cfg.cache, "last-run.json")
    if cfg.rerender:
        # Only the report: the measurements of the last run, rendered again.
        with open(saved) as f:
            r = json.load(f)
        missed = write_results(cfg, r)
        log(f"rewrote {cfg.out} and {cfg.chart} from {saved}; missed targets: {missed or 'none'}")
        return
    r = {"started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    t0 = time.monotonic()
    steps = [("binary", lambda: measure_binary(cfg)), ("startup", lambda: measure_startup(cfg)),
             ("memory", lambda: measure_memory(cfg)), ("latency", lambda: measure_latency(cfg)),
             ("agent", lambda: agent.measure(cfg, daemon, log)),
             ("pool", lambda: pool.measure(cfg, log)),
             ("lifetime", lambda: lifetime.measure(cfg, daemon, log)),
             ("ready", lambda: ready.measure(cfg, daemon, log)),
             ("throughput", lambda: measure_throughput(cfg))]
    for name, fn in steps:
        if name in only:
            log(name)
            before = os.getloadavg()[0]
            r[name] = fn()
            r.setdefault("load", {})[name] = (before, os.getloadavg()[0])
            with open(saved, "w") as f:  # a later failure keeps what was measured (--rerender)
                json.dump(r, f)
    import report
    r["profile"] = None
    if "throughput" in only and not cfg.no_profile:
        if report.throughput_ratio(r) < 0.90:
            log("throughput target missed: profiling the daemon")
            r["profile"] = profile_throughput(cfg)
        # Instruction counts do not depend on the load: always worth reporting.
        log("counting the daemon's instructions per byte with callgrind")
        r["callgrind"] = callgrind_split(cfg)
        r["callgrind_subscribed"] = callgrind_subscribed(cfg)
    r["profile_startup"] = None
    if "startup" in only and not cfg.no_profile and report.startup_share(r) >= report.TARGET_STARTUP_MS:
        log("startup target missed: profiling the daemon")
        r["profile_startup"] = profile_startup(cfg)
    r["elapsed_s"] = time.monotonic() - t0
    r["versions"] = versions(cfg)
    with open(saved, "w") as f:
        json.dump(r, f)
    missed = write_results(cfg, r)
    log(f"wrote {cfg.out} and {cfg.chart} in {r['elapsed_s']:.0f} s; missed targets: {missed or 'none'}")


def gen(cfg, name, args):
    path = os.path.join(cfg.cache, name)
    if not os.path.exists(path):
        log(f"generating {name}")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_text.py"), path + ".tmp"] + args, check=True)
        os.rename(path + ".tmp", path)
    return path


if __name__ == "__main__":
    main()
