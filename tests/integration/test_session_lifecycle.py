"""The session's own lifecycle: stdin of any kind, every request answered
(after the program exited, when it never became ready, after stdin's end),
wait_idle counted from the request, and no CPU burnt while idle."""
import json
import os
import pty
import select
import subprocess
import tempfile
import time
import unittest

from tuiclient import BIN, ROOT, Daemon, cpu_seconds, parse_line, run_once


def engine_file(config):
    fd, path = tempfile.mkstemp(suffix=".json", prefix="lifecycle-")
    with os.fdopen(fd, "w") as f:
        json.dump(config, f)
    return path


def process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:  # gone in between
        return False


class TypedIntoATerminal(unittest.TestCase):
    """Someone types request lines by hand: stdin is a TTY, which stays blocking."""

    def test_each_typed_line_is_answered_at_once(self):
        master, slave = pty.openpty()
        env = dict(os.environ, TUIDRIVER_ENGINES=os.path.join(ROOT, "engines"))
        proc = subprocess.Popen([BIN, "python"], stdin=slave, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env)
        os.close(slave)
        buf = b""

        def next_message(timeout):
            nonlocal buf
            deadline = time.monotonic() + timeout
            while b"\n" not in buf:
                left = deadline - time.monotonic()
                self.assertGreater(left, 0, "no line within %.1fs" % timeout)
                r, _, _ = select.select([proc.stdout], [], [], left)
                if r:
                    buf += os.read(proc.stdout.fileno(), 65536)
            line, buf = buf.split(b"\n", 1)
            return parse_line(line)

        try:
            self.assertEqual(next_message(15)["type"], "ready")
            # One line, and nothing after it: the reply must not wait for more.
            os.write(master, b'{"id":1,"type":"ask","prompt":"6*7"}\n')
            self.assertEqual(next_message(10), {"id": 1, "type": "reply", "ok": True, "text": "42"})
            os.write(master, b'{"id":2,"type":"status"}\n')
            self.assertEqual(next_message(10)["state"], "ready")
            os.write(master, b'{"id":3,"type":"close"}\n')
            self.assertEqual(next_message(15)["type"], "exit")
            self.assertEqual(next_message(15)["id"], 3)
            self.assertEqual(proc.wait(timeout=10), 0)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.close(master)


class AfterTheProgramExited(unittest.TestCase):
    def test_every_request_is_answered(self):
        with Daemon("python") as d:
            d.send({"id": "x", "type": "send", "data": "print('bye'); exit(3)\r"})
            exit_event = d.wait_for(lambda m: m.get("type") == "exit")
            self.assertEqual(exit_event["exit_code"], 3)
            idle = d.request("wait_idle", wait=5, idle_ms=100, timeout_ms=1000)
            self.assertEqual(idle["kind"], "exited")
            miss = d.request("expect", wait=5, pattern="never there", timeout_ms=1000)
            self.assertEqual(miss["kind"], "exited")
            hit = d.request("expect", wait=5, pattern="b(y)e", timeout_ms=1000)
            self.assertEqual((hit["ok"], hit["groups"]), (True, ["y"]))
            self.assertIn("bye", d.request("screen", wait=5)["lines"])
            status = d.request("status", wait=5)
            self.assertEqual((status["state"], status["exit_code"]), ("exited", 3))
            # Two closes in one write: both answered.
            d.send_raw(b'{"id":"c1","type":"close"}\n{"id":"c2","type":"close"}\n')
            for cid in ("c1", "c2"):
                reply = d.wait_for(lambda m, cid=cid: m.get("id") == cid, 5)
                self.assertEqual((reply["ok"], reply["exit_code"]), (True, 3))
            self.assertEqual(d.proc.wait(timeout=10), 0)


