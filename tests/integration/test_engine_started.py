"""The engine field `started`: a program that draws its prompt before it
has finished starting is ready only once a `started` pattern shows."""
import json
import os
import tempfile
import unittest

from tuiclient import Daemon, run_once

# Draws its prompt at once, and the line that says it is done starting
# two seconds later.
SLOW_STARTER = ["sh", "-c", "printf '$ '; sleep 2; printf '\\nstarted up\\n$ '; exec cat"]


def engine_file(config):
    fd, path = tempfile.mkstemp(suffix=".json", prefix="started-")
    with os.fdopen(fd, "w") as f:
        json.dump(config, f)
    return path


class Started(unittest.TestCase):
    def test_first_ready_waits_for_a_started_pattern(self):
        path = engine_file({"command": SLOW_STARTER, "prompt": {"pattern": "^\\$ $"},
                            "started": ["^started up$"], "timeouts": {"ready_ms": 20000}})
        try:
            with Daemon("--engine-file", path, timeout=30) as d:
                lines = d.request("screen")["lines"]
                self.assertIn("started up", lines)
        finally:
            os.unlink(path)

    def test_never_started_names_the_missing_patterns(self):
        path = engine_file({"command": ["sh", "-c", "printf '$ '; exec cat"],
                            "prompt": {"pattern": "^\\$ $"}, "started": ["^never$"],
                            "timeouts": {"ready_ms": 1000}})
        try:
            code, msgs, _ = run_once(["--engine-file", path], "")
        finally:
            os.unlink(path)
        self.assertEqual(code, 3)
        errors = [m for m in msgs if m.get("kind") == "not_ready"]
        self.assertEqual(len(errors), 1)
        self.assertIn("showed its prompt but none of its `started` patterns", errors[0]["error"])
        # The daemon ended the program before it exited itself.
        self.assertEqual(msgs[-1]["type"], "exit")


if __name__ == "__main__":
    unittest.main()
