"""Claude Code, the genuine CLI, driven through tuidriver against the fake
Anthropic API. Replies, prompts, turns, streaming, cancel and timeout come
from AgentTurns; ready on a bare home, exact turns, a permission question
answered inside the turn and resume from ExactTurns; what only Claude does
is here."""
import os
import unittest

import homes
from agent_harness import (AgentLifecycle, TallResume, AgentSession, AgentTurns, RowStreaming, ToolTurns,
                           assert_text_agrees)
from exact_turns import ExactTurns, lose_writes
from tuiclient import run_once

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
        r = self.s.ask("create a file", timeout_ms=60000)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertIn("Do you want to proceed?", r["question"])
        # The client answers with keys (No), and the session goes on.
        self.s.daemon.request("keys", keys=["Escape"])
        self.s.daemon.request("wait_idle", idle_ms=500, timeout_ms=10000)
        self.assertFalse(os.path.exists(target))
        self.assertEqual(self.ask_ok("still there?", "Yes."), "Yes.")

    # A reply taller than the 40-row screen comes back whole: Claude draws on
    # the main screen (CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN in the engine),
    # so its top rows are in the scrollback, not gone with the alternate screen.
    def test_a_reply_taller_than_the_screen(self):
        text = "\n\n".join("line %d of a tall reply" % i for i in range(40))
        self.assertEqual(self.ask_ok("a tall reply please", text), text)


class ClaudeExact(ExactTurns, unittest.TestCase):
    """Exact turns from Claude's own transcript (issue 10), the shared suite."""
    CLI = CLI
    SESSION_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
    ID_AT_READY = True  # --session-id
    MODEL = "claude-opus-5-5"  # the pinned version's default model

    def tool_output(self, output):
        return output  # Claude keeps a command's output without its last newline

    # 1. Spawn on a bare home: agent mode answers the trust and API-key dialogs.
    def check_first_run(self, session):
        dialogs = [m["name"] for m in session.daemon.events if m.get("type") == "dialog"]
        self.assertIn("trust_folder", dialogs)
        self.assertIn("custom_api_key", dialogs)

    # Claude's question is its last line alone; the command is in the box
    # above it, on the screen.
    def assert_asks_about(self, daemon, event, command):
        self.assertEqual(event["question"], "Do you want to proceed?")
        self.assertIn(command, "\n".join(daemon.request("screen")["lines"]))

    def answer_permission(self, daemon, rid, event):
        self.assertEqual(event["question"], "Do you want to proceed?")
        self.assertEqual(event["options"][0], {"index": 1, "label": "Yes"}, event)
        self.assertTrue(daemon.request("answer", target=rid, option=1)["ok"])

    # The shared test's command (compound) wraps Claude's Bash(...) header onto
    # a second row in agent mode; `text` still starts at the answer
    # (FromAnswerStart). The short call keeps the plain case.
    def test_a_short_tool_call_and_its_output(self):
        self.start()
        self.api.script(self.shell_call("echo tool said hi"))
        r = self.ask("run the tool")
        tools = r["turn"]["tools"]
        self.assertEqual([(t["name"], t["input"]["command"], t["output"], t["ok"]) for t in tools],
                         [("Bash", "echo tool said hi", "tool said hi", True)], r)
        self.assertEqual((r["markdown"], r["text"]), ("Done.", "Done."))

    def break_transcript(self, session):
        sid = session.daemon.ready["session_id"]
        files = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(session.home, ".claude", "projects"))
                 for f in fs if f == sid + ".jsonl"]
        self.assertEqual(len(files), 1, files)
        lose_writes(files[0])  # whatever Claude writes now is lost
        return sid + ".jsonl"


class ClaudeResume(AgentLifecycle, TallResume, unittest.TestCase):
    CLI = CLI

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
                d.send({"id": rid, "type": "ask", "prompt": "create file %d" % n, "timeout_ms": 60000,
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

    # A fresh Claude offers auto mode just after its prompt shows: an ask
    # sent right after `ready` is typed into that offer. Once the rule has
    # answered it, the ask must be typed again, not wait out its timeout.
    def test_ask_right_after_ready(self):
        for i in range(2):
            self.api.reset()
            s = AgentSession(CLI, self.api)
            try:
                self.api.script("first %d" % i)
                r = s.ask("hello", timeout_ms=30000)
                self.assertEqual((r["ok"], r.get("text")), (True, "first %d" % i), r)
                self.assertEqual(len(self.api.turns()), 1)
            finally:
                s.close()


if __name__ == "__main__":
    unittest.main()
