"""Qwen Code, the genuine CLI, driven through tuidriver against the fake Chat
Completions API (OPENAI_* variables, settings.json's auth type). Replies,
prompts, turns, streaming, cancel and timeout come from AgentTurns, exact
turns and resume from ExactTurns; questions and side calls are here. The
engine turns off Qwen's next-prompt suggestion and memory extraction (side
calls after every turn that delayed its transcript); a user who turns the
suggestion back on gets it, answered by the fake as a side call and drawn in
the input box as it would be for a user."""
import json
import os
import time
import unittest

from agent_harness import AgentLifecycle, AgentSession, AgentTurns, RowStreaming
from exact_turns import ExactTurns, lose_writes

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
        r = self.s.ask("create a file", timeout_ms=60000)
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
        d.send({"id": "q", "type": "ask", "prompt": "make the answered file", "timeout_ms": 60000,
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

    # The engine turns Qwen's next-prompt suggestion and memory extraction
    # off (engines/qwen_defaults.jsonc, Qwen's lowest settings layer): they
    # kept Qwen's main thread busy after every turn and its transcript
    # record came 0.5-0.9 s after the done screen.
    def test_no_side_calls_by_default(self):
        self.assertEqual(self.ask_ok("first", "One."), "One.")
        self.assertEqual(self.ask_ok("second", "Two."), "Two.")
        time.sleep(1.5)  # they came 0.2-0.9 s after a turn's end
        self.assertEqual(side_calls(self.api), [])

    # A user's own settings win over the engine's defaults: with the
    # suggestion on, Qwen asks for it after each turn, the fake answers it
    # as a side call that never takes the script, and the suggestion Qwen
    # draws in its input box is not a prompt of ours.
    def test_the_users_settings_turn_the_suggestion_back_on(self):
        def suggestions_on(home):
            path = os.path.join(home, ".qwen", "settings.json")
            with open(path) as f:
                settings = json.load(f)
            settings["ui"] = {"enableFollowupSuggestions": True}
            with open(path, "w") as f:
                json.dump(settings, f)

        self.api.reset()
        s = AgentSession(CLI, self.api, prepare_home=suggestions_on)
        try:
            for prompt, answer in (("first", "One."), ("second", "Two.")):
                self.api.script(answer)
                r = s.ask(prompt, timeout_ms=60000)
                self.assertEqual((r["ok"], r["text"], r["markdown"]), (True, answer, answer), r)
            deadline = time.monotonic() + 10  # asked once the screen is idle
            while "qwen_suggestion" not in side_calls(self.api) and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertIn("qwen_suggestion", side_calls(self.api))
            self.assertEqual([t["prompt"].split("\n")[-1] for t in self.api.turns()], ["first", "second"])
        finally:
            s.close()


def side_calls(api):
    return [r.get("side_call") for r in api.requests() if r.get("provider") == "chat_completions"
            and not r.get("turn")]


class QwenExact(ExactTurns, unittest.TestCase):
    CLI = CLI
    SESSION_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
    SHELL_TOOL = "run_shell_command"
    SHELL_DESCRIBED = False
    MODEL = "fake-model"

    # Qwen's record of a command's output drops its last newline.
    def tool_output(self, output):
        return output

    def answer_permission(self, daemon, rid, event):
        self.assertIn("Allow execution of", event["question"])
        self.assertEqual(event["options"][0]["label"], "Yes, allow once", event)
        self.assertTrue(daemon.request("answer", target=rid, option=1)["ok"])

    def break_transcript(self, session):
        sid = session.daemon.ready["session_id"]
        files = chat_file(session.home, sid)
        self.assertEqual(len(files), 1, files)
        lose_writes(files[0])
        return sid

    def test_a_tool_call_and_the_answer_after_it(self):
        self.start(mode="agent")
        self.api.script(self.shell_call("echo tool said hi"), "All **done**.")
        r = self.ask("run the tool")
        self.assertEqual((r["markdown"], r["text"]), ("All **done**.", "All done."), r)
        tools = r["turn"]["tools"]
        self.assertEqual([(t["name"], t["input"], t["ok"]) for t in tools],
                         [("run_shell_command", {"command": "echo tool said hi"}, True)], r)
        self.assertTrue(tools[0]["output"].startswith(
            "Command: echo tool said hi\nDirectory: (root)\nOutput: tool said hi\nError: (none)\nExit Code: 0\n"),
            tools[0])
        self.assertEqual(r["turn"]["usage"], {"input_tokens": 24, "output_tokens": 40})


class QwenLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI


if __name__ == "__main__":
    unittest.main()
