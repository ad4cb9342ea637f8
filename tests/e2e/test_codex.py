"""OpenAI Codex, the genuine CLI, driven through tuidriver against the fake
Responses API. Items 2-7 and 9 of the agent-engines issue (needs_input and
the bare-home dialogs are covered for Claude only so far)."""
import os
import unittest

from agent_harness import AgentSession, AgentTurns, FakeApi, processes_matching

CLI = "codex"


class Codex(AgentTurns, unittest.TestCase):
    CLI = "codex"
    CHROME = ("Worked for", "›", "esc to interrupt")


class CodexLifecycle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = FakeApi()

    @classmethod
    def tearDownClass(cls):
        cls.api.stop()

    # 1. Spawn on a bare home in a git repository: agent mode answers the
    # folder-trust and model-migration dialogs.
    def test_bare_home_in_agent_mode(self):
        s = AgentSession(CLI, self.api, bare=True, mode="agent", git_repo=True)
        try:
            dialogs = [m["name"] for m in s.daemon.events if m.get("type") == "dialog"]
            self.assertEqual(dialogs, ["trust_folder", "model_migration"])
            with open(os.path.join(s.home, ".codex", "config.toml")) as f:
                config = f.read()
            self.assertIn('trust_level = "trusted"', config)  # the answers were taken
            self.assertIn('"gpt-5.5" = "gpt-6-sol"', config)
            self.api.script("Ready here.")
            self.assertEqual(s.ask("hello")["text"], "Ready here.")
        finally:
            s.close()

    # 9. Close ends the CLI and everything it started.
    def test_close_leaves_nothing(self):
        s = AgentSession(CLI, self.api)
        pid = s.pid
        tmp = s.tmp
        reply = s.close()
        self.assertTrue(reply["ok"], reply)
        with self.assertRaises(ProcessLookupError):
            os.kill(pid, 0)
        self.assertEqual(processes_matching(tmp), [])


if __name__ == "__main__":
    unittest.main()
