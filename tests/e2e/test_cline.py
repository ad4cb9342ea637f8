"""Cline, the genuine CLI (cline 3.0.65), driven through tuidriver against
the fake Chat Completions API as an openai-compatible provider
(tests/e2e/homes.py). Exact turns come from ~/.cline/data/sessions/<id>/
<id>.messages.json, a document Cline rewrites whole."""
import json
import os
import unittest

from agent_harness import AgentLifecycle, AgentTurns, RowStreaming, processes_matching
from exact_turns import ExactTurns, lose_writes
from tuiclient import ROOT

CLI = "cline"


class Cline(AgentTurns, RowStreaming, unittest.TestCase):
    CLI = CLI
    CHROME = ("esc to cancel", "❯", "───", "Auto-approve")


class ClineExact(ExactTurns, unittest.TestCase):
    CLI = CLI
    SESSION_ID = r"^\d+_[a-z0-9]+$"
    SHELL_TOOL = "run_commands"
    MODEL = "fake-model"

    def shell_call(self, command):
        return {"tool_call": {"name": "run_commands", "input": {"commands": [command]}}}

    def answer_permission(self, daemon, rid, event):
        # "Approve tool call? … [y] Approve [n] Deny": choices without numbers
        # (the engine's needs_input_options.choices), numbered by the event.
        # Answered with Cline's own key, not `answer`: keys answer a reported
        # question too, and the turn's next one is still reported (every
        # other CLI here answers by number).
        self.assertIn("Approve tool call?", event["question"])
        self.assertEqual(event["options"], [{"index": 1, "label": "[y] Approve"}, {"index": 2, "label": "[n] Deny"}])
        r = daemon.request("keys", keys=["y"])
        self.assertTrue(r["ok"], r)

    def break_transcript(self, session):
        sid = session.daemon.request("status")["session_id"]
        path = os.path.join(session.home, ".cline", "data", "sessions", sid, sid + ".messages.json")
        lose_writes(path)
        return sid


class ClineLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI
    CLI_PROCESSES = 2  # cline and the hub daemon it starts (cline --cline-hub-daemon)

    # Every launch starts a detached hub (its own session, re-parented when
    # cline exits); the close ends it too.
    def test_close_ends_the_hub_daemon(self):
        from agent_harness import AgentSession, session_processes
        s = AgentSession(self.CLI, self.api)
        tmp = s.tmp
        self.api.script("Hub check.")
        self.assertEqual(s.ask("one turn")["text"], "Hub check.")
        hubs = [p for p in session_processes(tmp) if "--cline-hub-daemon" in p]
        self.assertEqual(len(hubs), 1, session_processes(tmp))
        reply = s.close()
        self.assertTrue(reply["ok"], reply)
        self.assertEqual([p for p in processes_matching("--cline-hub-daemon") if tmp in p], [])

    # An Enter that reaches Cline with its paste stays in the input box, the
    # prompt with it (under load it did with the 200 ms enter_delay_ms: a
    # concurrent ask ended in timeout with nothing on screen). The box is no
    # prompt while it holds text, so submit.resubmit_ms presses Enter again.
    # Here the Enter is sent with the paste, so the paste takes it.
    def test_an_enter_the_paste_took_is_pressed_again(self):
        s = self.enter_losing_session()
        try:
            reply = s.ask("say 'pressed again'", timeout_ms=30000)
            self.assertTrue(reply["ok"], (reply, s.daemon.request("screen")["lines"]))
            self.assertEqual(reply["markdown"], "said pressed again", reply)
        finally:
            s.close()

    # An ask that timed out before its Enter was pressed again left its
    # prompt in the box, and Cline keeps it through every Escape: the box is
    # cleared (clear_input_keys C-u) and the next ask is its own prompt
    # alone. Before, it waited for an empty box until its own timeout.
    def test_a_prompt_left_in_the_box_is_cleared_before_the_next_ask(self):
        s = self.enter_losing_session()
        try:
            first = s.daemon.ask("say 'left behind'", timeout_ms=1000)
            self.assertEqual(first["kind"], "timeout", first)
            reply = s.ask("say 'alone'", timeout_ms=30000)
            self.assertTrue(reply["ok"], (reply, s.daemon.request("screen")["lines"]))
            self.assertEqual(reply["markdown"], "said alone", reply)
            self.assertNotIn("left behind", json.dumps(self.api.turns()))
        finally:
            s.close()

    def enter_losing_session(self):
        """Cline with an Enter sent in the paste, which the paste takes."""
        from agent_harness import AgentSession
        with open(os.path.join(ROOT, "engines", "cline.json")) as f:
            engine = json.load(f)
        engine["submit"] = {"mode": "paste", "enter_delay_ms": 0, "resubmit_ms": 2000}
        self.api.default({"echo_say": True})
        return AgentSession(self.CLI, self.api, engine=engine)


if __name__ == "__main__":
    unittest.main()
