"""Claude Code, the genuine CLI, driven through tuidriver against the fake
Anthropic API. Each numbered section of the agent-engines issue has a test."""
import json
import os
import shutil
import unittest

import homes
from agent_harness import (AgentLifecycle, TallResume, AgentSession, AgentTurns, RowStreaming, ToolTurns,
                           assert_text_agrees)
from exact_turns import MARKDOWN
from tuiclient import Daemon, run_once

CLI = "claude"


class Claude(AgentTurns, RowStreaming, ToolTurns, unittest.TestCase):
    CLI = "claude"
    CHROME = ("✻", "❯", "esc to interrupt", "───")

    def tool_call(self, command):
        return {"tool_call": {"name": "Bash", "input": {"command": command, "description": "Run it"}}}

    def asking_tool_call(self, path):
        return {"tool_call": {"name": "Bash", "input": {"command": "touch " + path,
                                                        "description": "Create a file"}}}

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

    # A reply taller than the 40-row screen comes back whole: Claude draws on
    # the main screen (CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN in the engine),
    # so its top rows are in the scrollback, not gone with the alternate screen.
    def test_a_reply_taller_than_the_screen(self):
        text = "\n\n".join("line %d of a tall reply" % i for i in range(40))
        self.assertEqual(self.ask_ok("a tall reply please", text), text)


class ClaudeTranscript(AgentLifecycle, unittest.TestCase):
    """Issue 10: exact turns from Claude's own transcript."""
    CLI = CLI

    def setUp(self):
        self.api.reset()
        self.s = AgentSession(CLI, self.api)
        self.sid = self.s.daemon.ready["session_id"]

    def tearDown(self):
        self.s.close()

    def test_markdown_is_exact_and_the_turn_is_described(self):
        self.assertRegex(self.sid, r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        self.api.script(MARKDOWN)
        r = self.s.ask("make a plan", timeout=60)
        self.assertTrue(r["ok"], r)
        self.assertEqual(r["markdown"], MARKDOWN)
        self.assertIn("first item", r["text"])  # the screen's rendering, not empty
        turn = r["turn"]
        self.assertEqual((turn["session_id"], turn["tools"]), (self.sid, []))
        self.assertTrue(turn["model"])
        self.assertGreater(turn["usage"]["output_tokens"], 0)
        self.assertEqual(self.s.daemon.request("status")["session_id"], self.sid)

    def test_a_tool_call_and_its_output(self):
        self.api.script({"tool_call": {"name": "Bash", "input": {"command": "echo tool said hi",
                                                                 "description": "Say hi"}}})
        r = self.s.ask("run the tool", timeout=60)
        self.assertTrue(r["ok"], r)
        tools = r["turn"]["tools"]
        self.assertEqual(len(tools), 1, r)
        self.assertEqual((tools[0]["name"], tools[0]["input"]["command"], tools[0]["output"], tools[0]["ok"]),
                         ("Bash", "echo tool said hi", "tool said hi", True))
        # The answer after the tool call, on screen and in the transcript.
        self.assertEqual(r["markdown"], "Done.")
        self.assertEqual(r["text"], "Done.")

    def test_five_turns_in_a_row_all_exact(self):
        answers = ["**%d** is `n`, and the prompt was turn %d:\n\n- turn %d" % (i, i, i) for i in range(5)]
        self.api.script(*answers)
        for i, answer in enumerate(answers):
            r = self.s.ask("turn %d" % i, timeout=60)
            self.assertEqual(r["markdown"], answer, r)
            self.assertIn("turn %d" % i, r["text"])

    def test_a_transcript_that_cannot_be_read_is_reported(self):
        self.api.script("first")
        self.assertEqual(self.s.ask("one", timeout=60)["markdown"], "first")
        path = self.s.daemon.request("status")["session_id"]
        files = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(self.s.home, ".claude", "projects"))
                 for f in fs if f == self.sid + ".jsonl"]
        self.assertEqual(len(files), 1, files)
        os.unlink(files[0])
        os.symlink("/dev/null", files[0])  # whatever Claude writes now is lost
        self.api.script("second")
        r = self.s.ask("two", timeout=60)
        self.assertTrue(r["ok"], r)
        self.assertEqual(r["text"], "second")  # the screen still answers
        self.assertIsNone(r["markdown"])
        self.assertIn(self.sid + ".jsonl", r["transcript_error"])


class ClaudeResume(AgentLifecycle, TallResume, unittest.TestCase):
    CLI = CLI

    def test_resume_across_two_daemons(self):
        s = AgentSession(CLI, self.api)
        try:
            sid = s.daemon.ready["session_id"]
            self.api.script("remembered")
            self.assertEqual(s.ask("remember the word kiwi", timeout=60)["markdown"], "remembered")
            s.daemon.close(timeout=20)
            s.daemon.__exit__()
            env = homes.make_env(CLI, s.home, s.cwd, self.api.port)
            with Daemon(CLI, "--cwd", s.cwd, "--resume", sid, env=env, timeout=60) as d:
                self.assertEqual(d.ready["session_id"], sid)
                self.api.script("kiwi")
                r = d.ask("which word?", timeout=60)
                assert_text_agrees(r)
                self.assertEqual((r["markdown"], r["turn"]["session_id"]), ("kiwi", sid))
                # The model saw the first daemon's turn.
                last = self.api.turns()[-1]
                self.assertIn("remember the word kiwi", json.dumps(last))
                d.close()
        finally:
            shutil.rmtree(s.tmp, ignore_errors=True)

    def test_an_unknown_session_id_ends_with_3_and_the_clis_message(self):
        s = AgentSession(CLI, self.api)
        try:
            env = homes.make_env(CLI, s.home, s.cwd, self.api.port)
            code, msgs, stderr = run_once([CLI, "--cwd", s.cwd, "--resume", "00000000-0000-4000-8000-000000000000"],
                                          "", env=env, timeout=60)
            self.assertEqual(code, 3, msgs)
            self.assertIn("not_ready", [m.get("kind") for m in msgs])
            self.assertIn("00000000-0000-4000-8000-000000000000", stderr)
        finally:
            s.close()


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
                assert_text_agrees(reply)
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
