"""What a raw session's program does (issue 44): `status`'s `program_state`
and `question`, and the `program_state` event, judged by the daemon as the
line engines' questions are, against real programs: python's input() asks,
a pager is full-screen, a sleep runs, and back at the prompt is ready."""
import os
import tempfile
import time
import unittest

from tuiclient import Daemon

ENV = {"TERM": "xterm-256color", "LESS": "", "LESSHISTFILE": "-"}


# Every state here but ready-at-an-engine-prompt is judged by the daemon's
# question probe, which under qemu-user reads the host's x86-64 programs'
# syscalls with arm64 numbers (scripts/test-linux-arm64.sh).
foreign_children = unittest.skipIf(
    os.environ.get("TUIDRIVER_FOREIGN_CHILDREN"),
    "the daemon's question probe cannot read another architecture's syscalls (scripts/test-linux-arm64.sh)")


def until_state(d, state, timeout=10):
    """Polls status until program_state is `state`; returns that status."""
    deadline = time.monotonic() + timeout
    while True:
        s = d.request("status")
        if s["program_state"] == state:
            return s
        if time.monotonic() > deadline:
            raise AssertionError("program_state stayed %r, not %r: %s" % (s["program_state"], state, s))
        time.sleep(0.05)


@foreign_children
class RawPython(unittest.TestCase):
    def test_status_says_ready_needs_input_running_fullscreen(self):
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "numbers.txt")
        with open(path, "w") as f:
            f.write("".join("line %d\n" % i for i in range(1, 101)))
        with Daemon("--cols", "80", "--rows", "20", "--", "python3", "-q", env=ENV) as d:
            s = until_state(d, "ready")
            self.assertIsNone(s["question"])
            self.assertEqual(s["state"], "ready")  # the field of old keeps its meaning
            d.request("send", data='name = input("Name? ")\r')
            s = until_state(d, "needs_input")
            self.assertEqual(s["question"], "Name?")
            d.request("send", data="bob\r")
            until_state(d, "ready")
            d.request("send", data="import time; time.sleep(2); print(name.upper())\r")
            until_state(d, "running")
            until_state(d, "ready")
            self.assertTrue(d.request("expect", pattern="BOB", timeout_ms=1000)["ok"])
            d.request("send", data='import subprocess; subprocess.run(["less", %r])\r' % path)
            self.assertTrue(d.request("expect", pattern=r"(?m)^line 19$", timeout_ms=10000)["ok"])
            s = until_state(d, "fullscreen")
            self.assertIsNone(s["question"])
            d.request("keys", keys=["q"])
            until_state(d, "ready")
            d.request("send", data="exit()\r")
            d.wait_for(lambda m: m.get("type") == "exit", 10)
            self.assertEqual(d.request("status")["program_state"], "exited")


@foreign_children
class RawBash(unittest.TestCase):
    def test_a_changed_shell_prompt_is_ready_and_read_asks(self):
        with Daemon("--", "bash", "--norc", "--noprofile", env={"PS1": "$ "}) as d:
            until_state(d, "ready")
            d.request("send", data="cd / && PS1='root-dir# '\r")
            self.assertTrue(d.request("expect", pattern="root-dir# ", timeout_ms=5000)["ok"])
            until_state(d, "ready")
            d.request("send", data='read -p "Continue? [y/N] " a\r')
            self.assertEqual(until_state(d, "needs_input")["question"], "Continue? [y/N]")
            d.request("send", data="y\r")
            until_state(d, "ready")


def heard(d, state, timeout=5):
    """The next program_state event with `state` (a change on the way, such as
    `running` while the program has not read its input yet, may come first)."""
    return d.wait_for(lambda m: m.get("type") == "program_state" and m["state"] == state, timeout)


@foreign_children
class Event(unittest.TestCase):
    def test_a_subscriber_hears_each_change_once(self):
        with Daemon("--", "python3", "-q") as d:
            until_state(d, "ready")
            r = d.request("subscribe", events=["program_state"])
            self.assertEqual(r["events"], ["program_state"])
            self.assertEqual(d.wait_for(lambda m: m.get("type") == "program_state", 5),
                             {"type": "program_state", "state": "ready", "question": None})
            d.request("send", data='input("Proceed (Y/n)? ")\r')
            e = heard(d, "needs_input")
            self.assertEqual(e, {"type": "program_state", "state": "needs_input", "question": "Proceed (Y/n)?"})
            d.request("send", data="y\r")
            heard(d, "ready")
            # Nothing changes: nothing more is said, and no change was said twice.
            time.sleep(2)
            d.request("status")
            self.assertEqual([m for m in d.events if m.get("type") == "program_state" and m["state"] != "running"], [])
            # Output events and the state events are subscribed to one at a time.
            r = d.request("subscribe", events=["output"])
            self.assertEqual((r["events"], r["encoding"]), (["output", "program_state"], "utf8"))
            r = d.request("unsubscribe", events=["program_state"])
            self.assertEqual(r["events"], ["output"])
            d.request("send", data="exit()\r")
            d.wait_for(lambda m: m.get("type") == "exit", 10)


if __name__ == "__main__":
    unittest.main()
