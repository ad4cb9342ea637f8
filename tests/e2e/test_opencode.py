"""opencode, the genuine CLI (opencode-ai), driven through tuidriver against
the fake API through its own provider configuration (tests/e2e/homes.py):
screen turns (AgentTurns) and exact turns from its SQLite session store
(ExactTurns, engines/opencode.json's transcript)."""
import os
import unittest

from agent_harness import AgentLifecycle, AgentTurns, RowStreaming
from exact_turns import ExactTurns


ALLOW_OR_REJECT = [{"index": 1, "label": "Allow once"}, {"index": 2, "label": "Allow always"},
                   {"index": 3, "label": "Reject"}]


class OpencodeLike:
    """opencode and Kilo (its fork) ask and store alike."""
    SESSION_ID = r"^ses_[0-9A-Za-z]+$"
    SHELL_TOOL = "bash"
    MODEL = "fake-model"
    DATABASE = ".local/share/opencode/opencode.db"

    # "Permission required … Allow once   Allow always   Reject": choices in
    # one row, unnumbered (the engine's needs_input_options.choices), so the
    # event numbers them.
    def answer_permission(self, daemon, rid, event):
        self.assertIn("Permission required", event["question"])
        self.assertEqual(event["options"], ALLOW_OR_REJECT)
        r = daemon.request("answer", target=rid, option=1)  # Allow once
        self.assertTrue(r["ok"], r)

    REJECTION = "The user rejected permission to use this specific tool call."
    REJECT_ASKS_WHY = False  # Kilo asks what to do differently first

    def ask_about(self, name):
        """Starts an ask with on_input "wait" whose one tool call creates
        `name`, and returns (its path, the needs_input event)."""
        self.start()
        target = os.path.join(self.s.cwd, name)
        self.api.script(self.asking_call(target))
        self.s.daemon.send({"id": "q", "type": "ask", "prompt": "make " + name, "timeout_ms": 90000, "on_input": "wait"})
        ev = self.s.daemon.wait_for(lambda m: m.get("id") == "q", 90)
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertEqual(ev["options"], ALLOW_OR_REJECT)
        return target, ev

    def answer(self, option=None, text=None):
        fields = {"option": option} if option is not None else {"text": text}
        r = self.s.daemon.request("answer", target="q", **fields)
        self.assertTrue(r["ok"], r)
        return self.s.daemon.wait_for(lambda m: m.get("id") == "q", 90)

    # Rejected by its number: the call does not run, and the CLI ends the
    # turn there, with no answer of the model; the transcript says so.
    def test_a_call_rejected_by_choice_ends_the_turn(self):
        target, _ = self.ask_about("rejected.txt")
        self.assertFalse(self.s.daemon.request("answer", target="q", option=4)["ok"])  # no such choice
        r = self.answer(option=3)
        if self.REJECT_ASKS_WHY:  # a free-text question: nothing to add
            self.assertEqual((r["type"], r["options"]), ("needs_input", []), r)
            self.assertIn("Reject permission", r["question"])
            r = self.answer(text="")
        self.assertTrue(r["ok"], r)
        self.assertEqual((r["text"], r["markdown"]), ("", ""), r)
        self.assertEqual([(t["ok"], t["output"]) for t in r["turn"]["tools"]], [(False, self.REJECTION)], r)
        self.assertFalse(os.path.exists(target))

    # "Allow always" asks to confirm in a box of its own: the next question
    # of the same ask, with its own choices.
    def test_allow_always_is_confirmed(self):
        target, _ = self.ask_about("always.txt")
        self.api.script("Made.")
        r = self.answer(option=2)
        self.assertEqual(r["type"], "needs_input", r)
        self.assertIn("Always allow", r["question"])
        self.assertEqual(r["options"], [{"index": 1, "label": "Confirm"}, {"index": 2, "label": "Cancel"}])
        r = self.answer(option=1)
        self.assertEqual(r["type"], "reply", r)
        self.assertTrue(r["ok"], r)
        self.assertEqual((r["text"], r["markdown"]), ("Made.", "Made."))
        self.assertTrue(os.path.exists(target))

    # A file that is no database where the store was (the CLI keeps writing
    # to the one it has open).
    def break_transcript(self, session):
        path = os.path.join(session.home, self.DATABASE)
        self.assertTrue(os.path.exists(path), path)
        with open(path + ".new", "w") as f:
            f.write("this is not a database, and it is long enough to hold a header\n" * 4)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)
        os.rename(path + ".new", path)
        return path


class OpencodeExact(OpencodeLike, ExactTurns, unittest.TestCase):
    CLI = "opencode"


class Opencode(AgentTurns, RowStreaming, unittest.TestCase):
    CLI = "opencode"
    CHROME = ("┃", "▣", "esc interrupt", "ctrl+p commands")

    # A permission question no rule answers ends the ask with needs_input.
    def test_needs_input(self):
        target = os.path.join(self.s.cwd, "made-by-tool.txt")
        self.api.script({"tool_call": {"name": "bash", "input": {"command": "touch " + target,
                                                                 "description": "Create a file"}}})
        r = self.s.ask("create a file", timeout_ms=60000)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertIn("Permission required", r["question"])
        self.assertIn("touch " + target, r["question"])
        # The client answers with keys (Reject), and the session goes on.
        self.s.daemon.request("keys", keys=["Right", "Right", "Enter"])
        self.s.daemon.request("wait_idle", idle_ms=500, timeout_ms=10000)
        self.assertFalse(os.path.exists(target))
        self.assertEqual(self.ask_ok("still there?", "Yes."), "Yes.")


class OpencodeLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = "opencode"
    CLI_PROCESSES = 1  # opencode


if __name__ == "__main__":
    unittest.main()
