"""Submitting a whole prompt to an agent TUI: submit.resubmit_ms presses
Enter again when the program dropped it (dropping_tui.py drops the first
Enter after every paste)."""
import json
import os
import sys
import tempfile
import unittest

from tuiclient import Daemon, program, run_once

DROPPING_TUI = program("dropping_tui.py")


def engine_file(resubmit_ms):
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump({"command": [sys.executable, DROPPING_TUI],
                   "prompt": {"pattern": "^> Type here$", "scope": "cursor_line"},
                   "reply": {"start": "^\u25cf "},
                   "submit": {"mode": "paste", "resubmit_ms": resubmit_ms}}, f)
    return path


class Resubmit(unittest.TestCase):
    def test_a_dropped_enter_is_pressed_again(self):
        path = engine_file(500)
        try:
            with Daemon("--engine-file", path) as d:
                for prompt in ("hello", "second turn", "caf\u00e9 \u2705 and a long line " + "x" * 80):
                    reply = d.ask(prompt, timeout_ms=15000)
                    self.assertEqual((reply["ok"], reply["text"]), (True, "you said: " + prompt), reply)
        finally:
            os.unlink(path)

    def test_without_it_the_turn_never_begins(self):
        # What the setting is for: the prompt stays in the input box.
        path = engine_file(0)
        try:
            with Daemon("--engine-file", path) as d:
                reply = d.ask("hello", timeout_ms=3000)
                self.assertEqual(reply["kind"], "timeout", reply)
                self.assertIn("> hello", d.request("screen")["lines"])
        finally:
            os.unlink(path)

    def test_it_is_checked_at_load(self):
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump({"command": ["true"], "prompt": {"pattern": "x"}, "submit": {"resubmit_ms": -1}}, f)
        try:
            code, msgs, err = run_once(["--engine-file", path], "")
        finally:
            os.unlink(path)
        self.assertEqual(code, 2, (msgs, err))
        self.assertIn("submit.resubmit_ms", err)


if __name__ == "__main__":
    unittest.main()
