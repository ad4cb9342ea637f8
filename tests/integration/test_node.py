"""The node engine against the real Node REPL."""
import unittest

from tuiclient import Daemon


class NodeEngine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.d = Daemon("node")

    @classmethod
    def tearDownClass(cls):
        cls.d.close()
        cls.d.__exit__()

    def ask_ok(self, prompt, timeout=30):
        r = self.d.ask(prompt, timeout=timeout)
        self.assertTrue(r["ok"], r)
        return r["text"]

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

    def test_a_promise_shows_without_the_helpers_hook_fields(self):
        # The helper's async hook adds node's bookkeeping symbols to promises
        # (async_id_symbol, kResourceStore); the value shows as node's docs show it.
        self.assertEqual(self.ask_ok("Promise.resolve(3)"), "Promise { 3 }")
        self.assertEqual(self.ask_ok("Promise.reject(5).catch((e) => console.log('caught', e))"),
                         "caught 5\nPromise { undefined }")

    def test_ten_thousand_lines(self):
        text = self.ask_ok("for (let i = 0; i < 10000; i++) console.log(i); 'end'", timeout=60)
        lines = text.split("\n")
        self.assertEqual(lines[:10000], [str(i) for i in range(10000)])
        self.assertEqual(lines[10000:], ["'end'"])


if __name__ == "__main__":
    unittest.main()
