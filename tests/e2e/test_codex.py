"""OpenAI Codex, the genuine CLI, driven through tuidriver against the fake
Responses API. Each numbered section of the agent-engines issue has a test:
replies, prompts, turns, streaming, cancel and timeout come from AgentTurns;
needs_input (a command that asks to leave the sandbox), the bare home in a
git repository (trust and model-migration dialogs) and close are here."""
import json
import os
import shutil
import unittest

import homes
from agent_harness import (AgentLifecycle, TallResume, AgentSession, AgentTurns, RowStreaming, ToolTurns,
                           assert_text_agrees)
from tuiclient import Daemon

CLI = "codex"


class Codex(AgentTurns, RowStreaming, ToolTurns, unittest.TestCase):
    CLI = "codex"
    CHROME = ("Worked for", "›", "esc to interrupt")

    def tool_call(self, command):
        return {"tool_call": {"name": "exec_command", "input": {"cmd": command}}}

    def asking_tool_call(self, path):
        return self.run_command_call(path, "Create the file")

    def run_command_call(self, path, reason):
        """A tool call that Codex must ask about: a command that asks to leave
        the sandbox (with the default approval policy, on-request)."""
        return {"tool_call": {"name": "exec_command", "input": {
            "cmd": "touch " + path, "sandbox_permissions": "require_escalated",
            "justification": reason}}}

    # 8. A question no rule answers ends the ask with needs_input; the client
    # answers with keys and the turn goes on.
    def test_needs_input(self):
        d = self.s.daemon
        target = os.path.join(self.s.cwd, "approved.txt")
        self.api.script(self.run_command_call(target, "Create the approved file"), "Created it.")
        r = self.s.ask("create a file", timeout=60)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertTrue(r["question"].startswith("  Would you like to run the following command?"), r)
        # The reason shown: the model's, or where Codex's sandbox cannot start
        # (homes.py), the rule's that makes Codex ask.
        reason = ("Create the approved file" if homes.codex_sandbox_starts()
                  else "the tests\n  answer a question before a file is made")
        self.assertIn(reason, r["question"])
        self.assertIn("$ touch " + target, r["question"])
        self.assertFalse(os.path.exists(target))
        # Yes: Codex runs the command and the model's next answer follows.
        d.request("keys", keys=["y"])
        self.assertTrue(d.request("expect", pattern="• Created it\\.", timeout=30)["ok"])
        self.assertTrue(os.path.exists(target))
        self.assertEqual(self.ask_ok("next question", "Only this."), "Only this.")

        # Another question, declined with Escape: nothing runs.
        refused = os.path.join(self.s.cwd, "refused.txt")
        self.api.script(self.run_command_call(refused, "Create the refused file"))
        r = self.s.ask("create another file", timeout=60)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertIn("$ touch " + refused, r["question"])
        d.request("keys", keys=["Escape"])
        self.assertEqual(self.ask_ok("still there?", "Yes."), "Yes.")
        self.assertFalse(os.path.exists(refused))

    # Issue 13, item 4: with on_input "wait" the same question is reported
    # with its choices, answered by number, and the ask goes on to its reply.
    def test_answer_inside_a_turn(self):
        d = self.s.daemon
        target = os.path.join(self.s.cwd, "answered.txt")
        self.api.script(self.run_command_call(target, "Create the answered file"), "Made it.")
        d.send({"id": "q", "type": "ask", "prompt": "make the answered file", "timeout": 60,
                "on_input": "wait"})
        ev = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertTrue(ev["question"].startswith("Would you like to run the following command?"), ev)
        self.assertIn("$ touch " + target, ev["question"])
        self.assertEqual(ev["options"][0], {"index": 1, "label": "Yes, proceed (y)"})
        self.assertTrue(ev["options"][-1]["label"].startswith("No, and tell Codex"), ev)
        self.assertTrue(d.request("answer", target="q", option=1)["ok"])
        reply = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertTrue(reply["ok"], reply)
        assert_text_agrees(reply)
        self.assertEqual(reply["text"], "Made it.")
        self.assertTrue(os.path.exists(target))

    # A command Codex runs without asking is a block of its own ("• Ran
    # ...", its output in a tree below): it is not part of the reply.
    def test_tool_run_is_left_out_of_the_reply(self):
        run = {"tool_call": {"name": "exec_command", "input": {"cmd": "printf 'tool-ran\\n'"}}}
        self.assertEqual(self.ask_ok("run it", run, "All done."), "All done.")
        screen = "\n".join(self.s.daemon.request("screen")["lines"])
        self.assertIn("tool-ran", screen)  # the command did run, and showed its output


