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

    # Issue 22, item 2: a banner scrolled off by a resumed history in the same
    # write is still seen (in the history), and stays met; while the banner
    # has not come, status.explain says that is what the session waits for.
    def test_a_started_pattern_scrolled_off_at_once_is_met(self):
        history = "".join("history row %d\\n" % i for i in range(60))
        path = engine_file({"command": ["sh", "-c", "printf '$ '; sleep 2; printf '\\nTips for getting started\\n%s$ '; "
                                        "exec cat" % history],
                            "prompt": {"pattern": "^\\$ $"}, "started": ["^Tips for getting started$"],
                            "timeouts": {"ready_ms": 20000}})
        try:
            with Daemon("--engine-file", path, "--rows", "10", wait_ready=False, timeout=30) as d:
                d.wait_screen(lambda screen: screen["lines"][0] == "$")
                status = d.request("status")
                self.assertEqual(status["state"], "starting", status)
                explain = status["explain"]
                self.assertEqual((explain["verdict"], explain["rule"]), ("starting", None), explain)
                self.assertIn("none of the engine's `started` patterns has been seen yet "
                              "(started[0] ^Tips for getting started$); prompt matches the screen", explain["note"])
                self.assertEqual(explain["started"]["seen"], False)
                self.assertEqual([m["rule"] for m in explain["also"]], ["prompt"])
                d.wait_for(lambda m: m.get("type") == "ready", 20)
                status = d.request("status")
                self.assertEqual(status["state"], "ready")
                self.assertNotIn("Tips for getting started", d.request("screen")["lines"])
                self.assertEqual(status["explain"]["started"]["rule"]["text"], "Tips for getting started")
                self.assertIsNone(status["explain"]["started"]["rule"]["row"])  # seen in the history
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
