"""Questions inside a turn (on_input "wait", the needs_input event and the
answer request), against a small real TUI that asks mid-turn: a numbered
choice it selects with arrow keys, or a free-text question."""
import json
import os
import sys
import tempfile
import time
import unittest

from tuiclient import Daemon, program

ASKING_TUI = program("asking_tui.py")


class TurnInput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        fd, cls.path = tempfile.mkstemp(suffix=".json", prefix="turn-input-")
        with os.fdopen(fd, "w") as f:
            json.dump({"command": [sys.executable, ASKING_TUI],
                       "prompt": {"pattern": "^\\$ $", "scope": "cursor_line"},
                       "submit": {"mode": "type"},
                       "needs_input": ["^Proceed to production\\?", "^Notify the team\\?", "^Your name\\?"],
                       "needs_input_options": {"option": "^(?:❯ |  )(\\d+)\\. (.+)$",
                                               "selected": "^❯"}}, f)

    @classmethod
    def tearDownClass(cls):
        os.unlink(cls.path)

    def setUp(self):
        self.d = Daemon("--engine-file", self.path)

    def tearDown(self):
        self.d.close()

    def start(self, prompt, rid="a", timeout_ms=20000):
        self.d.send({"id": rid, "type": "ask", "prompt": prompt, "timeout_ms": timeout_ms, "on_input": "wait"})
        return self.d.wait_for(lambda m: m.get("id") == rid, timeout_ms / 1000 + 5)

    def test_choice_by_number(self):
        ev = self.start("deploy")
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertEqual(ev["question"], "Proceed to production?")
        self.assertEqual(ev["options"], [{"index": 1, "label": "Yes"},
                                         {"index": 2, "label": "Yes, and do not ask again"},
                                         {"index": 3, "label": "No"}])
        r = self.d.request("answer", target="a", option=3)
        self.assertTrue(r["ok"], r)
        reply = self.d.wait_for(lambda m: m.get("id") == "a", 20)
        self.assertTrue(reply["ok"], reply)
        self.assertIn("chose No", reply["text"])
        # The session goes on; a second question in a later ask works too.
        ev = self.start("deploy", rid="b")
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertTrue(self.d.request("answer", target="b", option=1)["ok"])
        reply = self.d.wait_for(lambda m: m.get("id") == "b", 20)
        self.assertIn("chose Yes", reply["text"])

    # The question alone holds still for half a second: the event still
    # carries the choices drawn after it.
    def test_choices_drawn_after_the_question(self):
        ev = self.start("deploy slowly")
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertEqual([o["label"] for o in ev["options"]], ["Yes", "Yes, and do not ask again", "No"], ev)
        self.assertTrue(self.d.request("answer", target="a", option=2)["ok"])
        reply = self.d.wait_for(lambda m: m.get("id") == "a", 20)
        self.assertIn("chose Yes, and do not ask again", reply["text"])

    # Keys answer a question as `answer` does: the next one, drawn at once,
    # is reported too.
    def test_two_questions_answered_with_keys(self):
        ev = self.start("release")
        self.assertEqual(ev["question"], "Proceed to production?", ev)
        self.assertTrue(self.d.request("keys", keys=["Enter"])["ok"])
        ev = self.d.wait_for(lambda m: m.get("id") == "a", 20)
        self.assertEqual((ev["type"], ev.get("question")), ("needs_input", "Notify the team?"), ev)
        self.assertTrue(self.d.request("keys", keys=["Down", "Enter"])["ok"])
        reply = self.d.wait_for(lambda m: m.get("id") == "a", 20)
        self.assertTrue(reply["ok"], reply)
        self.assertIn("deployed: Yes, notified: No", reply["text"])

    def test_free_text(self):
        ev = self.start("name")
        self.assertEqual(ev["type"], "needs_input", ev)
        self.assertEqual(ev["options"], [])
        r = self.d.request("answer", target="a", option=1)
        self.assertFalse(r["ok"])
        self.assertIn("answer with 'text'", r["error"])
        self.assertTrue(self.d.request("answer", target="a", text="Ada")["ok"])
        reply = self.d.wait_for(lambda m: m.get("id") == "a", 20)
        self.assertTrue(reply["ok"], reply)
        self.assertIn("hello Ada", reply["text"])

    def test_an_ask_ended_at_its_question_says_how_to_answer_it(self):
        # The default on_input ("fail") ends the ask at the question; a
        # newcomer's `answer` to it then says what answers it, and keys do.
        self.d.send({"id": "a", "type": "ask", "prompt": "deploy", "timeout_ms": 20000})
        reply = self.d.wait_for(lambda m: m.get("id") == "a", 25)
        self.assertEqual(reply["kind"], "needs_input", reply)
        r = self.d.request("answer", target="a", option=1)
        self.assertFalse(r["ok"], r)
        self.assertIn("ended at the question", r["error"])
        self.assertIn('"on_input":"wait"', r["error"])
        self.assertTrue(self.d.request("keys", keys=["Down", "Enter"])["ok"])
        seen = self.d.request("expect", pattern="chose Yes, and do not ask again", timeout_ms=10000)
        self.assertTrue(seen["ok"], seen)
        # Answered: an answer to an ask that never asked gets no such advice.
        other = self.d.request("answer", target="b", option=1)
        self.assertNotIn("ended at the question", other["error"])

    def test_timeout_keeps_running(self):
        t0 = time.monotonic()
        ev = self.start("deploy", timeout_ms=2000)
        self.assertEqual(ev["type"], "needs_input", ev)
        reply = self.d.wait_for(lambda m: m.get("id") == "a", 10)
        self.assertEqual(reply["kind"], "timeout", reply)
        self.assertLess(time.monotonic() - t0, 8)

    def test_answers_go_only_to_a_waiting_ask(self):
        r = self.d.request("answer", target="nobody", option=1)
        self.assertFalse(r["ok"])
        self.assertIn("no ask with id \"nobody\"", r["error"])
        ev = self.start("deploy")
        self.assertTrue(self.d.request("answer", target="a", option=2)["ok"])
        again = self.d.request("answer", target="a", option=1)
        self.assertFalse(again["ok"], again)
        self.assertIn("not waiting for an answer", again["error"])
        reply = self.d.wait_for(lambda m: m.get("id") == "a", 20)
        self.assertIn("chose Yes, and do not ask again", reply["text"])

    def test_without_on_input_the_ask_ends(self):
        r = self.d.ask("deploy", timeout_ms=20000)
        self.assertEqual(r["kind"], "needs_input", r)
        self.assertIn("Proceed to production?", r["question"])
        self.assertFalse(any(m.get("type") == "needs_input" for m in self.d.events))


if __name__ == "__main__":
    unittest.main()
