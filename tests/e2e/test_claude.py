"""Claude Code, the genuine CLI, driven through tuidriver against the fake
Anthropic API. Each numbered section of the agent-engines issue has a test."""
import os
import time
import unittest

from agent_harness import AgentSession, FakeApi, processes_matching, words

CLI = "claude"


class Claude(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = FakeApi()
        cls.s = AgentSession(CLI, cls.api)

    @classmethod
    def tearDownClass(cls):
        cls.s.close()
        cls.api.stop()

    def setUp(self):
        self.api.reset()  # each test scripts its own replies

    def ask_ok(self, prompt, *replies, timeout=60):
        self.api.script(*replies)
        r = self.s.ask(prompt, timeout=timeout)
        self.assertTrue(r["ok"], r)
        return r["text"]

    # 2. Replies
    def test_one_word(self):
        self.assertEqual(self.ask_ok("Say one word", "Forty-two."), "Forty-two.")

    def test_multi_line(self):
        text = "First line.\nSecond line.\nThird line."
        self.assertEqual(self.ask_ok("Three lines please", text), text)

    def test_unicode(self):
        text = "Café déjà vu — 日本語のテキスト 🚀 done."
        self.assertEqual(self.ask_ok("Unicode please", text), text)

    def test_long_reply_is_unwrapped(self):
        text = words(400)
        self.assertEqual(self.ask_ok("Write a lot", text, timeout=90), text)

    def test_markdown_with_code_block(self):
        reply = ("Here is the function:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\n"
                 "It adds two numbers.")
        text = self.ask_ok("Show code", reply)
        self.assertIn("Here is the function:", text)
        self.assertIn("def add(a, b):", text)
        self.assertIn("    return a + b", text)
        self.assertTrue(text.endswith("It adds two numbers."), text)
        for chrome in ("✻", "❯", "esc to interrupt", "───"):
            self.assertNotIn(chrome, text)

    # 3. Multi-line prompts arrive as one message.
    def test_multi_line_prompt(self):
        before = len(self.api.turns())
        self.ask_ok("first line of the prompt\nsecond line\nthird line", "Got it.")
        turns = self.api.turns()[before:]
        self.assertEqual(len(turns), 1, turns)
        self.assertIn("first line of the prompt\nsecond line\nthird line", turns[0]["prompt"])

    # 4. Multi-turn: each ask gets its own reply.
    def test_three_turns(self):
        for i in range(3):
            self.assertEqual(self.ask_ok("turn %d" % i, "Reply number %d." % i), "Reply number %d." % i)

    # 5. Streaming: deltas arrive while the model is still streaming.
    def test_stream(self):
        text = words(30)
        self.api.script({"text": text, "first_delay_ms": 300, "word_delay_ms": 80})
        chunks, reply = self.s.ask_stream("stream please")
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(reply["text"], text)
        self.assertEqual("".join(c for _, c in chunks), text)
        self.assertGreater(len(chunks), 1, chunks)
        finished = self.api.state()["last_turn_finished_at"]
        self.assertLess(chunks[0][0], finished, "the first delta came only after the model finished")

    # 6. Cancel during a slow reply; the next ask works.
    def test_cancel(self):
        d = self.s.daemon
        self.api.script({"text": words(200), "first_delay_ms": 2000, "word_delay_ms": 50})
        started = self.api.state()["turns_started"]
        d.send({"id": "slow", "type": "ask", "prompt": "slow answer", "timeout": 60})
        self.api.wait_turn_started(started + 1)
        c = d.request("cancel", target="slow")
        self.assertTrue(c["ok"], c)
        r = d.wait_for(lambda m: m.get("id") == "slow", 30)
        self.assertEqual(r["kind"], "cancelled", r)
        self.assertEqual(self.ask_ok("after cancel", "Back to normal."), "Back to normal.")

    # 7. Timeout, then recovery with only the next ask's reply.
    def test_timeout_recovers(self):
        self.api.script({"text": "too late " + words(50), "first_delay_ms": 4000})
        started = self.api.state()["turns_started"]
        r = self.s.ask("this will time out", timeout=1.5)
        self.api.wait_turn_started(started + 1)
        self.assertEqual(r["kind"], "timeout", r)
        self.assertEqual(self.ask_ok("next question", "Only this."), "Only this.")

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


class ClaudeLifecycle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = FakeApi()

    @classmethod
    def tearDownClass(cls):
        cls.api.stop()

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
