"""The python engine against the real python3 REPL."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from engine_case import EngineCase
from tuiclient import Daemon, run_once


class PythonEngine(EngineCase):
    ENGINE = "python"

    def test_ready_event(self):
        self.assertEqual(self.d.ready["engine"], "python")
        self.assertGreater(self.d.ready["pid"], 0)
        self.assertEqual((self.d.ready["cols"], self.d.ready["rows"]), (120, 40))

    def test_single_line(self):
        self.assertEqual(self.ask_ok("6*7"), "42")

    def test_one_expression_replies_as_a_script_would(self):
        # An ask that is one expression takes a shorter way (compiled from
        # its text): what it shows stays what a script's last line shows.
        self.assertEqual(self.ask_ok("(1,\n 2)"), "(1, 2)")
        self.assertEqual(self.ask_ok("6*7  # comment"), "42")
        self.assertIn("IndentationError: unexpected indent", self.ask_ok("  6*7"))
        warned = self.ask_ok('"a" is "a"')
        self.assertEqual(warned.count("SyntaxWarning"), 1, warned)
        self.assertTrue(warned.endswith("True"), warned)
        self.assertIn("SyntaxError: 'yield' outside function", self.ask_ok("yield 1"))

    def test_no_output(self):
        self.assertEqual(self.ask_ok("x = 5"), "")
        self.assertEqual(self.ask_ok("x + 1"), "6")

    def test_for_loop_block(self):
        self.assertEqual(self.ask_ok("for i in range(3):\n    print(i * 10)"), "0\n10\n20")

    def test_def_then_call(self):
        self.assertEqual(self.ask_ok("def sq(n):\n    return n * n\n"), "")
        self.assertEqual(self.ask_ok("sq(12)"), "144")

    def test_error(self):
        text = self.ask_ok("1/0")
        self.assertIn("ZeroDivisionError: division by zero", text)
        self.assertTrue(text.startswith("Traceback"), text)
        self.assertNotIn(">>>", text)

    def test_errors_read_as_the_same_code_run_as_a_script(self):
        # Compared with `python3 -c`, whose file is "<string>": its
        # suggestions ("Did you mean: 'print'?") included.
        for code in ("pritn(1)", "import sys\nsys.exitt(0)", "1/0", "int('x')"):
            script = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            expected = (script.stdout + script.stderr).replace('"<string>"', '"<stdin>"').rstrip("\n")
            self.assertEqual(self.ask_ok(code), expected)

    def test_multiple_statements_on_lines(self):
        self.assertEqual(self.ask_ok("a = 2\nb = 3\nprint(a * b)\nprint('done')"), "6\ndone")

    def test_unicode(self):
        self.assertEqual(self.ask_ok("print('héllo 世界 🚀')"), "héllo 世界 🚀")

    def test_long_line_wraps_unwrapped(self):
        self.assertEqual(self.ask_ok("print('x' * 300)"), "x" * 300)

    def test_long_prompt_echo_wraps(self):
        expr = " + ".join(["1"] * 100)  # 397 columns: the echo wraps
        self.assertEqual(self.ask_ok(expr), "100")

    def test_ten_thousand_lines(self):
        text = self.ask_ok("for i in range(10000):\n    print('line', i)", timeout_ms=60000)
        lines = text.split("\n")
        self.assertEqual(len(lines), 10000)
        self.assertEqual(lines[0], "line 0")
        self.assertEqual(lines[-1], "line 9999")
        self.assertEqual(lines, ["line %d" % i for i in range(10000)])

    def test_stream(self):
        rid = 9001
        self.d.send({"id": rid, "type": "ask_stream",
                     "prompt": "import time\nfor i in range(3):\n    print('part', i, flush=True); time.sleep(0.3)"})
        chunks = []
        while True:
            m = self.d.wait_for(lambda m: m.get("id") == rid, 30)
            if m["type"] == "chunk":
                chunks.append(m["delta"])
            else:
                break
        self.assertTrue(m["ok"], m)
        self.assertEqual(m["text"], "part 0\npart 1\npart 2")
        self.assertEqual("".join(chunks), m["text"])
        self.assertGreater(len(chunks), 1, chunks)

    def test_output_without_a_newline_shows_at_once(self):
        # As under PYTHONUNBUFFERED=1: a progress word, a question before
        # sys.stdin.readline(), on any of the code's streams, is on the
        # screen while the code still runs.
        rid = 9002
        self.d.send({"id": rid, "type": "ask",
                     "prompt": "import sys, time\nprint('working', end='')\nsys.__stderr__.write(' still')\n"
                               "time.sleep(3)\nprint(' done')"})
        screen = self.d.wait_screen(lambda s: any("working still" in line for line in s["lines"]), 10)
        self.assertIn("working still", "\n".join(screen["lines"]))
        self.assertFalse(any(m.get("id") == rid for m in self.d.events), "the ask ended already")
        m = self.d.wait_for(lambda m: m.get("id") == rid and m.get("type") == "reply", 30)
        self.assertTrue(m["ok"], m)
        self.assertEqual(m["text"], "working still done")

    def test_programs_the_code_starts_get_pythonunbuffered(self):
        # The engine strips it from the REPL's own environment (its C stdout
        # stays line-buffered: readline's prompt in one write), and gives it back.
        self.assertEqual(self.ask_ok("import os, subprocess, sys\n"
                                     "subprocess.run([sys.executable, '-c', 'import os; print(os.environ[\"PYTHONUNBUFFERED\"])'])\n"
                                     "os.environ['PYTHONUNBUFFERED']"), "1\n'1'")

    def test_an_ask_costs_the_repl_four_writes_to_the_terminal(self):
        # Each write wakes the daemon: readline's newline after the Enter,
        # the code redrawn as typed, the value with its newline, the prompt.
        # (Unbuffered, readline drew the prompt a character a write.)
        self.ask_ok("6*7")
        def writes():
            with open("/proc/%d/io" % self.d.ready["pid"]) as f:
                return int(next(line for line in f if line.startswith("syscw:")).split()[1])
        before = writes()
        for _ in range(20):
            self.assertEqual(self.ask_ok("6*7"), "42")
        self.assertEqual(writes() - before, 20 * 4)

    def test_a_displayhook_of_the_codes_own_writes_in_order(self):
        # The value's writes to stdout go out as one; one to stderr between them
        # sends those before it first.
        self.assertEqual(self.ask_ok("import sys\ndef hook(v):\n"
                                     "    sys.stdout.write('a'); sys.stderr.write('b'); sys.stdout.write('%s\\n' % v)\n"
                                     "sys.displayhook = hook\n5"), "ab5")
        self.assertEqual(self.ask_ok("sys.displayhook = sys.__displayhook__\n6*7"), "42")

    def test_timeout_then_recovers(self):
        r = self.d.ask("import time; time.sleep(30)", timeout_ms=500)
        self.assertFalse(r["ok"])
        self.assertEqual(r["kind"], "timeout")
        self.assertEqual(self.ask_ok("'after'"), "'after'")

    def test_cancel(self):
        self.d.send({"id": 7001, "type": "ask", "prompt": "while True: pass"})
        # The session is idle, so the ask starts typing as soon as it arrives.
        c = self.d.request("cancel", target=7001)
        self.assertTrue(c["ok"], c)
        r = self.d.wait_for(lambda m: m.get("id") == 7001, 10)
        self.assertEqual(r["kind"], "cancelled")
        self.assertEqual(self.ask_ok("2+2"), "4")

    def test_queued_asks_run_in_order(self):
        ids = list(range(500, 510))
        for i in ids:
            self.d.send({"id": i, "type": "ask", "prompt": "%d*2" % i})
        for i in ids:
            r = self.d.wait_for(lambda m, i=i: m.get("id") == i, 30)
            self.assertEqual(r["text"], str(i * 2))


    # The code goes through the engine's prompt pipe; Enter alone is typed.
    def test_a_long_program_prints_what_the_same_script_prints(self):
        lines = ["total = 0"]
        for i in range(3000):
            lines.append(f"total += {i}  # \"quoted\" \\ backslash, ünïcödé, 表 {i}")
        lines += ["", "def show(x):", "", "    print('total', x)", "", "show(total)"]
        program = "\n".join(lines)  # ~190 KB: far more than the pipe holds at once
        script = subprocess.run([sys.executable, "-"], input=program, capture_output=True, text=True, check=True)
        self.assertEqual(self.ask_ok(program), script.stdout.rstrip("\n"))

    def test_the_prompt_pipe_is_not_the_codes(self):
        text = self.ask_ok("import os, subprocess\n"
                           "print(os.environ.get('TUIDRIVER_PROMPT_FD'))\n"
                           "print(subprocess.run(['sh', '-c', 'ls /proc/$$/fd'], capture_output=True, text=True,"
                           " close_fds=False).stdout.split())")
        self.assertEqual(text, "None\n['0', '1', '2']")

    def test_an_ask_whose_line_was_lost_is_not_run_by_the_next(self):
        # The REPL is busy, showing what looks like its prompt: the ask pipes
        # its prompt, types Enter, times out or is cancelled, and its C-c
        # flushes the Enter from the terminal. The prompt stays in the pipe,
        # and neither the REPL's next prompt, nor a person's Enter, nor the
        # next ask runs it.
        for how in ("timeout", "cancel"):
            with self.subTest(how), tempfile.TemporaryDirectory() as tmp:
                ran = os.path.join(tmp, "ran")
                self.d.request("send", data="import sys, time; print(end=sys.ps1, flush=True); time.sleep(5)\r")
                busy = lambda s: s["lines"][s["cursor"]["row"] - 1].endswith("time.sleep(5)")
                self.assertTrue(busy(self.d.wait_screen(busy, timeout=5)))
                prompt = "open(%r, 'w').close()" % ran
                if how == "timeout":
                    self.assertEqual(self.d.ask(prompt, timeout_ms=500)["kind"], "timeout")
                else:
                    self.d.send({"id": 7101, "type": "ask", "prompt": prompt})
                    time.sleep(0.3)
                    self.assertTrue(self.d.request("cancel", target=7101)["ok"])
                    r = self.d.wait_for(lambda m: m.get("id") == 7101, 10)
                    self.assertEqual(r["kind"], "cancelled")
                # Back at its prompt after the interrupt: a person presses Enter.
                interrupted = lambda s: [l for l in s["lines"] if l.strip()][-2:-1] == ["KeyboardInterrupt"]
                s = self.d.wait_screen(interrupted, timeout=5)
                self.assertTrue(interrupted(s), [l for l in s["lines"] if l.strip()][-6:])
                self.d.request("keys", keys=["Enter"])
                self.d.request("wait_idle", idle_ms=200, timeout_ms=3000)
                self.assertFalse(os.path.exists(ran))
                self.assertEqual(self.ask_ok("'next'"), "'next'")
                self.assertFalse(os.path.exists(ran))

    def test_the_code_after_an_exit_shows_as_typed(self):
        # The exit's OSC is no output that leaves the prompt's row shared.
        self.assertEqual(self.d.ask("import sys; sys.exit(3)")["exit_code"], 3)
        self.assertEqual(self.ask_ok("'shown' + ' as typed'"), "'shown as typed'")
        lines = [l for l in self.d.request("screen")["lines"] if l.strip()]
        self.assertTrue(lines[-3].endswith(">>> 'shown' + ' as typed'"), lines[-3:])

    def test_a_number_typed_by_a_person_is_an_error_not_a_hang(self):
        self.ask_ok("1")  # prompt 1 and later are taken
        self.d.request("send", data="__td(1)\r")
        s = self.d.wait_screen(lambda s: any("prompt 1 never came" in l for l in s["lines"]), timeout=5)
        self.assertTrue(any("prompt 1 never came" in l for l in s["lines"]), s["lines"])
        self.assertEqual(self.ask_ok("6*7"), "42")

    def test_the_up_arrow_brings_back_the_code_not_its_number(self):
        self.ask_ok("print('again' + '!')")
        self.d.request("keys", keys=["Up", "Enter"])
        s = self.d.wait_screen(lambda s: sum(l == "again!" for l in s["lines"]) >= 2, timeout=5)
        self.assertEqual(sum(l == "again!" for l in s["lines"]), 2, s["lines"])
        self.assertEqual(self.ask_ok("6*7"), "42")


class PythonOneShot(unittest.TestCase):
    def test_echo_pipe(self):
        code, msgs, _ = run_once(["python"], '{"id":1,"type":"ask","prompt":"6*7"}\n')
        self.assertEqual(code, 0)
        self.assertEqual(msgs[0]["type"], "ready")
        self.assertEqual(msgs[1], {"id": 1, "type": "reply", "ok": True, "text": "42"})
        self.assertEqual(msgs[-1]["type"], "exit")

    def test_close_during_an_ask_quits_cleanly(self):
        # The ask is interrupted first; the quit keys wait until python is
        # back at its prompt, so it exits by itself rather than by a signal.
        for cancel_first in (False, True):
            with Daemon("python") as d:
                d.send({"id": 9001, "type": "ask", "prompt": "while True: pass"})
                if cancel_first:
                    self.assertTrue(d.request("cancel", target=9001)["ok"])
                c = d.close()
                self.assertEqual((c["exit_code"], c["signal"]), (0, None), c)
                r = [m for m in d.events if m.get("id") == 9001]
                self.assertEqual(r[0]["kind"], "cancelled")

    def test_a_terminal_of_size_zero_still_answers(self):
        # A program may set its terminal's size to 0x0 (stty, or a PTY
        # nobody sized): the engine's echo handling divided by the columns.
        with Daemon("python") as d:
            r = d.ask('import subprocess; subprocess.run(["stty", "rows", "0", "cols", "0"])', timeout_ms=30000)
            self.assertTrue(r["ok"], r)
            r = d.ask("6*7", timeout_ms=30000)
            self.assertEqual((r["ok"], r["text"]), (True, "42"), r)

    HISTORY = "import readline; [readline.get_history_item(i + 1) for i in range(readline.get_current_history_length())]"

    def test_the_users_python_history_is_neither_read_nor_written(self):
        # As the node engine (NODE_REPL_HISTORY=""): a person's ~/.python_history
        # does not fill with asks, and a long one does not slow every ask
        # (readline looks through its whole history at each line).
        with tempfile.TemporaryDirectory() as home:
            path = os.path.join(home, ".python_history")
            with open(path, "w") as f:
                f.write("print('from an earlier session')\n")
            with Daemon("python", env={"HOME": home}) as d:
                self.assertEqual(d.ask("6*7")["text"], "42")
                asks = ['__td("6*7")', "__td(%s)" % json.dumps(self.HISTORY)]
                self.assertEqual(d.ask(self.HISTORY)["text"], repr(asks))
                self.assertEqual(d.close()["exit_code"], 0)
            with open(path) as f:
                self.assertEqual(f.read(), "print('from an earlier session')\n")

    def test_the_history_keeps_the_last_thousand_asks(self):
        with Daemon("python") as d:
            for i in range(1010):
                self.assertEqual(d.ask("%d" % i)["text"], str(i))
            r = d.ask("import readline; readline.get_current_history_length(), readline.get_history_item(1)")
            # 1,011 asks: the last 1,000 lines, this one's included.
            self.assertEqual(r["text"], "(1000, '__td(\"11\")')")


if __name__ == "__main__":
    unittest.main()
