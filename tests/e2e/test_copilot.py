"""GitHub Copilot CLI, the genuine CLI (@github/copilot 1.0.102), driven
through tuidriver against the fake Chat Completions API with its own key
(COPILOT_PROVIDER_*, no GitHub login; tests/e2e/homes.py). Exact turns come
from ~/.copilot/session-state/<session id>/events.jsonl."""
import os
import unittest

from agent_harness import AgentLifecycle, AgentTurns, words
from exact_turns import ExactTurns, lose_writes

CLI = "copilot"


# Not RowStreaming: Copilot draws an answer in a few large pieces, often only
# once it is complete, so a paragraph does not stream row by row from its
# screen (docs/engines.md).
class Copilot(AgentTurns, unittest.TestCase):
    CLI = CLI
    CHROME = ("Working", "❯", "───", "/project")
    DRAWS_WHILE_THE_MODEL_WRITES = False

    # What ask_stream gives instead: the answer in a few large pieces (often
    # whole, once the model has finished), deltas that add up to the reply,
    # never revised.
    def test_a_stream_adds_up_to_the_reply(self):
        self.stream_paragraph(words(120, seed=5))

    # A cancel stops the model's turn (Copilot hangs up on the API), not only
    # the ask: one Escape, or two read as one, leaves the turn running to its
    # end, and the next ask waits for it (docs/engines.md, Copilot).
    def test_cancel_stops_the_turn(self):
        d = self.s.daemon
        self.api.script({"text": words(400), "first_delay_ms": 1000, "word_delay_ms": 50})
        before = self.api.state()
        d.send({"id": "slow", "type": "ask", "prompt": "slow answer", "timeout_ms": 60000})
        self.addCleanup(d.request, "cancel", target="slow")
        self.api.wait_turn_started(before["turns_started"] + 1)
        self.assertTrue(d.request("cancel", target="slow")["ok"])
        self.assertEqual(d.wait_for(lambda m: m.get("id") == "slow", 30)["kind"], "cancelled")
        self.assertEqual(self.ask_ok("after cancel", "Back to normal."), "Back to normal.")
        after = self.api.state()
        # The slow turn (20 s of words) was abandoned, not streamed to its end.
        self.assertEqual(after["turns_abandoned"] - before["turns_abandoned"], 1, after)
        self.assertEqual(after["turns_finished"] - before["turns_finished"], 1, after)  # "after cancel" only
        # Cancelled before the answer streamed, Copilot puts the prompt back
        # in its input box ("esc esc edit prompt"): it was cleared, not sent
        # again with the next one.
        sent = self.api.turns()[-1]["prompt"]  # after Copilot's <current_datetime> line
        self.assertTrue(sent.endswith("\nafter cancel") and "slow answer" not in sent, sent)


class CopilotExact(ExactTurns, unittest.TestCase):
    CLI = CLI
    SESSION_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
    SHELL_TOOL = "bash"
    MODEL = "fake-model"

    def tool_output(self, output):
        # The result as the model got it: Copilot's shell trailer included.
        return output + "\n<shellId: 0 completed with exit code 0>"

    def answer_permission(self, daemon, rid, event):
        # "Do you want to run this command?" 1. Yes  2. Yes, and don't ask again ...  3. No
        self.assertEqual(event["options"][0]["label"], "Yes", event)
        r = daemon.request("answer", target=rid, option=1)
        self.assertTrue(r["ok"], r)

    def break_transcript(self, session):
        sid = session.daemon.request("status")["session_id"]
        path = os.path.join(session.home, ".copilot", "session-state", sid, "events.jsonl")
        lose_writes(path)
        return sid


class CopilotLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = CLI
    CLI_PROCESSES = 1  # copilot


if __name__ == "__main__":
    unittest.main()
