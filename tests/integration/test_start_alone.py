"""The engine field `start_alone_until` (docs/engines.md): sessions started
together on a home where the CLI has never run wait for one first start,
then start together. The CLI is tests/programs/first_start_cli.py, whose
first start fails a second start beside it as Kilo's does."""
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import unittest

from tuiclient import Daemon, program


class StartAlone(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="tuidriver-start-alone-")
        self.addCleanup(shutil.rmtree, self.home, ignore_errors=True)
        # The lock files go to $TMPDIR and stay (docs/engines.md): here, in
        # the test's own directory, removed with it.
        self.env = {"TMPDIR": self.home}

    def daemon(self, engine, **kwargs):
        return Daemon("--engine-file", engine, env=self.env, **kwargs)

    def engine(self, alone):
        config = {"command": [sys.executable, program("first_start_cli.py")],
                  "env": {"HOME": self.home}, "prompt": {"pattern": "^cli> $"},
                  "timeouts": {"ready_ms": 20000}}
        if alone:
            config["start_alone_until"] = "{home}/store.db"
        path = os.path.join(self.home, "engine.json")
        with open(path, "w") as f:
            json.dump(config, f)
        return path

    def start_together(self, engine, count):
        daemons = [self.daemon(engine, wait_ready=False) for _ in range(count)]
        for d in daemons:
            self.addCleanup(d.__exit__)
        # `ready`, or the error that says why not (kind not_ready).
        return daemons, [d.wait_for(lambda m: m.get("type") in ("ready", "error"), 30) for d in daemons]

    def test_without_it_a_first_start_beside_another_fails(self):
        # The toy CLI's race is real: the field below is what avoids it.
        _, first = self.start_together(self.engine(alone=False), 3)
        self.assertIn("not_ready", [m.get("kind") for m in first], first)

    def test_sessions_started_together_on_a_new_home_all_start(self):
        daemons, first = self.start_together(self.engine(alone=True), 3)
        self.assertEqual([m["type"] for m in first], ["ready"] * 3, first)
        said = sorted(next(line for line in d.request("screen")["lines"] if line.startswith("store "))
                      for d in daemons)
        self.assertEqual(said, ["store found", "store found", "store made"])
        for d in daemons:  # each session works
            self.assertEqual(d.ask("hello", timeout_ms=10000)["text"], "hello")
        waited = [d for d in daemons if "waited" in d.stderr_tail()]
        self.assertEqual(len(waited), 2)  # the two that found the first start under way say so

    def test_a_home_used_before_starts_without_waiting(self):
        engine = self.engine(alone=True)
        with self.daemon(engine, timeout=30) as first:
            first.close()
        daemons, first = self.start_together(engine, 3)
        self.assertEqual([m["type"] for m in first], ["ready"] * 3, first)
        for d in daemons:
            self.assertNotIn("waited", d.stderr_tail())

    def test_a_waiting_session_ends_at_once_when_terminated(self):
        engine = self.engine(alone=True)
        os.environ["MIGRATE_SECONDS"] = "20"
        self.addCleanup(os.environ.pop, "MIGRATE_SECONDS")
        first = self.daemon(engine, wait_ready=False)
        self.addCleanup(first.__exit__)
        while not os.path.exists(os.path.join(self.home, "store.db")):
            time.sleep(0.02)
        waiting = self.daemon(engine, wait_ready=False)
        self.addCleanup(waiting.__exit__)
        time.sleep(0.3)
        self.assertIsNone(waiting.proc.poll())  # still waiting for the first start
        waiting.proc.send_signal(signal.SIGTERM)
        waiting.proc.wait(timeout=5)


if __name__ == "__main__":
    unittest.main()
