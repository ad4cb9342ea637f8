"""Gemini CLI, the genuine CLI, driven through tuidriver against the fake
Gemini API. Each numbered section of the agent-engines issue has a test."""
import glob
import json
import os
import shutil
import textwrap
import time
import unittest

import homes
from agent_harness import AgentLifecycle, AgentSession, AgentTurns, TallResume, ToolTurns, assert_text_agrees
from tuiclient import Daemon

CLI = "gemini"


class Gemini(AgentTurns, ToolTurns, unittest.TestCase):
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
        d.send({"id": "q", "type": "ask", "prompt": "make the answered file", "timeout": 60,
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



class GeminiTranscript(AgentLifecycle, unittest.TestCase):
    """Issue 10: exact turns from Gemini's chat file (given its session id
    with --session-id, found by its first record)."""
    CLI = CLI
    MARKDOWN = "## Plan\nUse **bold** and `code`.\n\n```python\ndef f(x):\n    return x * 2\n```\n\nSee [docs](https://example.com)."

    def setUp(self):
        self.api.reset()
        self.s = AgentSession(CLI, self.api)
        self.sid = self.s.daemon.ready["session_id"]

    def tearDown(self):
        self.s.close()

    def test_markdown_tools_five_turns_and_an_unreadable_file(self):
        self.api.script(self.MARKDOWN)
        r = self.s.ask("make a plan", timeout=60)
        self.assertEqual(r["markdown"], self.MARKDOWN, r)
        self.assertEqual(r["turn"]["session_id"], self.sid)
        self.assertEqual(self.s.daemon.request("status")["session_id"], self.sid)
        self.assertTrue(r["turn"]["model"])
        run = {"tool_call": {"name": "run_shell_command", "input": {"command": "echo tool said hi"}}}
        self.api.script(run)  # the fake answers a tool's result with "Done."
        r = self.s.ask("run it", timeout=60)
        self.assertEqual((r["markdown"], r["text"]), ("Done.", "Done."), r)
        tools = r["turn"]["tools"]
        self.assertEqual([(t["name"], t["input"], t["ok"]) for t in tools],
                         [("run_shell_command", {"command": "echo tool said hi"}, True)], r)
        self.assertIn("tool said hi", tools[0]["output"])
        answers = ["Turn %d is `%d`." % (i, i) for i in range(5)]
        self.api.script(*answers)
        for i, answer in enumerate(answers):
            r = self.s.ask("turn %d" % i, timeout=60)
            self.assertEqual((r["markdown"], r["text"]), (answer, "Turn %d is %d." % (i, i)), r)
        files = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(self.s.home, ".gemini", "tmp"))
                 for f in fs if f.endswith(self.sid[:8] + ".jsonl")]
        self.assertEqual(len(files), 1, files)
        os.unlink(files[0])
        os.symlink("/dev/null", files[0])
        self.api.script("Still here.")
        r = self.s.ask("still there?", timeout=60)
        self.assertEqual((r["text"], r["markdown"]), ("Still here.", None), r)
        self.assertIn(self.sid[:8], r["transcript_error"])  # the file, named in the error


class GeminiResume(AgentLifecycle, TallResume, unittest.TestCase):
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
                self.assertEqual((r["markdown"], r.get("turn", {}).get("session_id")), ("kiwi", sid), r)
                self.assertIn("remember the word kiwi", json.dumps(self.api.turns()[-1]))
                d.close()
        finally:
            shutil.rmtree(s.tmp, ignore_errors=True)


    # Resumed in a later minute, Gemini writes a second file for the id (a
    # header, no prompt) and goes on in the old one: the turn and the
    # history come from the old one.
    def test_resume_in_a_later_minute(self):
        s = AgentSession(CLI, self.api)
        try:
            sid = s.daemon.ready["session_id"]
            self.api.script("remembered")
            self.assertEqual(s.ask("remember the word fig", timeout=60)["markdown"], "remembered")
            s.daemon.close(timeout=20)
            s.daemon.__exit__()
            chats = glob.glob(os.path.join(s.home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
            time.sleep(61 - time.time() % 60)
            env = homes.make_env(CLI, s.home, s.cwd, self.api.port)
            with Daemon(CLI, "--cwd", s.cwd, "--resume", sid, env=env, timeout=60) as d:
                self.api.script("fig")
                r = d.ask("which word?", timeout=60)
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
