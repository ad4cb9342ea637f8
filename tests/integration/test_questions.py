"""A question is a question only when the program waits for input.

The bash and python engines decide it from the process: the output is quiet,
the engine's prompt is not showing, and the terminal's foreground process is
blocked reading the terminal (docs/engines.md, needs_input_from_process).
Each ask here has a long timeout: a needs_input reply proves the question
was seen, not waited out; progress text that only looks like a question
must end with the program's real output."""
import os
import time
import unittest

from tuiclient import Daemon

# (code, question the reply reports). Prompts that no shape of text
# recognised before, and the two it did.
BASH_QUESTIONS = [
    ('read -p "Continue? [y/N] " a', "Continue? [y/N]"),
    ('read -p "Overwrite? [Y/n] " a', "Overwrite? [Y/n]"),
    ('read -p "Proceed (y/n) " a', "Proceed (y/n)"),
    ('read -p "package name: (demo) " a', "package name: (demo)"),
    ('read -n1 -s -p "Press any key to continue..."', "Press any key to continue..."),
    ('read -p "> " a', ">"),
    ('read -p "Proceed (Y/n)? " a', "Proceed (Y/n)?"),
    ('read -s -p "Enter passphrase: " a', "Enter passphrase:"),
    ("read a", ""),
    ("head -c1", ""),  # a program the shell runs, in the foreground group
    ('python3 -c "input(\'Name: \')"', "Name:"),
]
PYTHON_QUESTIONS = [
    ("x = input()", ""),
    ("x = input('> ')", ">"),
    ("x = input('Name:  ')", "Name:"),
    ("x = input('Your name? ')", "Your name?"),
    ("import sys; line = sys.stdin.readline()", ""),
    ("import getpass; p = getpass.getpass()", "Password:"),
    ("help()", "help>"),
]


@unittest.skipIf(os.environ.get("TUIDRIVER_FOREIGN_CHILDREN"),
                 "the daemon's question probe cannot read another architecture's syscalls (scripts/test-linux-arm64.sh)")
class Questions(unittest.TestCase):
    def check_questions(self, engine, cases, next_code):
        with Daemon(engine) as d:
            for code, question in cases:
                with self.subTest(code=code):
                    reply = d.request("ask", wait=40, prompt=code, timeout_ms=30000)
                    self.assertEqual(reply.get("kind"), "needs_input", reply)
                    self.assertEqual(reply["question"], question)
                    # The state says so until the next ask interrupts it.
                    self.assertEqual(d.request("status")["state"], "needs_input")
                    self.assertEqual(d.ask(next_code, timeout_ms=20000)["text"], "42")
                    self.assertEqual(d.request("status")["state"], "ready")

    def test_bash_prompts(self):
        self.check_questions("bash", BASH_QUESTIONS, "echo 42")

    def test_python_input_with_any_prompt_or_none(self):
        self.check_questions("python", PYTHON_QUESTIONS, "print(6*7)")

    def test_progress_ending_in_a_colon_is_not_a_question(self):
        cases = [
            ("python", 'import time\nprint("Downloading: ", end="", flush=True)\ntime.sleep(1.5)\nprint("done")',
             "Downloading: done"),
            ("python", 'import time\nprint("Continue? [y/N] ", end="", flush=True)\ntime.sleep(1.5)\nprint("no")',
             "Continue? [y/N] no"),
            ("bash", 'printf "Downloading: "; sleep 1.5; echo done', "Downloading: done"),
            ("bash", 'printf "> "; sleep 1.5; echo done', "> done"),
        ]
        for engine, code, text in cases:
            with self.subTest(engine=engine, code=code), Daemon(engine) as d:
                reply = d.ask(code, timeout_ms=30000)
                self.assertTrue(reply["ok"], reply)
                self.assertEqual(reply["text"], text)
                self.assertEqual(d.request("status")["state"], "ready")

    def test_bash_at_its_own_prompt_is_not_a_question(self):
        with Daemon("bash") as d:
            for _ in range(5):
                self.assertEqual(d.ask("true", timeout_ms=30000), {"id": d.next_id - 1, "type": "reply", "ok": True,
                                                            "text": ""})
            self.assertEqual(d.request("status")["state"], "ready")

    def test_a_question_answered_inside_the_ask(self):
        with Daemon("python") as d:
            d.send({"id": "a", "type": "ask", "prompt": "name = input('Your name? ')\nprint('hi', name)",
                    "timeout_ms": 30000, "on_input": "wait"})
            event = d.wait_for(lambda m: m.get("type") == "needs_input", 30)
            self.assertEqual(event["question"], "Your name?")
            self.assertTrue(d.request("answer", target="a", text="Ada")["ok"])
            reply = d.wait_for(lambda m: m.get("id") == "a" and m.get("type") == "reply", 30)
            self.assertEqual((reply["ok"], reply["text"]), (True, "Your name? Ada\nhi Ada"))

    def test_pagers_never_wedge_the_session(self):
        # help(len) pages through $PAGER: cat in the engine's environment.
        with Daemon("python") as d:
            reply = d.ask("help(len)", timeout_ms=30000)
            self.assertTrue(reply["ok"], reply)
            self.assertIn("Return the number of items in a container.", reply["text"])
        # A pager the user starts anyway takes over the screen: needs_input
        # with the screen, and the next ask gets the prompt back.
        with Daemon("bash") as d:
            reply = d.ask("seq 1 200 | less", timeout_ms=30000)
            self.assertEqual(reply.get("kind"), "needs_input", reply)
            self.assertTrue(reply["question"].startswith("1\n2\n3\n"), reply["question"])
            self.assertEqual(d.request("status")["state"], "needs_input")
            d.request("keys", keys=["q"])
            self.assertEqual(d.ask("echo 42", timeout_ms=20000)["text"], "42")
            self.assertEqual(d.request("status")["state"], "ready")


    def test_a_question_interrupts_do_not_end_fails_the_asks_it_holds_back(self):
        # less ignores C-c: once the daemon's interrupts and Enter are spent,
        # the next ask fails with needs_input (not a 60 s wait for a prompt
        # that cannot come), and one after it at once; q quits it.
        with Daemon("bash") as d:
            self.assertEqual(d.ask("seq 1 200 | less", timeout_ms=30000).get("kind"), "needs_input")
            held = d.ask("echo 1", timeout_ms=60000)
            self.assertEqual(held.get("kind"), "needs_input", held)
            self.assertIn("interrupt keys do not end", held["error"])
            self.assertRegex(held["question"], r"^\d+\n\d+\n")  # the pager's screen
            t0 = time.monotonic()
            again = d.ask("echo 2", timeout_ms=60000)
            self.assertEqual(again.get("kind"), "needs_input", again)
            self.assertLess(time.monotonic() - t0, 5, "no second round of interrupts (about 6 s)")
            d.request("keys", keys=["q"])
            self.assertEqual(d.ask("echo 42", timeout_ms=20000)["text"], "42")

    def test_another_repl_started_in_the_shell_is_a_question(self):
        # python3 started from the bash engine: C-c leaves it at its own
        # prompt, which the next ask reports rather than typing into it.
        with Daemon("bash") as d:
            self.assertEqual(d.ask("python3 -q", timeout_ms=30000).get("kind"), "needs_input")
            held = d.ask("echo 1", timeout_ms=60000)
            self.assertEqual((held.get("kind"), held.get("question")), ("needs_input", ">>>"), held)
            self.assertTrue(d.request("send", data="exit()\r")["ok"])
            self.assertEqual(d.ask("echo 42", timeout_ms=20000)["text"], "42")

if __name__ == "__main__":
    unittest.main()
