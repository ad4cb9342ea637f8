"""pi (@mariozechner/pi-coding-agent), the genuine CLI, driven through
tuidriver against the fake Chat Completions API (a provider of pi's own in
~/.pi/agent/models.json). Replies, prompts, turns, streaming, cancel and
timeout come from AgentTurns, exact turns and resume from ExactTurns. pi
asks no permission questions (it runs every tool it is asked to), so there
is no question to answer inside a turn."""
import os
import unittest

from agent_harness import AgentLifecycle, AgentTurns, RowStreaming
from exact_turns import ExactTurns, lose_writes

CLI = "pi"


def session_files(home):
    root = os.path.join(home, ".pi", "agent", "sessions")
    return [os.path.join(dp, f) for dp, _, fs in os.walk(root) for f in fs if f.endswith(".jsonl")]


class Pi(AgentTurns, RowStreaming, unittest.TestCase):
    CLI = CLI
    CHROME = ("Working...", "───", "fake-model")


class PiExact(ExactTurns, unittest.TestCase):
    CLI = CLI
    SESSION_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
    SHELL_TOOL = "bash"
    SHELL_DESCRIBED = False
    MODEL = "fake-model"

    def break_transcript(self, session):
        sid = session.daemon.request("status")["session_id"]
        files = [f for f in session_files(session.home) if f.endswith("_" + sid + ".jsonl")]
        self.assertEqual(len(files), 1, session_files(session.home))
        lose_writes(files[0])
        return sid

    # pi draws its report of a command (command, output, time taken) in the
    # reply's area above the answer, marked only by its layout: `text` starts
    # where the answer's words do (FromAnswerStart, markdown_text.h).
    def test_a_tool_call_and_the_answer_after_it(self):
        self.start(mode="agent")
        self.api.script(self.shell_call("echo tool said hi"), "All **done**.")
        r = self.ask("run the tool")  # checks that text agrees with markdown
        tools = r["turn"]["tools"]
        self.assertEqual([(t["name"], t["input"], t["output"], t["ok"]) for t in tools],
                         [("bash", {"command": "echo tool said hi"}, "tool said hi\n", True)], r)
        self.assertEqual((r["markdown"], r["text"]), ("All **done**.", "All done."), r)
        self.assertEqual(r["turn"]["usage"], {"input_tokens": 24, "output_tokens": 40})
        # A command that fails is reported as such.
        self.api.script(self.shell_call("exit 3"), "It failed.")
        r = self.ask("fail")
        self.assertEqual((r["markdown"], [t["ok"] for t in r["turn"]["tools"]]), ("It failed.", [False]), r)

    # pi has no permission questions: it runs what the model asks, and the
    # turn goes through without a needs_input event.
    def test_a_permission_question_answered_inside_the_turn(self):
        self.start()
        target = os.path.join(self.s.cwd, "allowed.txt")
        self.api.script(self.shell_call("touch " + target))
        d = self.s.daemon
        d.send({"id": "q", "type": "ask", "prompt": "make the allowed file", "timeout_ms": 90000, "on_input": "wait"})
        r = d.wait_for(lambda m: m.get("id") == "q", 90)
        self.assertEqual(r["type"], "reply", r)
        self.assertTrue(os.path.exists(target))
        self.assertEqual(r["markdown"], "Done.")


    def test_two_permission_questions_in_one_turn(self):
        self.start()
        targets = [os.path.join(self.s.cwd, name) for name in ("first.txt", "second.txt")]
        self.api.script(*[self.shell_call("touch " + t) for t in targets])
        d = self.s.daemon
        d.send({"id": "q", "type": "ask", "prompt": "make the two files", "timeout_ms": 90000, "on_input": "wait"})
        r = d.wait_for(lambda m: m.get("id") == "q", 90)
        self.assertEqual(r["type"], "reply", r)
        self.assertTrue(all(os.path.exists(t) for t in targets), r)
        self.assertEqual([t["name"] for t in r["turn"]["tools"]], [self.SHELL_TOOL] * 2)


class PiLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI


if __name__ == "__main__":
    unittest.main()
