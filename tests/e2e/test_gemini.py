"""Gemini CLI, the genuine CLI, driven through tuidriver against the fake
Gemini API. Each numbered section of the agent-engines issue has a test."""
import os
import textwrap
import unittest

from agent_harness import AgentLifecycle, AgentSession, AgentTurns

CLI = "gemini"


class Gemini(AgentTurns, unittest.TestCase):
    CLI = "gemini"
    CHROME = ("✦", ">   Type your message", "esc to cancel", "? for shortcuts", "───")

    # 2. Gemini renders Markdown: it draws no fences, and pads code blocks by
    # one column (the test home turns code line numbers off with
    # ui.showLineNumbers). Everything else comes back exactly, and the code
    # keeps its own indentation.
    def test_markdown_code_is_exact(self):
        reply = ("Here is the function:\n\n```python\ndef add(a, b):\n    if a:\n"
                 "        return a + b\n    return b\n```\n\nIt adds two numbers.")
        text = self.ask_ok("Show the code", reply)
        lines = text.split("\n")
        self.assertEqual(lines[:2], ["Here is the function:", ""])
        self.assertEqual(lines[-2:], ["", "It adds two numbers."])
        self.assertEqual(textwrap.dedent("\n".join(lines[2:-2])),
                         "def add(a, b):\n    if a:\n        return a + b\n    return b")

    # 8. A question no rule answers ends the ask with needs_input.
    # Issue 13, item 4: with on_input "wait" the permission box is reported
    # with its choices, answered by number, and the ask goes on to its reply.
    def test_answer_inside_a_turn(self):
        d = self.s.daemon
        target = os.path.join(self.s.cwd, "answered.txt")
        self.api.script({"tool_call": {"name": "run_shell_command",
                                       "input": {"command": "touch " + target,
                                                 "description": "Create a file"}}})
        d.send({"id": "q", "type": "ask", "prompt": "make the answered file", "timeout": 60,
                "on_input": "wait"})
        ev = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertIn("Allow execution of", ev["question"])
        self.assertEqual([o["label"] for o in ev["options"]][:2], ["Allow once", "Allow for this session"], ev)
        self.assertTrue(d.request("answer", target="q", option=1)["ok"])
        reply = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(reply["text"], "Done.")  # the fake's answer to a tool's result
        self.assertTrue(os.path.exists(target))

    def test_needs_input(self):
        target = os.path.join(self.s.cwd, "made-by-tool.txt")
        self.api.script({"tool_call": {"name": "run_shell_command",
                                       "input": {"command": "touch " + target,
                                                 "description": "Create a file"}}})
        r = self.s.ask("create a file", timeout=60)
        self.assertEqual(r["kind"], "needs_input", r)
        # The question names the tool and the command, and offers the answers.
        self.assertIn("? Shell  touch " + target, r["question"])
        self.assertIn("Allow execution of", r["question"])
        self.assertIn("Allow once", r["question"])
        # The client answers with keys (Escape: no), and the session goes on.
        self.s.daemon.request("keys", keys=["Escape"])
        self.s.daemon.wait_screen(lambda s: any("Type your message" in l for l in s["lines"]))
        self.assertFalse(os.path.exists(target))
        self.assertEqual(self.ask_ok("still there?", "Yes."), "Yes.")


class GeminiLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI
    CLI_PROCESSES = 2  # gemini and its relaunch

    # 1. Spawn on a bare home: agent mode trusts the folder (Gemini restarts
    # itself), picks the API key as the auth method and accepts the key.
    def test_bare_home_in_agent_mode(self):
        s = AgentSession(CLI, self.api, bare=True, mode="agent")
        try:
            dialogs = [m["name"] for m in s.daemon.events if m.get("type") == "dialog"]
            # A slow restart can leave the trust question up long enough for
            # the daemon to answer it once more (harmless: Enter again).
            answered = [d for i, d in enumerate(dialogs) if i == 0 or dialogs[i - 1] != d]
            self.assertEqual(answered, ["trust_folder", "auth_method", "api_key"])
            self.api.script("Ready here.")
            self.assertEqual(s.ask("hello")["text"], "Ready here.")
        finally:
            s.close()


if __name__ == "__main__":
    unittest.main()
