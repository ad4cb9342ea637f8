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

    # Issue 13, item 4: with on_input "wait", a permission question inside
    # the turn is reported with its choices; the answer selects one and the
    # same ask goes on to its reply.
    def test_dialog_inside_a_turn(self):
        s = AgentSession(CLI, self.api, extra_args=("--permission-mode", "default"))
        try:
            d = s.daemon
            for n, choose in ((1, "Yes"), (2, "No")):
                target = os.path.join(s.cwd, "made-%d.txt" % n)
                self.api.script({"tool_call": {"name": "Bash", "input": {
                    "command": "touch " + target, "description": "Create a file"}}})
                rid = "turn%d" % n
                d.send({"id": rid, "type": "ask", "prompt": "create file %d" % n, "timeout": 60,
                        "on_input": "wait"})
                ev = d.wait_for(lambda m: m.get("id") == rid, 60)
                self.assertEqual(ev["type"], "needs_input", ev)
                self.assertEqual(ev["question"], "Do you want to proceed?")
                labels = {o["label"]: o["index"] for o in ev["options"]}
                self.assertEqual(ev["options"][0], {"index": 1, "label": "Yes"})
                self.assertIn("No", labels, ev)
                r = d.request("answer", target=rid, option=labels[choose])
                self.assertTrue(r["ok"], r)
                reply = d.wait_for(lambda m: m.get("id") == rid, 60)
                self.assertTrue(reply["ok"], reply)
                self.assertEqual(os.path.exists(target), choose == "Yes")
            self.api.script("Still here.")
            self.assertEqual(s.ask("still there?")["text"], "Still here.")
        finally:
            s.close()

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
