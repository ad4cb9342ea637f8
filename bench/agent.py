"""Measure 3: completion overhead on the agent CLIs.

The genuine Claude Code and Codex CLIs (tests/e2e/node_modules) run under
tuidriver against the loopback fake model API (tests/e2e/fake_api.mjs), which
stamps the wall-clock time at which it wrote the last byte of each streamed
turn. For every ask the bench records, on the same wall clock:

  stream_end  the fake API finished streaming the turn (/_control/state)
  tui_done    the first output event after stream_end whose screen shows the
              engine's finished state (prompt on the cursor line, no busy
              pattern, no busy OSC): the bench subscribes to output and asks
              for `screen` after output events (one request in flight at most)
  last_out    the last output event before the reply
  recorded    the CLI last changed its transcript (a file under the engine's
              transcript.path, polled every 2 ms) before the reply: when the
              turn the daemon waits for was written
  reply       the ask's reply line arrives

and reports reply - stream_end (the completion overhead a client sees), split
into the TUI's own delay (tui_done - stream_end) and the daemon's (reply -
tui_done). Beside it, in the same session, an idle-window driver: paste the
prompt, press Enter, and call the turn finished after 2 s without output.
"""
import glob
import json
import os
import re
import shutil
import tempfile
import threading
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
IDLE_WINDOW_S = 2.0
DEBUG = os.environ.get("BENCH_AGENT_DEBUG")


def available(cli):
    """None when the CLI can be benchmarked, else why not."""
    import homes
    if not shutil.which("node"):
        return "node is not installed"
    if not os.path.exists(homes.EXECUTABLES[cli]):
        return "%s is not installed (npm ci --ignore-scripts in tests/e2e)" % cli
    return None


def py_pattern(p):
    """RE2 engine patterns as Python patterns (\\x{a0} is the one spelling that differs)."""
    return re.compile(re.sub(r"\\x\{([0-9a-fA-F]+)\}", lambda m: "\\u%04x" % int(m.group(1), 16), p))


def prefix_columns(line, cols):
    """The first `cols` columns of a screen line (blanks kept), as the
    daemon's cursor_line scope sees them: text left of the cursor."""
    out, used = [], 0
    for ch in line:
        w = 2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1
        if used + w > cols:
            break
        out.append(ch)
        used += w
    return "".join(out) + " " * (cols - used)


class TranscriptWatch:
    """Stamps every change of the CLI's transcript files (mtime or size), as
    seen by a 2 ms poll: the files engines/<cli>.json's transcript.path
    names, with its placeholders as wildcards (SQLite's -wal beside its db;
    not its -shm, which readers write to, the daemon among them)."""

    def __init__(self, cli, home):
        with open(os.path.join(ROOT, "engines", cli + ".json")) as f:
            path = json.load(f)["transcript"]["path"]
        self.pattern = re.sub(r"\{[a-z_]+\}", "*", path.replace("{home}", home)) + "*"
        self.changes = []
        self._last = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(0.002):
            state = []
            for p in glob.glob(self.pattern):
                if p.endswith("-shm"):
                    continue
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                state.append((p, st.st_mtime_ns, st.st_size))
            state.sort()
            if state != self._last:
                self.changes.append(time.time())
                self._last = state

    def last_before(self, t, since):
        """The last change in (since, t], or None."""
        return max((c for c in self.changes if since < c <= t), default=None)

    def stop(self):
        self._stop.set()
        self._thread.join()


class DonePredicate:
    """The engine's finished state, judged from a `screen` reply and the last
    busy OSC payload seen in the output, as the daemon's ScreenMatcher does."""

    def __init__(self, cli):
        with open(os.path.join(ROOT, "engines", cli + ".json")) as f:
            eng = json.load(f)
        self.prompt = py_pattern(eng["prompt"]["pattern"])
        self.prompt_scope = eng["prompt"].get("scope", "cursor_line")
        self.busy = [py_pattern(b if isinstance(b, str) else b["pattern"]) for b in eng.get("busy", [])]
        self.osc = eng.get("busy_osc", 0)
        self.osc_busy = py_pattern(eng["busy_osc_pattern"]) if eng.get("busy_osc_pattern") else None
        self.osc_re = re.compile(r"\x1b\]%d;([^\x07\x1b]*)(?:\x07|\x1b\\)" % self.osc) if self.osc else None
        self.osc_payload = ""
        self.title_busy = py_pattern(eng["busy_title"]) if eng.get("busy_title") else None

    def feed(self, data):
        if self.osc_re:
            for m in self.osc_re.finditer(data):
                self.osc_payload = m.group(1)

    def done(self, screen):
        lines = screen["lines"]
        if any(b.search(l) for b in self.busy for l in lines):
            return False
        if self.osc_busy and self.osc_payload and self.osc_busy.search(self.osc_payload):
            return False
        if self.title_busy and self.title_busy.search(screen["title"]):
            return False
        if self.prompt_scope == "cursor_line":
            row = screen["cursor"]["row"]
            line = lines[row] if row < len(lines) else ""
            return bool(self.prompt.search(prefix_columns(line, screen["cursor"]["col"])))
        return any(self.prompt.search(l) for l in lines)


