"""asciicast v2 recordings (--record FILE and the record request).

A bash session is recorded through asks, input, a secret and a resize. The
file must be asciicast v2 as asciinema writes it; played back through tmux
(its output events written to a pane, resized at its resize events), it must
end on the screen tuidriver showed; and Debian's `asciinema cat` must accept
it.
"""
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
import unittest

from tmux import require_reference
from tuiclient import Daemon

# Writes the output events of a recording; at each resize event it shows
# title RESIZEn and waits for the SIGWINCH of the resize, as in
# test_resize_vs_tmux.
PLAYER = r"""
import json, os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGWINCH})
with open(sys.argv[1]) as f:
    lines = f.read().splitlines()
resizes = 0
for line in lines[1:]:
    t, code, data = json.loads(line)
    if code == "o":
        os.write(1, data.encode())
    elif code == "r":
        os.write(1, b"\x1b]2;RESIZE%d\x07" % resizes)
        resizes += 1
        signal.sigwait({signal.SIGWINCH})
os.write(1, b"\x1b]2;DONE\x07")
signal.pause()
"""


def events(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return json.loads(lines[0]), [json.loads(l) for l in lines[1:]]


def asciinema_cat(path):
    """`asciinema cat FILE`, which reads keys from /dev/tty: it gets a pty as
    its controlling terminal, its output goes to a pipe."""
    master, slave = os.openpty()

    def controlling_tty():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    try:
        return subprocess.run(["asciinema", "cat", path], stdin=slave, capture_output=True, timeout=30,
                              preexec_fn=controlling_tty, pass_fds=(slave,))
    finally:
        os.close(master)
        os.close(slave)


def play_in_tmux(tmp, path):
    require_reference()  # the screen compared with is tmux's
    header, evs = events(path)
    player = os.path.join(tmp, "player.py")
    with open(player, "w") as f:
        f.write(PLAYER)
    tmux = ["tmux", "-S", os.path.join(tmp, "tmux.sock"), "-f", "/dev/null"]
    env = {**os.environ, "TMUX": ""}
    subprocess.run(tmux + ["new-session", "-d", "-x", str(header["width"]), "-y", str(header["height"]),
                           "%s %s" % (sys.executable, player) + " " + path, ";", "set", "-g", "status", "off"],
                   check=True, env=env)

    def wait_title(title):
        deadline = time.monotonic() + 15
        while subprocess.run(tmux + ["display", "-p", "#{pane_title}"], capture_output=True, text=True,
                             check=True).stdout.strip() != title:
            if time.monotonic() > deadline:
                raise TimeoutError("the playback never showed " + title)
            time.sleep(0.01)

    try:
        sizes = [e[2] for e in evs if e[1] == "r"]
        for i, size in enumerate(sizes):
            wait_title("RESIZE%d" % i)
            cols, rows = size.split("x")
            subprocess.run(tmux + ["resize-window", "-x", cols, "-y", rows], check=True)
        wait_title("DONE")
        out = subprocess.run(tmux + ["display", "-p", "#{cursor_y} #{cursor_x} #{pane_height}"],
                             capture_output=True, text=True, check=True).stdout.split()
        lines = subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True,
                               check=True).stdout.split("\n")[:int(out[2])]
        return [l.rstrip(" ") for l in lines], (int(out[0]), int(out[1]))
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)


