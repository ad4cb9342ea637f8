"""OpenAI Codex, the genuine CLI, driven through tuidriver against the fake
Responses API. Each numbered section of the agent-engines issue has a test:
replies, prompts, turns, streaming, cancel and timeout come from AgentTurns;
the bare home in a git repository (trust and model-migration dialogs), exact
turns, a question answered inside the turn and resume from ExactTurns;
needs_input (a command that asks to leave the sandbox) and close are here."""
import os
import re
import unittest

import homes
from agent_harness import AgentLifecycle, AgentTurns, RowStreaming, TallResume, ToolTurns, assert_text_agrees
from exact_turns import ExactTurns, lose_writes

CLI = "codex"


def run_command_call(path, reason):
    """A tool call that Codex must ask about: a command that asks to leave
    the sandbox (with the default approval policy, on-request)."""
    return {"tool_call": {"name": "exec_command", "input": {
        "cmd": "touch " + path, "sandbox_permissions": "require_escalated",
        "justification": reason}}}


class Codex(AgentTurns, RowStreaming, ToolTurns, unittest.TestCase):
    CLI = "codex"
    CHROME = ("Worked for", "›", "esc to interrupt")

    def tool_call(self, command):
        return {"tool_call": {"name": "exec_command", "input": {"cmd": command}}}

    def asking_tool_call(self, path):
        return run_command_call(path, "Create the file")

    # 8. A question no rule answers ends the ask with needs_input; the client
    # answers with keys and the turn goes on.
    def test_needs_input(self):
        d = self.s.daemon
        target = os.path.join(self.s.cwd, "approved.txt")
        self.api.script(run_command_call(target, "Create the approved file"), "Created it.")
        r = self.s.ask("create a file", timeout_ms=60000)
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
        self.assertTrue(d.request("expect", pattern="• Created it\\.", timeout_ms=30000)["ok"])
        self.assertTrue(os.path.exists(target))
        self.assertEqual(self.ask_ok("next question", "Only this."), "Only this.")

        # Another question, declined with Escape: nothing runs.
        refused = os.path.join(self.s.cwd, "refused.txt")
        self.api.script(run_command_call(refused, "Create the refused file"))
        r = self.s.ask("create another file", timeout_ms=60000)
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
        self.api.script(run_command_call(target, "Create the answered file"), "Made it.")
        d.send({"id": "q", "type": "ask", "prompt": "make the answered file", "timeout_ms": 60000,
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


class CodexExact(ExactTurns, unittest.TestCase):
    """Exact turns from Codex's rollout file (issue 10), found by its first
    record (this session's cwd, started after the spawn): the shared suite."""
    CLI = CLI
    SESSION_ID = r"^[0-9a-f-]{36}$"
    SHELL_TOOL = "exec_command"
    MODEL = "gpt-5"
    BARE_HOME = {"git_repo": True}  # Codex asks about trusting a folder only in a repository

    def shell_call(self, command):
        return {"tool_call": {"name": "exec_command", "input": {"cmd": command}}}

    # Codex reports how the command ran before its output.
    def tool_output_pattern(self, output):
        return (r"\AChunk ID: \w+\nWall time: [\d.]+ seconds\nProcess exited with code 0\n"
                r"Original token count: \d+\nOutput:\n%s\n\Z" % re.escape(output))

    # Codex runs a command in its sandbox without asking; it asks about one
    # that asks to leave the sandbox.
    def asking_call(self, path):
        return run_command_call(path, "Create the file")

    # 1. Spawn on a bare home in a git repository: agent mode answers the
    # folder-trust and model-migration dialogs.
    def check_first_run(self, session):
        dialogs = [m["name"] for m in session.daemon.events if m.get("type") == "dialog"]
        self.assertEqual(dialogs, ["trust_folder", "model_migration"])
        with open(os.path.join(session.home, ".codex", "config.toml")) as f:
            config = f.read()
        self.assertIn('trust_level = "trusted"', config)  # the answers were taken
        self.assertIn('"gpt-5.5" = "gpt-6-sol"', config)

    def answer_permission(self, daemon, rid, event):
        self.assertEqual(event["options"][0], {"index": 1, "label": "Yes, proceed (y)"}, event)
        self.assertTrue(daemon.request("answer", target=rid, option=1)["ok"])

    def break_transcript(self, session):
        sid = session.daemon.request("status")["session_id"]
        files = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(session.home, ".codex", "sessions"))
                 for f in fs if sid in f]
        self.assertEqual(len(files), 1, files)
        lose_writes(files[0])
        return sid


class CodexResume(AgentLifecycle, TallResume, unittest.TestCase):
    CLI = CLI


class CodexLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI
    CLI_PROCESSES = 2  # codex and its native binary


if __name__ == "__main__":
    unittest.main()