class NeverReady(unittest.TestCase):
    def test_requests_are_answered_and_the_program_is_ended(self):
        path = engine_file({"command": ["sh", "-c", "echo starting; exec sleep 60"],
                            "prompt": {"pattern": "^never$"}, "timeouts": {"ready_ms": 1000}})
        try:
            with Daemon("--engine-file", path, wait_ready=False) as d:
                pid = d.request("status", wait=5)["pid"]
                d.send({"id": 1, "type": "ask", "prompt": "hello"})
                d.send({"id": 2, "type": "wait_idle", "idle_ms": 20000, "timeout_ms": 30000})
                d.send({"id": 3, "type": "expect", "pattern": "xyzzy", "timeout_ms": 30000})
                error = d.wait_for(lambda m: m.get("kind") == "not_ready" and "id" not in m, 10)
                self.assertIn("did not show its prompt", error["error"])
                for rid in (1, 2, 3):
                    reply = d.wait_for(lambda m, rid=rid: m.get("id") == rid, 10)
                    self.assertEqual((reply["ok"], reply["kind"]), (False, "not_ready"))
                d.wait_for(lambda m: m.get("type") == "exit", 10)
                self.assertEqual(d.proc.wait(timeout=10), 3)
                self.assertFalse(process_exists(pid), "the program outlived the daemon")
        finally:
            os.unlink(path)


class EndOfStdin(unittest.TestCase):
    def test_pending_expect_finishes_before_the_close(self):
        code, msgs, _ = run_once(["--", "sh", "-c", "sleep 1; echo done; sleep 30"],
                                 '{"id":1,"type":"expect","pattern":"done","timeout_ms":5000}\n')
        self.assertEqual(code, 0)
        reply = [m for m in msgs if m.get("id") == 1][0]
        self.assertEqual((reply["ok"], reply["match"]), (True, "done"))
        self.assertEqual(msgs[-1]["type"], "exit")

    def test_pending_wait_idle_finishes_before_the_close(self):
        code, msgs, _ = run_once(["--", "sh", "-c", "for i in 1 2 3; do echo $i; sleep 0.2; done; sleep 30"],
                                 '{"id":1,"type":"wait_idle","idle_ms":500,"timeout_ms":10000}\n')
        self.assertEqual(code, 0)
        reply = [m for m in msgs if m.get("id") == 1][0]
        self.assertTrue(reply["ok"])


class WaitIdle(unittest.TestCase):
    def test_quiet_counts_from_the_request(self):
        with Daemon("--", "sh", "-c", "exec cat") as d:
            d.request("wait_idle", idle_ms=300, timeout_ms=5000)  # long quiet before the next request
            start = time.monotonic()
            d.send({"id": "k", "type": "send", "data": "x"})
            reply = d.request("wait_idle", idle_ms=500, timeout_ms=5000)
            self.assertTrue(reply["ok"])
            # Quiet for idle_ms after the request, whatever came before it.
            self.assertGreaterEqual(time.monotonic() - start, 0.5)


class IdleCpu(unittest.TestCase):
    """The daemon sleeps while nothing is due: after a timed-out ask (its
    resync waits for the next ask), a cancelled one, a finished one, and once
    the program has exited."""

    def assert_idle(self, d, label):
        time.sleep(0.3)
        before, start = cpu_seconds(d.proc.pid), time.monotonic()
        time.sleep(2)
        used = cpu_seconds(d.proc.pid) - before
        self.assertLess(used, 0.05 * (time.monotonic() - start), "%s: %.2f CPU-s in 2 s" % (label, used))

    def test_idle_after_timeout_cancel_finish_and_exit(self):
        with Daemon("python") as d:
            reply = d.ask("import time; time.sleep(4)", timeout_ms=500)
            self.assertEqual(reply["kind"], "timeout")
            self.assert_idle(d, "after a timed-out ask")
            self.assertEqual(d.ask("6*7")["text"], "42")
            self.assert_idle(d, "after a finished ask")
            d.send({"id": "slow", "type": "ask", "prompt": "import time; time.sleep(5)"})
            time.sleep(0.5)
            self.assertTrue(d.request("cancel", target="slow")["ok"])
            self.assertEqual(d.wait_for(lambda m: m.get("id") == "slow", 10)["kind"], "cancelled")
            self.assert_idle(d, "after a cancelled ask")
            d.send({"id": "bye", "type": "send", "data": "exit(0)\r"})
            d.wait_for(lambda m: m.get("type") == "exit", 10)
            self.assert_idle(d, "after the program exited")


if __name__ == "__main__":
    unittest.main()
