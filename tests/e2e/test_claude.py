"""Claude Code, the genuine CLI, driven through tuidriver against the fake
Anthropic API. Each numbered section of the agent-engines issue has a test."""
import os
import unittest

from agent_harness import AgentLifecycle, AgentSession, AgentTurns, RowStreaming

CLI = "claude"


class Claude(AgentTurns, RowStreaming, unittest.TestCase):
    CLI = "claude"
    CHROME = ("✻", "❯", "esc to interrupt", "───")

    # 8. A question no rule answers ends the ask with needs_input.
    def test_needs_input(self):
        target = os.path.join(self.s.cwd, "made-by-tool.txt")
        self.api.script({"tool_call": {"name": "Bash", "input": {"command": "touch " + target,
                                                                 "description": "Create a file"}}})
        r = self.s.ask("create a file", timeout=60)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertIn("Do you want to proceed?", r["question"])
        # The client answers with keys (No), and the session goes on.
        self.s.daemon.request("keys", keys=["Escape"])
        self.s.daemon.request("wait_idle", idle_ms=500, timeout=10)
        self.assertFalse(os.path.exists(target))
        self.assertEqual(self.ask_ok("still there?", "Yes."), "Yes.")


class ClaudeLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI
    CLI_PROCESSES = 1  # claude

    # 1. Spawn on a bare home: agent mode answers the trust and API-key dialogs.
    def test_bare_home_in_agent_mode(self):
        s = AgentSession(CLI, self.api, bare=True, mode="agent")
        try:
            dialogs = [m["name"] for m in s.daemon.events if m.get("type") == "dialog"]
            self.assertIn("trust_folder", dialogs)
            self.assertIn("custom_api_key", dialogs)
            self.api.script("Ready here.")
            self.assertEqual(s.ask("hello")["text"], "Ready here.")
        finally:
            s.close()

    # A fresh Claude offers auto mode just after its prompt shows: an ask
    # sent right after `ready` is typed into that offer. Once the rule has
    # answered it, the ask must be typed again, not wait out its timeout.
    def test_ask_right_after_ready(self):
        for i in range(2):
            self.api.reset()
            s = AgentSession(CLI, self.api)
            try:
                self.api.script("first %d" % i)
                r = s.ask("hello", timeout=30)
                self.assertEqual((r["ok"], r.get("text")), (True, "first %d" % i), r)
                self.assertEqual(len(self.api.turns()), 1)
            finally:
                s.close()


if __name__ == "__main__":
    unittest.main()
