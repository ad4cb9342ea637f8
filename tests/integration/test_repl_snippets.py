"""Code a user would paste into the python, bash and node REPLs.

Table-driven: each snippet is asked through its engine, and run as a script
too; the reply must be exactly what the script prints. Snippets whose last
statement is a bare expression also name the value the REPL shows for it (as
a notebook cell does). Then the cases of a REPL that must never get stuck:
output with no final newline, background output, questions, continuation
prompts, interrupts, output that looks like a prompt."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from tuiclient import Daemon

HOLDING_REPL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "holding_repl.py")

# (snippet, what the REPL adds after the script's output: the value of a
# final bare expression, or None when the last statement is not one)
PYTHON = [
    ("print('hello')", None),
    ("total = 0\nfor i in range(3):\n    total += i\nprint(total)", None),
    ("def f(x):\n\n    y = x * 2\n\n    return y\nprint(f(1), 1)", None),
    ("class A:\n    def m(self):\n        return 'm'\n\nprint(A().m())", None),
    ("import functools\n\n@functools.lru_cache\ndef sq(n):\n    return n * n\n\nprint(sq(7))", None),
    ("if __name__ == '__main__':\n    print('as a script')", None),
    ("for i in range(3):\n    if i % 2:\n        print('odd', i)\n    else:\n        print('even', i)\nprint('done')", None),
    ("print('no newline', end='')", None),
    ("x = 'pri\tz'\nprint(repr(x))", None),
    ("try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print('caught', e)", None),
    ("data = {'b': 2, 'a': 1}\nfor k in sorted(data):\n    print(k, data[k])", None),
    ("print('\\u2705 caf\\u00e9 \\u4e2d\\u6587')", None),
    ("while True:\n    break\nprint('after the loop')", None),
    ("x = [i * i for i in range(5)]\nx", "[0, 1, 4, 9, 16]"),
    ("6 * 7", "42"),
    ("import math\nmath.sqrt(16)", "4.0"),
    ("print('first')\nNone", ""),
    ("print('a\\tb\\tc')\nprint('\\t'.join(['x', 'yy', 'zzz']))", None),
    # A script's end waits for its threads.
    ("import threading\nthreading.Timer(0.2, print, ['from a thread']).start()\nprint('main')", None),
]
BASH = [
    ("echo hello", None),
    ("printf hello", None),
    ("for i in 1 2 3; do\n  echo \"n$i\"\ndone", None),
    ("if [ 1 -lt 2 ]; then\n  echo yes\nelse\n  echo no\nfi", None),
    ("greet() {\n  echo \"hi $1\"\n}\ngreet you", None),
    ("cat <<EOF\nline one\n  line two\nEOF", None),
    ("x=5\necho $((x * 2))", None),
    ("printf 'a\\tb\\n' | cut -f2", None),
    ("case foo in\n  f*) echo matched ;;\n  *) echo other ;;\nesac", None),
    ("printf 'no newline either'", None),
    ("x='a\tb'\necho \"${#x}\"", None),  # a TAB is typed, never completed
    ("printf 'name\\tsize\\nfile.txt\\t12\\n'", None),
]
NODE = [
    ("console.log('hello')", None),
    ("function f(a) {\n  return a * 2;\n}\nconsole.log(f(4))", None),
    ("class A {\n  m() { return 'm'; }\n}\nconsole.log(new A().m())", None),
    ("for (let i = 0; i < 3; i++) {\n  console.log('n' + i);\n}", None),
    ("const xs = [3, 1, 2];\nxs.sort();\nconsole.log(xs.join(','))", None),
    ("process.stdout.write('no newline\\n')", "true"),
    ("let q = 3;\nq = q * 2;\nconsole.log(q)", None),
    ("const o = { a: 1,\n  b: [1, 2] };\nconsole.log(JSON.stringify(o))", None),
    ("6 * 7", "42"),
    ("'ab'.repeat(3)", "'ababab'"),
    ("console.log(['id', 'name'].join('\\t'))", None),
    # Output after the code returned: microtasks and timers, as a script.
    ("Promise.resolve(1200).then(console.log);\nundefined", None),
    ("setTimeout(() => console.log('later'), 50);\nconsole.log('first');\nundefined", None),
    ("const p1 = Promise.resolve(3);\nconst p2 = new Promise((r) => setTimeout(r, 100, 'foo'));\n"
     "Promise.all([p1, 42, p2]).then((values) => console.log(values));\nundefined", None),
    ("function resolveAfter(ms) {\n  return new Promise((resolve) => setTimeout(() => resolve('resolved'), ms));\n}\n"
     "async function asyncCall() {\n  console.log('calling');\n  const result = await resolveAfter(300);\n"
     "  console.log(result);\n}\nasyncCall();\nundefined", None),
]
SCRIPT = {
    "python": (["python3"], ".py"),
    "bash": (["bash", "--noprofile", "--norc"], ".sh"),
    "node": (["node"], ".js"),
}


def run_as_script(engine, code):
    argv, suffix = SCRIPT[engine]
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "w") as f:
        f.write(code + "\n")
    try:
        out = subprocess.run(argv + [path], capture_output=True, text=True, timeout=30).stdout
    finally:
        os.unlink(path)
    # A TAB comes back as a TAB (the terminal records which cells it moved over).
    return out.rstrip("\n")


class Snippets(unittest.TestCase):
    def check(self, engine, table):
        with Daemon(engine) as d:
            for code, value in table:
                with self.subTest(engine=engine, code=code):
                    expected = run_as_script(engine, code)
                    if value:
                        expected = (expected + "\n" + value) if expected else value
                    reply = d.ask(code, timeout=20)
                    self.assertTrue(reply["ok"], reply)
                    self.assertEqual(reply["text"], expected)

    def test_python(self):
        self.check("python", PYTHON)

    def test_bash(self):
        self.check("bash", BASH)

    def test_node(self):
        self.check("node", NODE)

    def test_at_least_thirty(self):
        self.assertGreaterEqual(len(PYTHON) + len(BASH) + len(NODE), 30)


class NeverStuck(unittest.TestCase):
    def test_node_output_without_a_final_newline(self):
        with Daemon("node") as d:
            self.assertEqual(d.ask("process.stdout.write('no newline'); undefined")["text"], "no newline")
            self.assertEqual(d.ask("1+1")["text"], "2")

    def test_exit_ends_the_code_not_the_session(self):
        with Daemon("python") as d:
            self.assertTrue(d.ask("kept = 5")["ok"])
            for code, status, text in (("import sys\nprint('bye')\nsys.exit(3)", 3, "bye"),
                                       ("import sys; sys.exit()", 0, ""),
                                       ("import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
                                        "        self.assertEqual(1, 2)\nunittest.main(argv=['t'])", 1,
                                        "FAILED (failures=1)")):
                reply = d.ask(code)
                self.assertEqual((reply["ok"], reply["kind"], reply["exit_code"]), (False, "exited", status))
                self.assertTrue(reply["text"].endswith(text), reply["text"])
                self.assertEqual(d.ask("kept")["text"], "5")
            self.assertEqual(d.request("status")["state"], "ready")
        with Daemon("node") as d:
            self.assertTrue(d.ask("let kept = 5")["ok"])
            for code, status, text in (("console.log('bye');\nprocess.exit(3)", 3, "bye"),
                                       ("function f() { process.exit(); }\nf()", 0, ""),
                                       ("await new Promise((r) => setTimeout(r, 50));\nprocess.exit(7)", 7, "")):
                reply = d.ask(code)
                self.assertEqual((reply["ok"], reply["kind"], reply["exit_code"], reply["text"]),
                                 (False, "exited", status, text))
                self.assertEqual(d.ask("kept")["text"], "5")

    def test_tabs_survive_in_a_raw_sessions_scrollback(self):
        with Daemon("--", "sh", "-c", "printf 'id\\tname\\n7\\tada\\n'; sleep 30") as d:
            d.request("expect", pattern="ada")
            lines = d.request("scrollback")["lines"]
            self.assertEqual(lines[:2], ["id\tname", "7\tada"])
            # The screen shows what a terminal shows: spaces.
            self.assertEqual(d.request("screen")["lines"][:2], ["id      name", "7       ada"])

    def test_node_output_after_the_prompt_never_reaches_another_reply(self):
        with Daemon("node") as d:
            self.assertEqual(d.ask("Promise.resolve(1200).then(console.log)")["ok"], True)
            for _ in range(3):
                self.assertEqual(d.ask("1+1")["text"], "2")

    def test_node_top_level_await(self):
        with Daemon("node") as d:
            self.assertEqual(d.ask("await new Promise((r) => setTimeout(() => r(5), 100))")["text"], "5")

    def test_background_output_after_the_prompt(self):
        cases = [
            ("python", "import threading; threading.Timer(0.2, lambda: print('bg log')).start()", "1+1", "2"),
            ("node", "setTimeout(() => console.log('bg log'), 200); 0", "1+1", "2"),
            ("bash", "(sleep 0.2; echo bg log) &", "echo $((1+1))", "2"),
        ]
        for engine, background, question, answer in cases:
            with self.subTest(engine=engine), Daemon(engine) as d:
                self.assertTrue(d.ask(background)["ok"])
                time.sleep(0.8)  # the output lands while no ask runs
                self.assertEqual(d.ask(question, timeout=10)["text"], answer)
                self.assertEqual(d.ask(question, timeout=10)["text"], answer)
                self.assertIn("bg log", "\n".join(d.request("scrollback")["lines"]))

    def test_questions_are_reported_within_the_question_window(self):
        cases = [
            ("python", "print('hello'); x = input('Your name? ')", "hello\nYour name? ", "Your name?"),
            ("bash", "echo hello; read -p 'Your name? ' n", "hello\nYour name? ", "Your name?"),
        ]
        for engine, code, text, question in cases:
            with self.subTest(engine=engine), Daemon(engine) as d:
                # The ask's own timeout is long: the reply must come from the
                # question window, well before it.
                reply = d.request("ask", wait=10, prompt=code, timeout=60)
                self.assertEqual((reply["kind"], reply["text"], reply["question"]), ("needs_input", text, question))
                # The next ask brings the REPL back to a fresh prompt first.
                self.assertEqual(d.ask("print(6*7)" if engine == "python" else "echo 42", timeout=10)["text"], "42")

    def test_continuation_then_the_next_ask_works(self):
        with Daemon("bash") as d:
            reply = d.ask('echo "unterminated', timeout=10)
            self.assertEqual(reply["kind"], "needs_input")
            self.assertEqual(d.ask("echo ok", timeout=10)["text"], "ok")

    def test_an_interrupt_held_at_the_continuation_prompt_is_flushed(self):
        # The REPL shows no reaction to the interrupt until its next line:
        # the daemon interrupts once more, then sends an empty line.
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump({"command": [sys.executable, HOLDING_REPL],
                       "prompt": {"pattern": "^toy> $", "scope": "cursor_line"},
                       "continuation_prompt": {"pattern": "^toy\\.\\.\\. $", "scope": "cursor_line"},
                       "submit": {"mode": "lines"}, "interrupt_keys": ["C-c"]}, f)
        try:
            with Daemon("--engine-file", path) as d:
                self.assertEqual(d.ask('echo "open', timeout=10)["kind"], "needs_input")
                self.assertEqual(d.ask("echo ok", timeout=20)["text"], "ok")
                self.assertEqual(d.ask("echo again", timeout=10)["text"], "again")
        finally:
            os.unlink(path)

    def test_an_unclosed_bracket_is_a_syntax_error_as_in_a_script(self):
        # Whole-program engines never leave a continuation prompt behind.
        for engine, expected in (("python", "SyntaxError: '(' was never closed"),
                                 ("node", "Uncaught SyntaxError: Unexpected end of input")):
            with self.subTest(engine=engine), Daemon(engine) as d:
                reply = d.ask("x = (", timeout=10)
                self.assertTrue(reply["ok"])
                self.assertTrue(reply["text"].endswith(expected), reply["text"])
                self.assertEqual(d.ask("1+1")["text"], "2")

    def test_interrupt_a_busy_loop(self):
        for engine, loop, after in (("node", "while (true) {}", "1+1"), ("python", "while True: pass", "1+1"),
                                    ("bash", "while true; do :; done", "echo 2")):
            with self.subTest(engine=engine), Daemon(engine) as d:
                self.assertEqual(d.ask(loop, timeout=1)["kind"], "timeout")
                self.assertEqual(d.ask(after, timeout=10)["text"], "2")

    def test_output_that_looks_like_a_prompt_does_not_end_the_ask(self):
        with Daemon("bash") as d:
            reply = d.ask('printf "\\ntd-abcdef$ \\ntuidriver$ "; sleep 1; echo after', timeout=10)
            # (Rows lose their trailing spaces, as in every reply.)
            self.assertEqual(reply["text"], "\ntd-abcdef$\ntuidriver$ after")
            self.assertEqual(d.ask("echo next")["text"], "next")


if __name__ == "__main__":
    unittest.main()
