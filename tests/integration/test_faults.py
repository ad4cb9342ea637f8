"""Faults: a child that exits with output buffered, crashes mid-ask, ignores
SIGTERM; a client that dies, closes stdin mid-ask, or stops reading."""
import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from concurrent.futures import ThreadPoolExecutor

from tuiclient import BIN, MEASURED_MEMORY_ENV, Daemon, cpu_seconds, parse_line, peak_rss_kib, rss_kib

# 1,000 in the plain build; under ASan (ten times slower) 100 look for
# memory errors on the same path.
RUNS = int(os.environ.get("TUIDRIVER_EXIT_RUNS", "100" if os.environ.get("TUIDRIVER_SANITIZED") else "1000"))


def live_processes():
    """pid -> (ppid, pgid, state) for every process (ps)."""
    out = subprocess.run(["ps", "-eo", "pid=,ppid=,pgid=,stat="], capture_output=True,
                         text=True, check=True).stdout
    procs = {}
    for line in out.splitlines():
        pid, ppid, pgid, stat = line.split()[:4]
        procs[int(pid)] = (int(ppid), int(pgid), stat)
    return procs


class BufferedOutputAtExit(unittest.TestCase):
    """The child writes 64 KiB and exits at once: every byte is delivered
    (output events) and rendered (scrollback) before `exit`, every time."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.lines = ["%05d %s" % (i, "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU") for i in range(1024)]
        self.data = "".join(l + "\n" for l in self.lines)
        self.assertEqual(len(self.data), 65536)
        self.path = os.path.join(self.dir, "data")
        with open(self.path, "w") as f:
            f.write(self.data)

    def one_run(self, i):
        with Daemon("--cols", "80", "--", "sh", "-c", "read x; cat %s; echo END-%d" % (self.path, i)) as d:
            # Subscribe before the child writes: it waits for the "go" line.
            d.send_raw(b'{"id":1,"type":"subscribe"}\n{"id":2,"type":"send","data":"go\\r"}\n')
            out = []
            while True:
                m = d.read_line(30)
                if m.get("type") == "exit":
                    break
                if m.get("type") == "output":
                    out.append(m["data"])
            got = "".join(out).replace("\r\n", "\n")
            if got != "go\n" + self.data + "END-%d\n" % i:
                return "run %d: output events lost bytes (%d of %d)" % (i, len(got), len(self.data))
            d.send_raw(b'{"id":3,"type":"scrollback"}\n')
            sb = d.wait_for(lambda m: m.get("id") == 3, 30)["lines"]
            if sb != ["go"] + self.lines + ["END-%d" % i]:
                return "run %d: screen lost lines; last: %r" % (i, sb[-2:])
            d.close()
        return None

    def test_every_byte_before_exit(self):
        with ThreadPoolExecutor(max_workers=4) as pool:
            failures = [f for f in pool.map(self.one_run, range(RUNS)) if f]
        self.assertEqual(failures, [], "%d of %d runs lost output" % (len(failures), RUNS))


class ChildDiesDuringAsk(unittest.TestCase):
    def check_exited_afterwards(self, d, signame):
        ex = d.wait_for(lambda m: m.get("type") == "exit", 10)
        self.assertEqual(ex["signal"], signame)
        for type_, fields in (("send", {"data": "x"}), ("send_secret", {"data": "x"}),
                              ("keys", {"keys": ["Enter"]}), ("ask", {"prompt": "1"}),
                              ("signal", {"signal": "INT"})):
            r = d.request(type_, **fields)
            self.assertEqual(r["kind"], "exited", (type_, r))
            self.assertIn("killed by " + signame, r["error"])
        self.assertEqual(d.request("status")["state"], "exited")
        self.assertTrue(d.request("screen")["ok"])
        self.assertEqual(d.close()["signal"], signame)
        self.assertEqual(d.proc.wait(10), 0)

    def test_child_crashes(self):
        with Daemon("python") as d:
            r = d.ask("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", timeout_ms=20000)
            self.assertEqual(r["kind"], "exited", r)
            self.check_exited_afterwards(d, "SIGSEGV")

    def test_child_killed_from_outside(self):
        with Daemon("python") as d:
            d.send({"id": "a", "type": "ask", "prompt": "print('sleeping'); import time; time.sleep(60)"})
            self.assertTrue(d.request("expect", pattern="(?m)^sleeping$", timeout_ms=10000)["ok"])
            os.kill(d.ready["pid"], signal.SIGKILL)
            r = d.wait_for(lambda m: m.get("id") == "a", 10)
            self.assertEqual(r["kind"], "exited", r)
            self.check_exited_afterwards(d, "SIGKILL")


def set_subreaper():
    """Orphans below us come to us, not to init, so the test can reap them
    and see that none are left (Linux prctl)."""
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


PARENT = r"""
import subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE)
print("DAEMON", p.pid, flush=True)
p.wait()
"""


class ParentKilled(unittest.TestCase):
    def test_parent_sigkill_ends_daemon_and_process_group(self):
        self.assertTrue(set_subreaper())
        # The program ignores SIGTERM and SIGHUP, and so do its children.
        script = "trap '' TERM HUP INT; sleep 1000 & sleep 1000 & echo started; wait"
        parent = subprocess.Popen([sys.executable, "-c", PARENT, BIN, "--", "sh", "-c", script],
                                  stdout=subprocess.PIPE)
        try:
            daemon_pid = int(parent.stdout.readline().split()[1])
            ready = parse_line(parent.stdout.readline())
            pgid = ready["pid"]
            deadline = time.monotonic() + 10
            while len([p for p, (_, g, s) in live_processes().items() if g == pgid]) < 3:
                self.assertLess(time.monotonic(), deadline, "the program did not start its children")
                time.sleep(0.01)
            os.kill(parent.pid, signal.SIGKILL)
            parent.wait()
            killed = time.monotonic()
            # Within a second: the daemon has exited and nothing of the
            # program's process group is alive (zombies are reaped by us).
            while True:
                left = {p: v for p, v in live_processes().items()
                        if (p == daemon_pid or v[1] == pgid) and not v[2].startswith("Z")}
                if not left or time.monotonic() - killed > 1.0:
                    break
                time.sleep(0.01)
            self.assertEqual(left, {}, "still alive 1 s after the parent died")
        finally:
            parent.kill()
            parent.wait()
        # Reap what was handed to us; afterwards no process of ours is left.
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                self.assertLess(time.monotonic(), killed + 5)
                time.sleep(0.01)
        # Reaching here means no descendant is left, alive or zombie.


class ClientFaults(unittest.TestCase):
    def test_stdin_closes_mid_ask(self):
        with Daemon("python") as d:
            d.send({"id": 1, "type": "ask", "prompt": "import time; time.sleep(0.3); print('finished')"})
            d.proc.stdin.close()
            r = d.wait_for(lambda m: m.get("id") == 1, 20)
            self.assertEqual((r["ok"], r["text"]), (True, "finished"), r)
            ex = d.wait_for(lambda m: m.get("type") == "exit", 20)
            self.assertEqual((ex["exit_code"], ex["signal"]), (0, None))  # Python quit on its quit keys
            self.assertEqual(d.proc.wait(20), 0)
            with self.assertRaises(ProcessLookupError):
                os.kill(d.ready["pid"], 0)

    def test_stdout_closed(self):
        with Daemon("--", "cat") as d:
            d.proc.stdout.close()
            d.send({"id": 1, "type": "status"})
            self.assertEqual(d.proc.wait(20), 0)
            with self.assertRaises(ProcessLookupError):
                os.kill(d.ready["pid"], 0)

    def test_stdout_blocked(self):
        # The client subscribes to output, then stops reading while the
        # program writes 32 MiB. The daemon must not block, spin or queue it
        # all: it drops output events beyond its backlog and says how many
        # bytes it dropped, exactly.
        total = 32 << 20
        with tempfile.TemporaryDirectory() as tmp:
            done = os.path.join(tmp, "done")
            prog = ("import os, sys; sys.stdin.readline(); b = b'z' * 65536\n"
                    "for _ in range(%d): os.write(1, b)\n"
                    "open(%r, 'w').close(); sys.stdin.readline(); os.write(1, b'FIN\\r\\n')\n"
                    "sys.stdin.read()" % (total // 65536, done))
            with Daemon("--", sys.executable, "-c", prog, env=MEASURED_MEMORY_ENV) as d:
                pid = d.proc.pid
                self.assertTrue(d.request("subscribe")["ok"])
                rss_before = peak_rss_kib(pid)
                d.send({"id": "go", "type": "send", "data": "go\r"})
                deadline = time.monotonic() + 120
                while not os.path.exists(done):  # we read nothing meanwhile
                    self.assertLess(time.monotonic(), deadline)
                    time.sleep(0.05)
                # The program has written everything: whatever the daemon
                # still does now is a spin.
                d.send({"id": "s", "type": "status"})
                cpu = cpu_seconds(pid)
                time.sleep(1.5)
                self.assertLess(cpu_seconds(pid) - cpu, 0.3, "the daemon spins while stdout is blocked")
                grown = (peak_rss_kib(pid) - rss_before) / 1024
                self.assertLess(grown, 24, "the daemon queued %.0f MiB" % grown)  # of 32 written
                d.wait_for(lambda m: m.get("id") == "s", 30)
                # FIN comes after the last z: once it shows, all were read.
                d.request("send", data="\r")
                self.assertTrue(d.request("expect", pattern="FIN", timeout_ms=30000)["ok"])
                self.assertTrue(d.request("status")["ok"])  # notes any drop still unsaid
                got = sum(m["data"].count("z") for m in d.events if m.get("type") == "output")
                dropped = sum(m["bytes"] for m in d.events if m.get("type") == "output_dropped")
                self.assertGreater(dropped, 0)
                self.assertEqual(got + dropped, total)
                d.close()


class MemoryAfterAFlood(unittest.TestCase):
    """Issue 46: a reply of 100,000 lines raised the daemon's memory from
    under 3 MiB at ready to 12 MiB (16 MiB after three) for the rest of the
    session (the allocator keeps its peak). Once idle, the daemon gives the free pages
    back: it holds what it uses (the 10,000 lines of history, about 1 MiB)."""

    @unittest.skipIf(os.environ.get("TUIDRIVER_SANITIZED"),
                     "ASan's allocator keeps freed memory in its own quarantine and pools")
    def test_a_large_reply_leaves_no_peak_behind(self):
        with Daemon("--scrollback", "10000", "python", env=MEASURED_MEMORY_ENV) as d:
            ready = rss_kib(d.proc.pid)
            r = d.request("ask", wait=300, prompt="for i in range(100000): print(i)", timeout_ms=240000)
            self.assertTrue(r["ok"], r)
            self.assertTrue(r["text"].endswith("99999"), r["text"][-100:])
            # Given back once the loop finds the core idle after the reply.
            deadline = time.monotonic() + 10
            while True:
                grown = (rss_kib(d.proc.pid) - ready) / 1024
                if grown < 4 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            self.assertLess(grown, 4, "the daemon holds %.1f MiB more than at ready" % grown)


class ChildNotReading(unittest.TestCase):
    """A program that never reads its input must not freeze the daemon: a
    `send` far larger than the PTY buffers used to block every request,
    close, and even SIGTERM."""

    def test_requests_close_and_sigterm_still_work(self):
        for setup, data, end in (("stty raw -echo", "x" * (4 << 20), "close"),
                                 ("stty -echo", "x\n" * 1000000, "SIGTERM")):
            with Daemon("--", "sh", "-c", setup + "; echo armed; exec sleep 1000") as d:
                self.assertTrue(d.request("expect", pattern="armed", timeout_ms=10000)["ok"])
                self.assertTrue(d.request("send", data=data, wait=10)["ok"])
                self.assertEqual(d.request("status", wait=10)["state"], "ready")
                r = d.request("keys", keys=["Enter"], wait=10)
                self.assertEqual(r["kind"], "busy", r)
                self.assertIn("has not read", r["error"])
                if end == "close":
                    self.assertTrue(d.close()["ok"])
                else:
                    d.proc.send_signal(signal.SIGTERM)
                    d.wait_for(lambda m: m.get("type") == "exit", 10)
                self.assertEqual(d.proc.wait(10), 0)


class StubbornChild(unittest.TestCase):
    def test_close_ends_within_the_grace_periods(self):
        # A raw session: no quit keys, SIGTERM at once, then term_grace_ms
        # (2000 ms by default) before SIGKILL. The whole group goes.
        script = "trap '' TERM HUP INT; sleep 1000 & echo armed; while :; do sleep 1; done"
        with Daemon("--", "sh", "-c", script) as d:
            self.assertTrue(d.request("expect", pattern="armed", timeout_ms=10000)["ok"])
            pgid = d.ready["pid"]
            start = time.monotonic()
            c = d.close(timeout=15)
            elapsed = time.monotonic() - start
            self.assertEqual(c["signal"], "SIGKILL")
            self.assertGreaterEqual(elapsed, 2.0)  # the grace was given
            self.assertLess(elapsed, 2.0 + 2.0)
            # Every process of the group got SIGKILL before the reply; one
            # may take a moment to finish dying (seen under qemu-user).
            deadline = time.monotonic() + 1.0
            while True:
                left = [p for p, v in live_processes().items() if v[1] == pgid and not v[2].startswith("Z")]
                if not left or time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            self.assertEqual(left, [], "still alive 1 s after the close reply")


if __name__ == "__main__":
    unittest.main()
