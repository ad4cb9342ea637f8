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
