"""status.explain: which engine rule decided the screen's state, with the
row or title it matched, or that no rule matched. Driven against a small
real program whose screen the test controls."""
import json
import os
import sys
import tempfile
import unittest

from tuiclient import Daemon

# A toy TUI: `$ ` prompt; `work` shows a busy line for a while; `title`
# sets a busy window title; `blank` clears the screen and shows no prompt.
PROGRAM = r'''
import sys, time
def prompt():
    sys.stdout.write("$ "); sys.stdout.flush()
prompt()
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "work":
        print("Working (esc to cancel)"); sys.stdout.flush(); time.sleep(3)
        print("done")
    elif cmd == "title":
        sys.stdout.write("\x1b]0;Busy: thinking\x07"); sys.stdout.flush(); time.sleep(3)
        sys.stdout.write("\x1b]0;idle\x07")
    elif cmd == "blank":
        sys.stdout.write("\x1b[2J\x1b[H"); sys.stdout.flush(); time.sleep(3)
    prompt()
'''


class Explain(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        fd, cls.path = tempfile.mkstemp(suffix=".json", prefix="explain-")
        with os.fdopen(fd, "w") as f:
            json.dump({"command": [sys.executable, "-c", PROGRAM],
                       "prompt": {"pattern": "^\\$ $", "scope": "cursor_line"},
                       "busy": ["never shown", "^Working \\("], "busy_title": "^Busy:"}, f)

    @classmethod
    def tearDownClass(cls):
        os.unlink(cls.path)

    def setUp(self):
        self.d = Daemon("--engine-file", self.path)

    def tearDown(self):
        self.d.close()

    def explain(self):
        st = self.d.request("status")
        self.assertTrue(st["ok"], st)
        return st["explain"]

    def test_prompt_decides_ready(self):
        e = self.explain()
        self.assertEqual(e["verdict"], "ready", e)
        self.assertEqual(e["rule"]["rule"], "prompt")
        self.assertEqual(e["rule"]["text"], "$ ")
        self.assertEqual(e["rule"]["pattern"], "^\\$ $")
        self.assertEqual(e["also"], [])

    def test_busy_pattern_names_its_row(self):
        self.d.request("send", data="work\r")
        self.d.request("expect", pattern="Working \\(")
        e = self.explain()
        self.assertEqual(e["verdict"], "busy", e)
        self.assertEqual((e["rule"]["rule"], e["rule"]["index"]), ("busy", 1))
        self.assertEqual(e["rule"]["text"], "Working (esc to cancel)")
        self.assertEqual(e["rule"]["row"], 1)
        self.assertIn("busy[1] matched row 1: Working (esc to cancel)", e["note"])

    def test_busy_title(self):
        self.d.request("send", data="title\r")
        self.d.wait_screen(lambda s: s["title"].startswith("Busy"))
        e = self.explain()
        self.assertEqual(e["verdict"], "busy", e)
        self.assertEqual(e["rule"]["rule"], "busy_title")
        self.assertEqual(e["rule"]["text"], "Busy: thinking")
        self.assertIsNone(e["rule"]["row"])

    def test_no_rule_matched_says_so(self):
        self.d.request("send", data="blank\r")
        self.d.wait_screen(lambda s: not any(s["lines"]))
        e = self.explain()
        self.assertEqual(e["verdict"], "unknown", e)
        self.assertIsNone(e["rule"])
        self.assertIn("no rule matched", e["note"])


if __name__ == "__main__":
    unittest.main()
