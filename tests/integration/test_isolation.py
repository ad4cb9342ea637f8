"""Secrets and isolation: send_secret leaves no trace, env_strip and
inherited file descriptors never reach the child, prompts cannot inject
terminal input."""
import json
import os
import sys
import tempfile
import unittest

from tuiclient import Daemon

SECRET = "hunter2-S3cret-\u00e9"

GETPASS = r"""
import getpass, hashlib
p = getpass.getpass("Password: ")
print("LEN", len(p), "SHA", hashlib.sha256(p.encode()).hexdigest()[:12])
p2 = getpass.getpass("Again: ")
print("SAME", p == p2)
"""


class RecordingDaemon(Daemon):
    """Keeps every stdout line as bytes, to search it afterwards."""

    def __init__(self, *args, **kw):
        self.transcript = []
        super().__init__(*args, **kw)

    def read_line(self, timeout=10):
        m = super().read_line(timeout)
        self.transcript.append(json.dumps(m, ensure_ascii=False).encode())
        return m


class Secrets(unittest.TestCase):
    def test_send_secret_never_shows(self):
        import hashlib
        digest = hashlib.sha256(SECRET.encode()).hexdigest()[:12]
        with RecordingDaemon("--", sys.executable, "-c", GETPASS) as d:
            self.assertTrue(d.request("subscribe")["ok"])  # raw output, too
            self.assertTrue(d.request("expect", pattern="Password:", timeout_ms=10000)["ok"])
            r = d.request("send_secret", data=SECRET + "\r")
            self.assertEqual(r, {"id": r["id"], "type": "reply", "ok": True})
            self.assertTrue(d.request("expect", pattern="LEN %d SHA %s" % (len(SECRET), digest), timeout_ms=10000)["ok"])
            self.assertTrue(d.request("expect", pattern="Again:", timeout_ms=10000)["ok"])
            d.request("send_secret", data=SECRET + "\r")
            self.assertTrue(d.request("expect", pattern="SAME True", timeout_ms=10000)["ok"])
            d.wait_for(lambda m: m.get("type") == "exit", 10)
            # Refused requests that carry it: no error repeats the data.
            for line in ('{"id":1,"type":"send_secret","data":"%s"}' % SECRET,   # exited
                         '{"id":[1],"type":"send_secret","data":"%s"}' % SECRET,  # bad id
                         '{"id":2,"type":"send_secret","data":"%s' % SECRET,      # cut off
                         '{"id":3,"type":"send_secret","data":"%s","x":}' % SECRET,
                         '{"id":4,"type":"send_secret","data":["%s"]}' % SECRET,
                         '{"id":5,"type":"send_secrets","data":"%s"}' % SECRET):
                d.send_raw(line.encode() + b"\n")
                r = d.wait_for(lambda m: m.get("type") == "reply", 10)
                self.assertFalse(r["ok"], line)
            d.request("screen")
            d.request("scrollback")
            d.close()
            stderr = d.stderr_rest
        needle = SECRET.encode()
        self.assertGreater(len(d.transcript), 10)
        for line in d.transcript:
            self.assertNotIn(needle, line)
            self.assertNotIn(b"hunter2", line)
        self.assertNotIn(b"hunter2", stderr)


class ChildEnvironment(unittest.TestCase):
    def test_env_strip_and_inherited_fds(self):
        with tempfile.TemporaryDirectory() as tmp:
            engine = os.path.join(tmp, "probe.json")
            with open(engine, "w") as f:
                json.dump({"command": ["sh", "-c", "PS1='probe$ ' exec sh"],
                           "prompt": {"pattern": "probe\\$ $", "scope": "cursor_line"},
                           "env_strip": ["TUIDRIVER_TEST_TOKEN", "TUIDRIVER_TEST_KEY"]}, f)
            # An fd the daemon inherits without close-on-exec: the child
            # must not get it.
            leaked = os.open(os.path.join(tmp, "leak"), os.O_CREAT | os.O_RDWR)
            os.dup2(leaked, 57)
            os.set_inheritable(57, True)
            try:
                env = {"TUIDRIVER_TEST_TOKEN": "tok-123", "TUIDRIVER_TEST_KEY": "key-456",
                       "TUIDRIVER_TEST_KEEP": "kept-789"}
                d = Daemon("--engine-file", engine, env=env, pass_fds=(57,))
            finally:
                os.close(57)
                os.close(leaked)
            with d:
                self.assertEqual(os.readlink("/proc/%d/fd/57" % d.proc.pid), os.path.join(tmp, "leak"))
                # Markers the shell computes, so the echoed command line
                # never matches; the second command may be typed ahead of
                # the prompt, so output may follow "probe$ " on its line.
                d.send({"id": "e", "type": "send", "data": "env | grep TUIDRIVER_TEST_ | sort; echo ENV-$((6*7))\r"})
                e = d.request("expect", pattern=r"ENV-42", timeout_ms=10000)
                self.assertTrue(e["ok"], e)
                d.send({"id": "f", "type": "send", "data": "echo FDS: $(ls /proc/self/fd)\r"})
                e = d.request("expect", pattern=r"(?m)FDS: ([0-9 ]+)$", timeout_ms=10000)
                self.assertTrue(e["ok"], e)
                screen = "\n".join(d.request("screen")["lines"])
                self.assertIn("TUIDRIVER_TEST_KEEP=kept-789", screen)
                self.assertNotIn("tok-123", screen)
                self.assertNotIn("key-456", screen)
                # ls sees stdin, stdout (a pipe), stderr and its own directory fd.
                self.assertEqual(e["groups"][0].split(), ["0", "1", "2", "3"])
                d.close()


class PromptInjection(unittest.TestCase):
    def test_prompt_cannot_inject_terminal_input(self):
        with Daemon("python") as d:
            # Unsanitised, ^C would discard the line, ^D end Python, the
            # escape sequences move the cursor and end a bracketed paste.
            prompt = "print('A' + \x03'B'\x1b[D\x1b[201~)\x1b]0;pwned\x07\x04\r"
            r = d.ask(prompt, timeout_ms=10000)
            self.assertEqual((r["ok"], r["text"]), (True, "AB"), r)
            s = d.request("screen")
            self.assertEqual(s["title"], "")
            r = d.ask("print(6*7)", timeout_ms=10000)
            self.assertEqual(r["text"], "42")
            d.close()


if __name__ == "__main__":
    unittest.main()