class AgentBench:
    """One fake API, one fresh home and one tuidriver session on the CLI."""

    def __init__(self, cfg, daemon, cli):
        import homes
        from agent_harness import FakeApi
        self.cli = cli
        self.api = FakeApi()
        self.tmp = tempfile.mkdtemp(prefix="tuidriver-bench-%s-" % cli)
        home, cwd = os.path.join(self.tmp, "home"), os.path.join(self.tmp, "project")
        os.makedirs(cwd)
        env = dict(os.environ, TUIDRIVER_ENGINES=os.path.join(ROOT, "engines"))
        env.update(homes.make_env(cli, home, cwd, self.api.port))
        self.d = daemon([cfg.td, cli, "--cwd", cwd], env=env)
        self.d.wait_for(lambda m: m.get("type") == "ready", timeout=90)
        self.d.request("subscribe", wait=120, events=["output"])
        self.watch = TranscriptWatch(cli, home)
        self.pred = DonePredicate(cli)
        self.n = 0
        self.debug = []

    def close(self):
        if hasattr(self, "watch"):
            self.watch.stop()
        try:
            self.d.send({"id": "close", "type": "close"})
            self.d.end_input()
        finally:
            self.api.stop()
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _next_id(self, prefix):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    def ask(self, prompt, text):
        """One timed ask; returns a dict of wall-clock stamps (seconds) and the reply."""
        self.api.script(text)
        finished_before = self.api.state()["turns_finished"]
        rid = self._next_id("a")
        outputs = []       # wall time of each output event
        samples = []       # (time of the newest output covered, done?)
        inflight = None    # (screen request id, time of the newest output it covers)
        want_screen = False
        t_sent = time.time()
        self.d.send({"id": rid, "type": "ask", "prompt": prompt, "timeout_ms": 60000})
        while True:
            m = self.d.read_line(timeout=90)
            now = time.time()
            if m.get("type") == "output":
                outputs.append(now)
                self.pred.feed(m["data"])
                want_screen = True
            elif inflight and m.get("id") == inflight[0]:
                samples.append((inflight[1], self.pred.done(m)))
                if DEBUG:
                    self.debug.append((inflight[1], samples[-1][1], m["lines"], m["cursor"], self.pred.osc_payload))
                inflight = None
            elif m.get("id") == rid:
                reply, t_reply = m, now
                break
            if want_screen and inflight is None:
                sid = self._next_id("s")
                self.d.send({"id": sid, "type": "screen"})
                inflight, want_screen = (sid, outputs[-1]), False
        # The reply may overtake the screen that shows the done state: sample
        # the output events not yet covered (their screen is the one the
        # daemon judged; nothing new arrives once the TUI is idle).
        while inflight or want_screen:
            if inflight is None:
                sid = self._next_id("s")
                self.d.send({"id": sid, "type": "screen"})
                inflight, want_screen = (sid, outputs[-1]), False
            m = self.d.read_line(timeout=30)
            if m.get("id") == inflight[0]:
                samples.append((inflight[1], self.pred.done(m)))
                if DEBUG:
                    self.debug.append((inflight[1], samples[-1][1], m["lines"], m["cursor"], self.pred.osc_payload))
                inflight = None
            elif m.get("type") == "output" and time.time() < t_reply + 0.05:
                outputs.append(time.time())
                self.pred.feed(m["data"])
                want_screen = True
        st = self.api.state()
        if st["turns_finished"] <= finished_before:
            screen = self.d.request("screen", wait=120)
            raise RuntimeError("%s: the fake API finished no turn for ask %s: %r; screen:\n%s" % (
                self.cli, rid, reply, "\n".join(l for l in screen["lines"] if l.strip())))
        end = st["last_turn_finished_at"] / 1000.0
        done = [t for t, ok in samples if ok and t >= end]
        if DEBUG:
            with open("/tmp/agent_debug_%s.txt" % self.cli, "a") as f:
                f.write("=== ask %s end=%.4f reply=%.4f\n" % (rid, end, t_reply))
                for t, ok, lines, cur, osc in self.debug:
                    f.write("--- t=%.4f (%+.1f ms) done=%s cursor=%s osc=%r\n" % (t, (t - end) * 1000, ok, cur, osc))
                    f.write("\n".join(l for l in lines if l.strip()) + "\n")
            self.debug = []
        return {"reply": t_reply, "stream_end": end, "tui_done": done[0] if done else None,
                "last_out": max([t for t in outputs if t <= t_reply], default=None),
                "recorded": self.watch.last_before(t_reply, t_sent),
                "ok": bool(reply.get("ok")) and reply.get("text") == text, "text": reply.get("text"),
                "kind": reply.get("kind"),
                # The transcript's answer, read before the reply was sent: exact or not.
                "markdown_ok": reply.get("markdown") == text,
                "transcript_error": reply.get("transcript_error")}

    def idle_window(self, prompt, text):
        """What an idle-window driver does: paste, Enter, then wait for
        IDLE_WINDOW_S without output. Returns stamps like ask()."""
        self.api.script(text)
        finished_before = self.api.state()["turns_finished"]
        self.d.request("send", wait=120, data="\x1b[200~" + prompt + "\x1b[201~")
        time.sleep(0.1)  # the engines' enter_delay_ms
        self.d.request("send", wait=120, data="\r")
        last = time.time()
        give_up = last + 60
        while True:
            # Silence only counts once the turn was even sent: the fake API
            # answers at once, so waiting for its request is no advantage.
            try:
                m = self.d.read_line(timeout=max(0.0, last + IDLE_WINDOW_S - time.time()))
                if m.get("type") == "output":
                    last = time.time()
            except TimeoutError:
                if self.api.state()["turns_finished"] > finished_before or time.time() > give_up:
                    break
                last = time.time()
        t_done = time.time()
        st = self.api.state()
        end = st["last_turn_finished_at"] / 1000.0 if st["turns_finished"] > finished_before else None
        screen = self.d.request("screen", wait=120)
        return {"reply": t_done, "stream_end": end, "ok": any(text in l for l in screen["lines"])}


