"""Measure: an agent CLI's start under tuidriver against the same CLI in tmux
(issue 28, point 4).

For each CLI (and python), in one home against the loopback fake API:
- tuidriver: from Popen to the `ready` line;
- tmux: the same argv, environment and working directory (read from the
  child of a first tuidriver run, /proc/PID/cmdline and environ) started
  with `tmux new-session` on a running tmux server, then polled every 10 ms
  (`capture-pane` and the cursor) until the engine's prompt pattern shows,
  with one of its `started` patterns seen (Gemini draws its tips only on
  its first starts in a home): what a person sees as "it is up"; and
  until the screen then stays unchanged for the engine's `settle_ms`, the
  rule the daemon's `ready` follows (a TUI may draw a dialog right after its
  prompt, and keys typed then are lost).
Rounds alternate the two in a shuffled order. The daemon's share is the
difference of the medians (tuidriver against tmux settled), as a part of the
CLI's own start.
A session id on the command line is replaced by a fresh one for each tmux
run (a CLI refuses an id already used).
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

from agent import DonePredicate, available, py_pattern
from tmux import Tmux

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
E2E = os.path.join(ROOT, "tests", "e2e")
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
COLS, ROWS = 120, 40


def child_launch(pid):
    """The argv, environment and working directory of a running process."""
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        argv = [a.decode() for a in f.read().split(b"\0")[:-1]]
    with open(f"/proc/{pid}/environ", "rb") as f:
        env = dict(kv.decode().split("=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
    # tmux looks argv[0] up on its own PATH, not the one given with -e.
    argv[0] = shutil.which(argv[0], path=env.get("PATH")) or argv[0]
    return argv, env, os.readlink(f"/proc/{pid}/cwd")


def timed_daemon(daemon, td, cli, cwd, env):
    t0 = time.perf_counter()
    d = daemon([td, cli, "--cwd", cwd, "--cols", str(COLS), "--rows", str(ROWS)], env=env)
    try:
        ready = d.wait_for(lambda m: m.get("type") in ("ready", "not_ready", "exit"), timeout=120)
        ms = (time.perf_counter() - t0) * 1000
        if ready.get("type") != "ready":
            raise RuntimeError("%s did not start: %s" % (cli, ready))
        return ms, ready
    finally:
        d.end_input(timeout=30)


def timed_start(tmux, cli, launch, pred, started, settle_ms):
    """(ms to the prompt first shown, ms to the prompt shown on a screen quiet
    for settle_ms), for one start of the CLI in a new session of `tmux`."""
    argv, env, cwd = launch
    argv = [str(uuid.uuid4()) if UUID_RE.match(a) else a for a in argv]
    envs = [x for k, v in env.items() for x in ("-e", "%s=%s" % (k, v))]
    seen = not started  # one of the engine's `started` patterns, as the daemon's `ready` asks
    shown, last, changed = None, None, 0.0
    t0 = time.perf_counter()
    tmux.run("new-session", "-d", "-s", "probe", "-x", COLS, "-y", ROWS, "-c", cwd, *envs, "--", *argv)
    pane_pid = int(tmux.run("display", "-p", "-t", "probe", "#{pane_pid}"))
    try:
        while time.perf_counter() - t0 < 120:
            out = tmux.run("capture-pane", "-p", "-t", "probe", ";", "display", "-p", "-t", "probe",
                           "#{cursor_x} #{cursor_y}").split("\n")
            now = (time.perf_counter() - t0) * 1000
            if out != last:
                last, changed = out, now
            x, y = map(int, out[-2].split())
            lines = out[:ROWS]
            seen = seen or any(p.search(l) for p in started for l in lines)
            if seen and pred.done({"lines": lines, "cursor": {"row": y, "col": x}, "title": ""}):
                shown = shown or now
                if now - changed >= settle_ms:
                    return shown, now
            time.sleep(0.01)
        raise RuntimeError("%s in tmux showed no prompt in 120 s" % cli)
    finally:
        tmux.run("kill-session", "-t", "probe")
        # The SIGHUP of kill-session leaves Gemini CLI running (its node
        # relaunches itself in the same process group): without this,
        # each run left two node processes behind for the measures after.
        try:
            os.killpg(pane_pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def measure_cli(cfg, daemon, tmux, cli, log):
    import homes
    from agent_harness import FakeApi
    api = FakeApi() if cli != "python" else None
    tmp = tempfile.mkdtemp(prefix="tuidriver-bench-ready-%s-" % cli)
    try:
        cwd = os.path.join(tmp, "project")
        os.makedirs(cwd)
        env = dict(os.environ, TUIDRIVER_ENGINES=os.path.join(ROOT, "engines"))
        if api:
            env.update(homes.make_env(cli, os.path.join(tmp, "home"), cwd, api.port))
        # A first start fills the CLI's caches in this home; it also gives the argv to replay.
        d = daemon([cfg.td, cli, "--cwd", cwd, "--cols", str(COLS), "--rows", str(ROWS)], env=env)
        ready = d.wait_for(lambda m: m.get("type") == "ready", timeout=120)
        launch = child_launch(ready["pid"])
        d.end_input(timeout=30)
        with open(os.path.join(ROOT, "engines", cli + ".json")) as f:
            eng = json.load(f)
        started = [py_pattern(p) for p in eng.get("started", [])]
        pred = DonePredicate(cli)
        if "{token}" in eng["command"]:  # the prompt names the token the daemon drew
            token = launch[0][eng["command"].index("{token}")]
            pred.prompt = py_pattern(eng["prompt"]["pattern"].replace("{token}", re.escape(token)))
        settle_ms = eng.get("timeouts", {}).get("settle_ms", 0)
        res = {"tuidriver": [], "tmux": [], "tmux_settled": [], "settle_ms": settle_ms}
        for _ in range(cfg.ready_rounds):
            order = ["tuidriver", "tmux"]
            random.shuffle(order)
            for variant in order:
                if variant == "tuidriver":
                    res[variant].append(timed_daemon(daemon, cfg.td, cli, cwd, env)[0])
                else:
                    shown, settled = timed_start(tmux, cli, launch, pred, started, settle_ms)
                    res["tmux"].append(shown)
                    res["tmux_settled"].append(settled)
        log("ready %s: tuidriver %s ms, tmux prompt %s ms, settled %s ms" % (
            cli, *([round(x) for x in res[k]] for k in ("tuidriver", "tmux", "tmux_settled"))))
        return res
    finally:
        if api:
            api.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def measure(cfg, daemon, log):
    """Returns {cli: {"tuidriver": [ms], "tmux": [ms]} or {"skipped": why}}."""
    if not shutil.which("tmux"):
        return {"python": {"skipped": "tmux is not installed"}}
    # A tmux server of our own (tests/lib/tmux.py), kept running across runs.
    sock_dir = tempfile.mkdtemp(prefix="tuidriver-bench-ready-tmux-")
    tmux = Tmux(sock_dir, COLS, ROWS, command="sleep 3600")
    res = {}
    try:
        for cli in ["python"] + cfg.ready_clis:
            why = available(cli) if cli != "python" else None
            if why:
                res[cli] = {"skipped": why}
                continue
            try:
                res[cli] = measure_cli(cfg, daemon, tmux, cli, log)
            except (RuntimeError, TimeoutError, EOFError, OSError, subprocess.CalledProcessError) as e:
                res[cli] = {"skipped": "failed: %s" % e}
                log("ready %s failed: %s" % (cli, e))
    finally:
        tmux.kill()
        shutil.rmtree(sock_dir, ignore_errors=True)
    return res
