"""Qwen Code, the genuine CLI, driven through tuidriver against the fake Chat
Completions API (OPENAI_* variables, settings.json's auth type). Replies,
prompts, turns, streaming, cancel and timeout come from AgentTurns;
questions, exact turns, resume and close are here. After each turn Qwen asks
the model for a next-prompt suggestion (and may run a memory extraction):
the fake answers both as side calls, and the suggestion shows in the input
box as it would for a user."""
import json
import os
import shutil
import unittest

import homes
from agent_harness import AgentLifecycle, AgentSession, AgentTurns, RowStreaming
from tuiclient import Daemon

CLI = "qwen"


def chat_file(home, sid):
    root = os.path.join(home, ".qwen", "projects")
    return [os.path.join(dp, f) for dp, _, fs in os.walk(root) for f in fs if f == sid + ".jsonl"]


class Qwen(AgentTurns, RowStreaming, unittest.TestCase):
    CLI = CLI
    CHROME = ("◆", ">   Type your message", "esc to cancel", "───", "Ask permissions", "try it out")

    def touch_call(self, path):
        return {"tool_call": {"name": "run_shell_command", "input": {"command": "touch " + path}}}

    # 8. A question no rule answers ends the ask with needs_input; the client
    # answers with keys (Escape: no) and the session goes on.
    def test_needs_input(self):
        target = os.path.join(self.s.cwd, "refused.txt")
        self.api.script(self.touch_call(target))
        r = self.s.ask("create a file", timeout=60)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertIn("Allow execution of: 'touch'?", r["question"])
        self.assertIn("1. Yes, allow once", r["question"])
        self.s.daemon.request("keys", keys=["Escape"])
        self.assertEqual(self.ask_ok("still there?", "Yes."), "Yes.")
        self.assertFalse(os.path.exists(target))

    # With on_input "wait" the same question is reported with its choices,
    # answered by number, and the ask goes on to its reply.
    def test_answer_inside_a_turn(self):
        d = self.s.daemon
        target = os.path.join(self.s.cwd, "answered.txt")
        self.api.script(self.touch_call(target), "Made it.")
        d.send({"id": "q", "type": "ask", "prompt": "make the answered file", "timeout": 60,
                "on_input": "wait"})
        ev = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertIn("Allow execution of: 'touch'?", ev["question"])
        self.assertEqual(ev["options"][0], {"index": 1, "label": "Yes, allow once"}, ev)
        self.assertEqual(ev["options"][-1]["label"], "No, suggest changes (esc)", ev)
        self.assertTrue(d.request("answer", target="q", option=1)["ok"])
        reply = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertTrue(reply["ok"], reply)
        self.assertEqual((reply["text"], reply["markdown"]), ("Made it.", "Made it."), reply)
        self.assertEqual([t["name"] for t in reply["turn"]["tools"]], ["run_shell_command"], reply)
        self.assertTrue(os.path.exists(target))

    # The suggestion and memory requests never take the script, and the
    # suggestion Qwen draws in its input box is not a prompt of ours.
    def test_side_calls_are_answered(self):
        self.assertEqual(self.ask_ok("first", "One."), "One.")
        self.assertEqual(self.ask_ok("second", "Two."), "Two.")
        sides = [r.get("side_call") for r in self.api.requests() if r.get("provider") == "chat_completions"
                 and not r.get("turn")]
        self.assertIn("qwen_suggestion", sides)
        self.assertEqual([t["prompt"].split("\n")[-1] for t in self.api.turns()], ["first", "second"])


class QwenTranscript(AgentLifecycle, unittest.TestCase):
    """Exact turns from Qwen's chat file, named by the session id the daemon
    gives it with --session-id."""
    CLI = CLI
    MARKDOWN = "## Plan\nUse **bold** and `code`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSee [docs](https://example.com)."

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
        self.assertEqual(r["turn"]["model"], "fake-model")
        self.assertEqual(r["turn"]["usage"], {"input_tokens": 12, "output_tokens": 20})
        # A read-only command Qwen runs without asking, and the answer after it.
        run = {"tool_call": {"name": "run_shell_command", "input": {"command": "echo tool said hi"}}}
        self.api.script(run, "All **done**.")
        r = self.s.ask("run it", timeout=60)
        self.assertEqual((r["markdown"], r["text"]), ("All **done**.", "All done."), r)
        tools = r["turn"]["tools"]
        self.assertEqual([(t["name"], t["input"], t["ok"]) for t in tools],
                         [("run_shell_command", {"command": "echo tool said hi"}, True)], r)
        self.assertIn("Output: tool said hi", tools[0]["output"])
        answers = ["Turn %d is `%d`." % (i, i) for i in range(5)]
        self.api.script(*answers)
        for i, answer in enumerate(answers):
            r = self.s.ask("turn %d" % i, timeout=60)
            self.assertEqual((r["markdown"], r["text"]), (answer, "Turn %d is %d." % (i, i)), r)
        files = chat_file(self.s.home, self.sid)
        self.assertEqual(len(files), 1, files)
        os.unlink(files[0])
        os.symlink("/dev/null", files[0])
        self.api.script("Still here.")
        r = self.s.ask("still there?", timeout=60)
        self.assertEqual((r["text"], r["markdown"]), ("Still here.", None), r)
        self.assertIn(self.sid, r["transcript_error"])


class QwenResume(AgentLifecycle, unittest.TestCase):
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
                self.assertEqual((r["markdown"], r["turn"]["session_id"]), ("kiwi", sid), r)
                self.assertIn("remember the word kiwi", json.dumps(self.api.turns()[-1]))
                d.close()
        finally:
            shutil.rmtree(s.tmp, ignore_errors=True)


class QwenLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI

    # 1. A bare home with the OPENAI_* variables: Qwen takes the key and
    # shows no first-run dialog.
    def test_bare_home_in_agent_mode(self):
        s = AgentSession(CLI, self.api, bare=True, mode="agent")
        try:
            self.assertEqual([m for m in s.daemon.events if m.get("type") == "dialog"], [])
            self.api.script("Ready here.")
            self.assertEqual(s.ask("hello")["text"], "Ready here.")
        finally:
            s.close()


if __name__ == "__main__":
    unittest.main()
