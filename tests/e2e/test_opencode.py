"""opencode, the genuine CLI (opencode-ai), driven through tuidriver against
the fake API through its own provider configuration (tests/e2e/homes.py):
screen turns (AgentTurns) and exact turns from its SQLite session store
(ExactTurns, engines/opencode.json's transcript)."""
import os
import time
import unittest

from agent_harness import AgentLifecycle, AgentTurns, RowStreaming
from exact_turns import ExactTurns


class OpencodeLike:
    """opencode and Kilo (its fork) ask and store alike."""
    SESSION_ID = r"^ses_[0-9A-Za-z]+$"
    SHELL_TOOL = "bash"
    MODEL = "fake-model"
    DATABASE = ".local/share/opencode/opencode.db"

    # "Permission required … Allow once / Allow always / Reject": the box's
    # choices are not numbered; Enter allows once. Like Claude, the CLI may
    # drop keys sent right after it shows the box.
    def answer_permission(self, daemon, rid, event):
        self.assertIn("Permission required", event["question"])
        time.sleep(1)
        daemon.request("keys", keys=["Enter"])

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
        r = self.s.ask("create a file", timeout=60)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertIn("Permission required", r["question"])
        self.assertIn("touch " + target, r["question"])
        # The client answers with keys (Reject), and the session goes on.
        self.s.daemon.request("keys", keys=["Right", "Right", "Enter"])
        self.s.daemon.request("wait_idle", idle_ms=500, timeout=10)
        self.assertFalse(os.path.exists(target))
        self.assertEqual(self.ask_ok("still there?", "Yes."), "Yes.")

    # on_input "wait": the permission box is reported (its choices are not
    # numbered, so no options); the client answers with keys, and the same
    # ask goes on to its reply.
    def test_question_inside_a_turn_answered_with_keys(self):
        d = self.s.daemon
        target = os.path.join(self.s.cwd, "allowed.txt")
        self.api.script({"tool_call": {"name": "bash", "input": {"command": "touch " + target,
                                                                 "description": "Create a file"}}},
                        "Allowed, and the file is made.")
        d.send({"id": "q", "type": "ask", "prompt": "make the allowed file", "timeout": 60,
                "on_input": "wait"})
        ev = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertIn("Permission required", ev["question"])
        self.assertEqual(ev["options"], [])
        r = d.request("answer", target="q", option=1)
        self.assertFalse(r["ok"], r)
        time.sleep(1)  # opencode, like Claude, may drop keys right after it shows the box
        d.request("keys", keys=["Enter"])  # Allow once
        reply = d.wait_for(lambda m: m.get("id") == "q", 60)
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(reply["text"], "Allowed, and the file is made.")  # issue 22, item 1
        self.assertTrue(os.path.exists(target))


class OpencodeLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = "opencode"
    CLI_PROCESSES = 1  # opencode


if __name__ == "__main__":
    unittest.main()
