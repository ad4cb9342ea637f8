"""pi (@mariozechner/pi-coding-agent), the genuine CLI, driven through
tuidriver against the fake Chat Completions API (a provider of pi's own in
~/.pi/agent/models.json). Replies, prompts, turns, streaming, cancel and
timeout come from AgentTurns; exact turns, resume and close are here. pi
asks no permission questions (it runs every tool it is asked to), so there
is no question to answer inside a turn."""
import json
import os
import shutil
import unittest

import homes
from agent_harness import AgentLifecycle, AgentSession, AgentTurns, RowStreaming
from tuiclient import Daemon

CLI = "pi"


def session_files(home):
    root = os.path.join(home, ".pi", "agent", "sessions")
    return [os.path.join(dp, f) for dp, _, fs in os.walk(root) for f in fs if f.endswith(".jsonl")]


class Pi(AgentTurns, RowStreaming, unittest.TestCase):
    CLI = CLI
    CHROME = ("Working...", "───", "fake-model")


class PiTranscript(AgentLifecycle, unittest.TestCase):
    """Exact turns from pi's session file, found by its header (this
    session's cwd, started after the spawn)."""
    CLI = CLI
    MARKDOWN = "## Plan\nUse **bold** and `code`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSee [docs](https://example.com)."

    def setUp(self):
        self.api.reset()
        self.s = AgentSession(CLI, self.api)

    def tearDown(self):
        self.s.close()

    def test_markdown_tools_five_turns_and_an_unreadable_file(self):
        self.api.script(self.MARKDOWN)
        r = self.s.ask("make a plan", timeout=60)
        self.assertEqual(r["markdown"], self.MARKDOWN, r)
        sid = r["turn"]["session_id"]
        self.assertRegex(sid, r"^[0-9a-f-]{36}$")
        self.assertEqual(self.s.daemon.request("status")["session_id"], sid)
        self.assertEqual(r["turn"]["model"], "fake-model")
        self.assertEqual(r["turn"]["usage"], {"input_tokens": 12, "output_tokens": 20})
        # A command pi runs, and the answer after it.
        run = {"tool_call": {"name": "bash", "input": {"command": "echo tool said hi"}}}
        self.api.script(run, "All **done**.")
        r = self.s.ask("run it", timeout=60)
        self.assertEqual(r["markdown"], "All **done**.", r)
        # pi marks nothing on screen but an indent: its report of the command
        # (command, output, time taken) shows in text, before the answer.
        self.assertTrue(r["text"].startswith("$ echo tool said hi\n\ntool said hi\n"), r)
        self.assertTrue(r["text"].endswith("\nAll done."), r)
        tools = r["turn"]["tools"]
        self.assertEqual([(t["name"], t["input"], t["output"], t["ok"]) for t in tools],
                         [("bash", {"command": "echo tool said hi"}, "tool said hi\n", True)], r)
        self.assertEqual(r["turn"]["usage"], {"input_tokens": 24, "output_tokens": 40})
        # A command that fails is reported as such.
        self.api.script({"tool_call": {"name": "bash", "input": {"command": "exit 3"}}}, "It failed.")
        r = self.s.ask("fail", timeout=60)
        self.assertEqual(r["markdown"], "It failed.", r)
        self.assertEqual([t["ok"] for t in r["turn"]["tools"]], [False], r)
        # Five more turns, all exact.
        answers = ["Turn %d is `%d`." % (i, i) for i in range(5)]
        self.api.script(*answers)
        for i, answer in enumerate(answers):
            r = self.s.ask("turn %d" % i, timeout=60)
            self.assertEqual((r["markdown"], r["text"]), (answer, "Turn %d is %d." % (i, i)), r)
        # The file made unreadable: the reply still comes, and says why.
        files = [f for f in session_files(self.s.home) if f.endswith("_" + sid + ".jsonl")]
        self.assertEqual(len(files), 1, session_files(self.s.home))
        os.unlink(files[0])
        os.symlink("/dev/null", files[0])
        self.api.script("Still here.")
        r = self.s.ask("still there?", timeout=60)
        self.assertEqual((r["text"], r["markdown"]), ("Still here.", None), r)
        self.assertIn(sid, r["transcript_error"])


class PiResume(AgentLifecycle, unittest.TestCase):
    CLI = CLI

    def test_resume_across_two_daemons(self):
        s = AgentSession(CLI, self.api)
        try:
            self.api.script("remembered")
            r = s.ask("remember the word kiwi", timeout=60)
            sid = r["turn"]["session_id"]
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
            self.assertEqual(len(session_files(s.home)), 1, "resume wrote a second session file")
        finally:
            shutil.rmtree(s.tmp, ignore_errors=True)


class PiLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI

    # 1. A bare home (the provider, no settings): pi shows no first-run
    # dialog and picks the one model it has a key for.
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