class CodexTranscript(AgentLifecycle, unittest.TestCase):
    """Issue 10: exact turns from Codex's rollout file, found by its first
    record (this session's cwd, started after the spawn)."""
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
        self.assertTrue(r["turn"]["model"])
        self.assertGreater(r["turn"]["usage"]["output_tokens"], 0)
        # A command Codex runs itself, and the answer after it.
        run = {"tool_call": {"name": "exec_command", "input": {"cmd": "printf 'tool-ran\\n'"}}}
        self.api.script(run, "All **done**.")
        r = self.s.ask("run it", timeout=60)
        self.assertEqual((r["text"], r["markdown"]), ("All done.", "All **done**."), r)
        tools = r["turn"]["tools"]
        self.assertEqual(len(tools), 1, r)
        self.assertEqual(tools[0]["name"], "exec_command")
        self.assertEqual(tools[0]["input"]["cmd"], "printf 'tool-ran\\n'")
        self.assertIn("tool-ran", tools[0]["output"])
        # Five more turns, all exact (Codex draws a tip under the third turn's answer).
        answers = ["Turn %d is `%d`." % (i, i) for i in range(5)]
        self.api.script(*answers)
        for i, answer in enumerate(answers):
            r = self.s.ask("turn %d" % i, timeout=60)
            self.assertEqual((r["markdown"], r["text"]), (answer, "Turn %d is %d." % (i, i)), r)
        # The file made unreadable: the reply still comes, and says why.
        files = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(self.s.home, ".codex", "sessions"))
                 for f in fs if sid in f]
        self.assertEqual(len(files), 1, files)
        os.unlink(files[0])
        os.symlink("/dev/null", files[0])
        self.api.script("Still here.")
        r = self.s.ask("still there?", timeout=60)
        self.assertEqual((r["text"], r["markdown"]), ("Still here.", None), r)
        self.assertIn(sid, r["transcript_error"])


class CodexResume(AgentLifecycle, TallResume, unittest.TestCase):
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
                assert_text_agrees(r)
                self.assertEqual((r["markdown"], r["turn"]["session_id"]), ("kiwi", sid), r)
                self.assertIn("remember the word kiwi", json.dumps(self.api.turns()[-1]))
                d.close()
        finally:
            shutil.rmtree(s.tmp, ignore_errors=True)


class CodexLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI
    CLI_PROCESSES = 2  # codex and its native binary

    # 1. Spawn on a bare home in a git repository: agent mode answers the
    # folder-trust and model-migration dialogs.
    def test_bare_home_in_agent_mode(self):
        s = AgentSession(CLI, self.api, bare=True, mode="agent", git_repo=True)
        try:
            dialogs = [m["name"] for m in s.daemon.events if m.get("type") == "dialog"]
            self.assertEqual(dialogs, ["trust_folder", "model_migration"])
            with open(os.path.join(s.home, ".codex", "config.toml")) as f:
                config = f.read()
            self.assertIn('trust_level = "trusted"', config)  # the answers were taken
            self.assertIn('"gpt-5.5" = "gpt-6-sol"', config)
            self.api.script("Ready here.")
            self.assertEqual(s.ask("hello")["text"], "Ready here.")
        finally:
            s.close()


if __name__ == "__main__":
    unittest.main()
