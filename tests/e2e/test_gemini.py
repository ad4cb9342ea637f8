"""Gemini CLI, the genuine CLI, driven through tuidriver against the fake
Gemini API. Replies, prompts, turns, streaming, cancel and timeout come
from AgentTurns; ready on a bare home, exact turns, a permission question
answered inside the turn and resume from ExactTurns; what only Gemini does
is here."""
import glob
import os
import re
import shutil
import textwrap
import time
import unittest

import homes
from agent_harness import (AgentLifecycle, AgentSession, AgentTurns, RowStreaming, TallResume, ToolTurns,
                           assert_text_agrees)
from exact_turns import ExactTurns, lose_writes
from tuiclient import Daemon

CLI = "gemini"


class Gemini(AgentTurns, RowStreaming, ToolTurns, unittest.TestCase):
    CLI = "gemini"
    CHROME = ("✦", ">   Type your message", "esc to cancel", "? for shortcuts", "───")

    def tool_call(self, command):
        return {"tool_call": {"name": "run_shell_command", "input": {"command": command}}}

    def asking_tool_call(self, path):
        return {"tool_call": {"name": "run_shell_command",
                              "input": {"command": "touch " + path, "description": "Create a file"}}}

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
        d.send({"id": "q", "type": "ask", "prompt": "make the answered file", "timeout_ms": 60000,
                "on_input": "wait"})
        ev = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertIn("Allow execution of", ev["question"])
        self.assertEqual([o["label"] for o in ev["options"]][:2], ["Allow once", "Allow for this session"], ev)
        self.assertTrue(d.request("answer", target="q", option=1)["ok"])
        reply = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertTrue(reply["ok"], reply)
        assert_text_agrees(reply)
        self.assertEqual(reply["text"], "Done.")  # the fake's answer to a tool's result
        self.assertTrue(os.path.exists(target))

    def test_needs_input(self):
        target = os.path.join(self.s.cwd, "made-by-tool.txt")
        self.api.script({"tool_call": {"name": "run_shell_command",
                                       "input": {"command": "touch " + target,
                                                 "description": "Create a file"}}})
        r = self.s.ask("create a file", timeout_ms=60000)
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



class GeminiExact(ExactTurns, unittest.TestCase):
    """Exact turns from Gemini's chat file (issue 10; given its session id
    with --session-id, found by its first record): the shared suite."""
    CLI = CLI
    SESSION_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
    SHELL_TOOL = "run_shell_command"
    SHELL_DESCRIBED = False
    ID_AT_READY = True  # --session-id

    # Each release has its default model (0.61.0: gemini-3.8-flash, 0.60.0:
    # gemini-3.5-flash): the turn names the one the CLI asked the API for.
    def expected_model(self):
        path = self.api.turns()[-1]["path"]  # /v1beta/models/M:streamGenerateContent?alt=sse
        return re.search(r"/models/([^/:]+)", path).group(1)

    # Gemini wraps a command's output, with the process group it ran in.
    def tool_output_pattern(self, output):
        return r"\A<untrusted_context>\nOutput: %s\nProcess Group PGID: \d+\n</untrusted_context>\Z" % re.escape(output)

    # 1. Spawn on a bare home: agent mode trusts the folder (Gemini restarts
    # itself), picks the API key as the auth method and accepts the key.
    def check_first_run(self, session):
        dialogs = [m["name"] for m in session.daemon.events if m.get("type") == "dialog"]
        # A slow restart can leave the trust question up long enough for
        # the daemon to answer it once more (harmless: Enter again).
        answered = [d for i, d in enumerate(dialogs) if i == 0 or dialogs[i - 1] != d]
        self.assertEqual(answered, ["trust_folder", "auth_method", "api_key"])

    def answer_permission(self, daemon, rid, event):
        self.assertIn("Allow execution of", event["question"])
        self.assertEqual([o["label"] for o in event["options"]][:2], ["Allow once", "Allow for this session"], event)
        self.assertTrue(daemon.request("answer", target=rid, option=1)["ok"])

    def break_transcript(self, session):
        sid = session.daemon.ready["session_id"]
        files = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(session.home, ".gemini", "tmp"))
                 for f in fs if f.endswith(sid[:8] + ".jsonl")]
        self.assertEqual(len(files), 1, files)
        lose_writes(files[0])
        return sid[:8]  # the file, named in the error


class GeminiResume(AgentLifecycle, TallResume, unittest.TestCase):
    CLI = CLI


    # Resumed in a later minute, Gemini writes a second file for the id (a
    # header, no prompt) and goes on in the old one: the turn and the
    # history come from the old one.
    def test_resume_in_a_later_minute(self):
        s = AgentSession(CLI, self.api)
        try:
            sid = s.daemon.ready["session_id"]
            self.api.script("remembered")
            self.assertEqual(s.ask("remember the word fig", timeout_ms=60000)["markdown"], "remembered")
            s.daemon.close(timeout=20)
            chats = glob.glob(os.path.join(s.home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
            time.sleep(61 - time.time() % 60)
            env = homes.make_env(CLI, s.home, s.cwd, self.api.port)
            with Daemon(CLI, "--cwd", s.cwd, "--resume", sid, env=env, timeout=60) as d:
                self.api.script("fig")
                r = d.ask("which word?", timeout_ms=60000)
                self.assertEqual((r["markdown"], r.get("turn", {}).get("session_id")), ("fig", sid), r)
                files = glob.glob(os.path.join(s.home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
                self.assertEqual(2, len(files), files)  # the case this test is about
                h = d.request("history")
                self.assertEqual([(t["prompt"], t["markdown"]) for t in h["turns"]],
                                 [("remember the word fig", "remembered"), ("which word?", "fig")], h)
                d.close()
            self.assertEqual(1, len(chats), chats)
        finally:
            shutil.rmtree(s.tmp, ignore_errors=True)


class GeminiLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI
    CLI_PROCESSES = 2  # gemini and its relaunch


if __name__ == "__main__":
    unittest.main()