class Recording(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_a_bash_session(self):
        path = os.path.join(self.tmp, "session.cast")
        with Daemon("bash", "--cwd", self.tmp, "--record", path, "--cols", "70", "--rows", "15") as d:
            ask_ids = [d.next_id]
            first = d.ask("printf '\\033[1;32mgreen\\033[0m wide \\u4e2d\\u6587\\n'; echo done")
            self.assertTrue(first["ok"], first)
            self.assertTrue(d.request("send", data="read -rs SECRET; echo got ${#SECRET}\r")["ok"])
            time.sleep(0.3)
            self.assertTrue(d.request("send_secret", data="s3cr3t-value\r")["ok"])
            self.assertTrue(d.request("expect", pattern="got 12", timeout_ms=10000)["ok"])
            self.assertTrue(d.request("resize", cols=50, rows=12)["ok"])
            ask_ids.append(d.next_id)
            second = d.ask("seq 1 30; echo 'a long line that wraps at fifty columns, certainly, once'")
            self.assertTrue(second["ok"], second)
            d.request("wait_idle", idle_ms=300, timeout_ms=10000)
            screen = d.request("screen")
            self.assertEqual(d.request("record", stop=True)["stopped"], True)
            self.assertEqual(d.request("record", stop=True)["stopped"], False)

        with open(path) as f:
            raw = f.read()
        self.assertNotIn("s3cr3t", raw)
        header, evs = events(path)
        self.assertEqual(header["version"], 2)
        self.assertEqual((header["width"], header["height"]), (70, 15))
        self.assertIsInstance(header["timestamp"], int)
        self.assertLess(abs(header["timestamp"] - time.time()), 600)
        self.assertEqual(header["env"], {"TERM": "xterm-256color"})
        times = [e[0] for e in evs]
        self.assertEqual(times, sorted(times))
        self.assertEqual({e[1] for e in evs}, {"o", "i", "r", "m"})
        markers = [e[2] for e in evs if e[1] == "m"]
        self.assertEqual(markers, ["ask %d start" % ask_ids[0], "ask %d end" % ask_ids[0], "[secret]",
                                   "ask %d start" % ask_ids[1], "ask %d end" % ask_ids[1]])
        self.assertEqual([e[2] for e in evs if e[1] == "r"], ["50x12"])
        inputs = "".join(e[2] for e in evs if e[1] == "i")
        self.assertIn("read -rs SECRET", inputs)
        self.assertIn("seq 1 30", inputs)  # what the ask typed
        self.assertIn("green", "".join(e[2] for e in evs if e[1] == "o"))

        lines, cursor = play_in_tmux(self.tmp, path)
        self.assertEqual(lines, screen["lines"])
        self.assertEqual(cursor, (screen["cursor"]["row"], screen["cursor"]["col"]))

        cat = asciinema_cat(path)
        self.assertEqual(cat.returncode, 0, cat.stderr)
        self.assertEqual(cat.stdout.decode(), "".join(e[2] for e in evs if e[1] == "o"))

    def test_record_request_and_errors(self):
        path = os.path.join(self.tmp, "req.cast")
        bad = os.path.join(self.tmp, "no-such-dir", "x.cast")
        with Daemon("--record", bad, "--cols", "20", "--rows", "4", "--", "cat", wait_ready=False) as d:
            err = d.wait_for(lambda m: m.get("type") == "error", 10)
            self.assertEqual(err["kind"], "record")
            self.assertIn(bad, err["error"])
            d.wait_for(lambda m: m.get("type") == "ready", 10)  # the session runs on
            r = d.request("record")
            self.assertEqual((r["ok"], r["kind"]), (False, "protocol"))
            r = d.request("record", path=bad)
            self.assertEqual((r["ok"], r["kind"]), (False, "record"))
            self.assertEqual(d.request("record", path=path)["path"], path)
            self.assertTrue(d.request("send", data="hello\r")["ok"])
            d.wait_screen(lambda s: s["lines"][:2] == ["hello", "hello"], 10)  # the echo, then cat
            d.proc.send_signal(signal.SIGKILL)  # a crash: what was written stays valid
            d.proc.wait(10)
        header, evs = events(path)
        self.assertEqual((header["width"], header["height"]), (20, 4))
        self.assertIn(["i", "hello\r"], [e[1:] for e in evs])
        self.assertIn("hello", "".join(e[2] for e in evs if e[1] == "o"))
        cat = asciinema_cat(path)
        self.assertEqual(cat.returncode, 0, cat.stderr)


if __name__ == "__main__":
    unittest.main()