def measure(cfg, daemon, log):
    """Returns {cli: {"asks": [...], "idle": [...]} or {"skipped": why}}."""
    res = {}
    for cli in cfg.agent_clis:
        why = available(cli)
        if why:
            res[cli] = {"skipped": why}
            log("agent %s skipped: %s" % (cli, why))
            continue
        b = AgentBench(cfg, daemon, cli)
        try:
            b.ask("warm up", "Warm.")  # the first turn loads more than the rest
            asks, idle = [], []
            # Interleaved: an idle-window turn after every few asks.
            for i in range(cfg.agent_asks):
                asks.append(b.ask("question %d" % i, "Answer number %d." % i))
                r = asks[-1]
                log("agent %s ask %d: reply - stream end %.1f ms (tui %s ms) ok=%s" % (
                    cli, i, (r["reply"] - r["stream_end"]) * 1000,
                    "?" if r["tui_done"] is None else "%.1f" % ((r["tui_done"] - r["stream_end"]) * 1000),
                    r["ok"]))
                if len(idle) < cfg.agent_idle and i % max(1, cfg.agent_asks // cfg.agent_idle) == 0:
                    idle.append(b.idle_window("idle question %d" % i, "Idle answer %d." % i))
                    log("agent %s idle window: %.0f ms ok=%s" % (
                        cli, (idle[-1]["reply"] - (idle[-1]["stream_end"] or idle[-1]["reply"])) * 1000,
                        idle[-1]["ok"]))
            res[cli] = {"asks": asks, "idle": idle}
        except (RuntimeError, TimeoutError, EOFError, OSError) as e:
            res[cli] = {"skipped": "failed: %s" % e}
            log("agent %s failed: %s" % (cli, e))
        finally:
            b.close()
    return res
