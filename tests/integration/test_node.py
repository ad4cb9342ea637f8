"""The node engine against the real Node REPL."""
import json
import os
import subprocess
import tempfile
import unittest

from engine_case import EngineCase
from tuiclient import Daemon


class NodeEngine(EngineCase):
    ENGINE = "node"

    def test_expression(self):
        self.assertEqual(self.ask_ok("6*7"), "42")

    def test_string(self):
        self.assertEqual(self.ask_ok("'ab'.repeat(3)"), "'ababab'")

    def test_multi_line_function(self):
        self.assertEqual(self.ask_ok("function f(x) {\n  return x + 1;\n}"), "")  # no `undefined`
        self.assertEqual(self.ask_ok("f(41)"), "42")

    def test_console_log_lines(self):
        self.assertEqual(self.ask_ok("for (let i = 0; i < 3; i++) console.log('n' + i)"), "n0\nn1\nn2")

    def test_error(self):
        text = self.ask_ok("null.x")
        self.assertIn("TypeError", text)

    def test_thrown_error_shows_no_frames_of_node_or_the_helper(self):
        # The REPL cuts the stack below the code's own frames.
        text = self.ask_ok("throw new Error('boom')")
        self.assertTrue(text.startswith("Uncaught Error: boom"), text)
        self.assertNotIn("node:", text)

    def test_an_error_the_code_throws_later_ends_its_own_ask_only(self):
        # As a script ends at it; the value and prompt the evaluation would
        # have shown after it once went to the next ask's reply.
        for code in ("setTimeout(() => { throw new Error('later') }, 10); 5",
                     "Promise.reject(new Error('rejected'))"):
            text = self.ask_ok(code)
            self.assertTrue(text.startswith("Uncaught Error: "), text)
            self.assertEqual(self.ask_ok("1+1"), "2")

    def test_a_final_promise_is_awaited_and_its_value_shown(self):
        # As a notebook shows it (Deno's Jupyter kernel): the value it is
        # fulfilled with, nothing for undefined (issue 42: `Promise { undefined }`).
        self.assertEqual(self.ask_ok("Promise.resolve(3)"), "3")
        self.assertEqual(self.ask_ok("Promise.reject(5).catch((e) => console.log('caught', e))"), "caught 5")
        self.assertEqual(self.ask_ok("fetchLater = (v) => new Promise((r) => setTimeout(r, 300, v));\n"
                                     "fetchLater('data').then((v) => console.log('got', v))"), "got data")
        self.assertEqual(self.ask_ok("async function twice(x) { return 2 * x; }\ntwice(21)"), "42")
        self.assertEqual(self.ask_ok("(async () => { console.log('ran'); })()"), "ran")
        self.assertEqual(self.ask_ok("fetchLater({ a: [1] })"), "{ a: [ 1 ] }")

    def test_a_final_promise_still_pending_after_the_wait_shows_as_node_shows_it(self):
        # Without the helper's hook fields (async_id_symbol, kResourceStore):
        # as node's docs show a promise.
        with Daemon("node", env={"TUIDRIVER_REPL_WAIT_MS": "300"}) as d:
            self.assertEqual(d.ask("new Promise(() => {})")["text"], "Promise { <pending> }")
            self.assertEqual(d.ask("1+1")["text"], "2")

    # The code goes through the engine's prompt pipe; nothing is typed.
    def test_a_long_program_prints_what_the_same_script_prints(self):
        lines = ["let total = 0;"]
        for i in range(3000):
            lines.append(f"total += {i};  // \"quoted\" \\ backslash, ünïcödé, 表 {i}")
        lines += ["", "function show(x) {", "", "  console.log('total', x);", "}", "show(total);"]
        program = "\n".join(lines)
        script = subprocess.run(["node", "-"], input=program, capture_output=True, text=True, check=True)
        self.assertEqual(self.ask_ok(program), script.stdout.rstrip("\n"))

    def test_the_prompt_pipe_is_not_the_codes(self):
        text = self.ask_ok("console.log(process.env.TUIDRIVER_PROMPT_FD);\n"
                           "console.log(require('child_process').execSync('ls /proc/$$/fd', "
                           "{stdio: ['inherit', 'pipe', 'pipe']}).toString().split('\\n').filter(Boolean))")
        self.assertEqual(text, "undefined\n[ '0', '1', '2' ]")

    def test_an_ask_types_nothing_into_the_terminal(self):
        # submit.pipe_only: the helper runs the prompt as it arrives in the
        # pipe. A recording's input events hold what was typed.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "asks.cast")
            self.d.request("record", path=path)
            self.assertEqual(self.ask_ok("6*7"), "42")
            self.d.request("send", data="20+2\r")  # a person's line is typed
            self.d.wait_screen(lambda s: "22" in s["lines"], timeout=5)
            self.d.request("record", stop=True)
            with open(path) as f:
                events = [json.loads(line) for line in f.read().splitlines()[1:]]
        self.assertEqual([e[2] for e in events if e[1] == "i"], ["20+2\r"])

    def test_a_line_sent_before_an_ask_runs_before_it(self):
        # The line goes through the terminal, the ask's prompt through the
        # pipe, which would overtake it: the daemon holds the prompt until
        # node has read the line.
        for i in range(30):
            self.d.request("send", data=f"var sentBefore = {i}\r")
            self.assertEqual(self.ask_ok("sentBefore"), str(i))

    QUESTION = ("const rl = require('readline').createInterface({input: process.stdin, output: process.stdout});\n"
                "rl.question('Continue? [y/N] ', (a) => {\n"
                "  console.log('got ' + a);\n"
                "  rl.close();\n"
                "  setTimeout(() => console.log('later'), 50);\n"
                "});")

    def test_code_that_asks_on_the_terminal_gets_its_answer_as_a_script_does(self):
        # As a script: the same code run by node on a terminal of its own,
        # answered the same way.
        with Daemon("--", "node", "-e", self.QUESTION) as script:
            script.wait_screen(lambda s: any("[y/N]" in l for l in s["lines"]), timeout=10)
            script.request("send", data="y\r")
            script.wait_for(lambda m: m.get("type") == "exit", 10)
            printed = "\n".join(l for l in script.request("screen")["lines"] if l)
        self.d.send({"id": "q", "type": "ask", "prompt": self.QUESTION + "\n5", "timeout_ms": 30000, "on_input": "wait"})
        event = self.d.wait_for(lambda m: m.get("type") == "needs_input", 30)
        self.assertEqual(event["question"], "Continue? [y/N]")
        self.assertTrue(self.d.request("answer", target="q", text="y")["ok"])
        reply = self.d.wait_for(lambda m: m.get("id") == "q" and m.get("type") == "reply", 30)
        self.assertEqual((reply["ok"], reply["text"]), (True, printed + "\n5"))
        # The code's readline, closed, paused stdin: the REPL still reads.
        self.assertEqual(self.ask_ok("6*7"), "42")
        self.d.request("send", data="20+3\r")
        self.assertIn("23", self.d.wait_screen(lambda s: "23" in s["lines"], timeout=5)["lines"])

    def test_a_question_left_unanswered_is_interrupted_before_the_next_ask(self):
        r = self.d.ask("require('readline').createInterface({input: process.stdin, output: process.stdout})"
                       ".question('Name: ', (a) => console.log('hi ' + a)); 1")
        self.assertEqual((r["ok"], r["kind"], r["question"]), (False, "needs_input", "Name:"))
        # The next ask's C-c ends the submission, as it ends a script waiting
        # there; the code's readline no longer takes the terminal's keys.
        self.assertEqual(self.ask_ok("6*7"), "42")
        self.d.request("send", data="20+4\r")
        s = self.d.wait_screen(lambda s: "24" in s["lines"], timeout=5)
        self.assertIn("24", s["lines"])
        self.assertFalse(any(l.startswith("hi ") for l in s["lines"]), s["lines"])

    def test_an_ask_that_arrives_while_a_persons_line_runs_runs_after_it(self):
        # The ask starts at the prompt still shown; its prompt arrives while
        # the person's line runs and waits for the REPL's next prompt.
        self.d.request("send", data="const t1 = Date.now(); while (Date.now() - t1 < 700);\r")
        self.assertEqual(self.ask_ok("'after'"), "'after'")
        self.assertEqual(self.ask_ok("6*7"), "42")

    def test_an_ask_whose_prompt_was_not_taken_is_not_run_by_the_next(self):
        # The REPL is busy; the ask's prompt waits in the helper for the
        # REPL's next prompt, the ask times out, and voids it before its C-c.
        self.d.request("send", data="const until = Date.now() + 3000; while (Date.now() < until);\r")
        self.assertEqual(self.d.ask("'lost'", timeout_ms=500)["kind"], "timeout")
        self.assertEqual(self.ask_ok("'next'"), "'next'")

    def test_a_number_typed_by_a_person_is_an_error_not_a_hang(self):
        self.ask_ok("1")  # prompt 1 and later are taken
        # In one write, as a program sends it, and in two, as a person types.
        for i, writes in enumerate(([".td 1\r"], [".td 1", "\r"])):
            for data in writes:
                self.d.request("send", data=data)
            s = self.d.wait_screen(lambda s: sum("prompt 1 never came" in l for l in s["lines"]) > i, timeout=5)
            self.assertEqual(sum("prompt 1 never came" in l for l in s["lines"]), i + 1, s["lines"])
            self.assertEqual(self.ask_ok("6*7"), "42")

    def test_c_c_at_the_prompt_twice_with_asks_between_does_not_end_node(self):
        # Node's REPL exits at a second C-c on an empty line, unless a line
        # came between: an ask is a line, though readline never reads it.
        warned = lambda s: any("press Ctrl+C again" in l for l in s["lines"])
        for _ in range(2):
            self.d.request("keys", keys=["C-c"])
            self.assertTrue(warned(self.d.wait_screen(warned, timeout=5)))
            self.assertEqual(self.ask_ok("6*7"), "42")
            self.d.request("send", data="\x0c")  # C-l: the next C-c's words are new
            self.assertFalse(warned(self.d.wait_screen(lambda s: not warned(s), timeout=5)))

    def test_code_a_person_types_shows_as_an_asks_code_does(self):
        # A person's `.td "<code>"` goes through readline (its echo is
        # replaced by the code); an ask's `.td N` is run from the pipe
        # (nothing echoed). The screen shows both alike.
        self.d.request("send", data='.td "\\"same\\" + \\"screen\\""\r')
        self.d.wait_screen(lambda s: "'samescreen'" in s["lines"], timeout=5)
        self.assertEqual(self.ask_ok('"same" + "screen"'), "'samescreen'")
        lines = [l for l in self.d.request("screen")["lines"] if "same" in l]
        self.assertEqual(len(lines), 4, lines)
        self.assertEqual(lines[:2], lines[2:])
        self.assertRegex(lines[0], r'^> "same" \+ "screen"$')
        # Readline's line is still empty and its own: a person's typing works.
        self.d.request("send", data="20+22\r")
        shown = lambda s: [l for l in s["lines"] if l][-3:]
        s = self.d.wait_screen(lambda s: shown(s)[:2] == [lines[0].split("> ")[0] + "> 20+22", "42"], timeout=5)
        self.assertEqual(shown(s)[:2], [lines[0].split("> ")[0] + "> 20+22", "42"], s["lines"])

    def test_the_up_arrow_brings_back_the_code_not_its_number(self):
        self.ask_ok("console.log('again' + '!')")
        self.d.request("keys", keys=["Up", "Enter"])
        s = self.d.wait_screen(lambda s: sum(l == "again!" for l in s["lines"]) >= 2, timeout=5)
        self.assertEqual(sum(l == "again!" for l in s["lines"]), 2, s["lines"])
        self.assertEqual(self.ask_ok("6*7"), "42")

    def test_a_busy_ask_shows_its_code_while_it_runs(self):
        # The helper gathers the REPL's own writes into one, but writes them
        # before code runs: the echo is not held back until a busy ask ends.
        self.d.send({"id": "busy", "type": "ask", "prompt": "const t0 = Date.now(); while (Date.now() - t0 < 1500) {}; 'busy done'"})
        s = self.d.wait_screen(lambda s: any("< 1500" in l for l in s["lines"]), timeout=1.2)
        self.assertTrue(any("< 1500" in l for l in s["lines"]), s["lines"])
        r = self.d.wait_for(lambda m: m.get("id") == "busy", 10)
        self.assertEqual(r["text"], "'busy done'")

    def test_the_same_code_asked_again_is_still_run_each_time(self):
        # Each ask is a script of its own name (REPL<n>, as node's REPL names lines).
        self.ask_ok("var count = 0")
        for i in range(1, 4):
            self.assertEqual(self.ask_ok("++count"), str(i))
        self.assertRegex(self.ask_ok("new Error('x').stack.split('\\n')[1]"), r"^'    at REPL\d+:1:")

    def test_what_the_repls_evaluator_adds_still_works(self):
        # Most asks are compiled and run by the helper; code with top-level
        # await, import() or a leading brace goes to the REPL's evaluator.
        # Both share the context and report errors the same way.
        self.assertEqual(self.ask_ok("{ a: 1 }"), "{ a: 1 }")
        self.assertEqual(self.ask_ok("let both = await Promise.resolve(2); both"), "2")
        self.assertEqual(self.ask_ok("both * 3"), "6")
        self.assertEqual(self.ask_ok("(await import('node:path')).basename('/a/b.txt')"), "'b.txt'")
        self.assertEqual(self.ask_ok("typeof import.meta"), "Uncaught SyntaxError: Cannot use 'import.meta' outside a module")
        # An error shows the code's frames only (the REPL cuts below them).
        self.assertEqual(self.ask_ok("throw new RangeError('r')"), "Uncaught RangeError: r")
        self.assertRegex(self.ask_ok("function deep() { throw new Error('d') }\ndeep()"),
                         r"^Uncaught Error: d\n    at deep \(REPL\d+:1:\d+\)$")
        self.assertEqual(self.ask_ok("function f("), "Uncaught SyntaxError: Unexpected end of input")

    def test_an_ask_is_interrupted_even_when_the_code_listens_for_sigint(self):
        # Removing the code's listener around each evaluation once reset SIGINT
        # to its default, so the timed-out ask's C-c killed node.
        with Daemon("node") as d:
            self.assertTrue(d.ask("process.on('SIGINT', () => console.log('listener'))")["ok"])
            for _ in range(2):  # the watchdog's handler is set again each time
                self.assertEqual(d.ask("while (true) {}", timeout_ms=1000)["kind"], "timeout")
                # (Its listeners are put back once the code's synchronous part
                # ran: during it they are away, as in node's own REPL.)
                self.assertEqual(d.ask("setTimeout(() => console.log(process.listenerCount('SIGINT')))",
                                       timeout_ms=10000)["text"].split("\n")[0], "1")

    def test_a_sigint_while_idle_keeps_the_session(self):
        # As C-c at node's prompt does. (With the watchdog started per
        # evaluation, node had no handler between asks and died of it.)
        with Daemon("node") as d:
            self.assertTrue(d.request("signal", signal="SIGINT")["ok"])
            self.assertEqual(d.ask("6*7", timeout_ms=10000)["text"], "42")
            self.assertEqual(d.ask("1+1", timeout_ms=10000)["text"], "2")

    def test_ten_thousand_lines(self):
        text = self.ask_ok("for (let i = 0; i < 10000; i++) console.log(i); 'end'", timeout_ms=60000)
        lines = text.split("\n")
        self.assertEqual(lines[:10000], [str(i) for i in range(10000)])
        self.assertEqual(lines[10000:], ["'end'"])


if __name__ == "__main__":
    unittest.main()
