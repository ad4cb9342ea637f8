"""The bash engine against the real bash."""
import os
import tempfile
import unittest

from tuiclient import Daemon


class BashEngine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.d = Daemon("bash", "--cwd", cls.tmp)

    @classmethod
    def tearDownClass(cls):
        cls.d.close()
        cls.d.__exit__()

    def ask_ok(self, prompt, timeout=30):
        r = self.d.ask(prompt, timeout=timeout)
        self.assertTrue(r["ok"], r)
        return r["text"]

    def test_echo(self):
        self.assertEqual(self.ask_ok("echo hello"), "hello")

    def test_multi_line_prompt(self):
        self.assertEqual(self.ask_ok("echo one\necho two"), "one\ntwo")

    def test_multi_line_compound(self):
        self.assertEqual(self.ask_ok("for i in 1 2 3; do\n  echo n$i\ndone"), "n1\nn2\nn3")

    def test_failing_command(self):
        text = self.ask_ok("ls /definitely/not/here; echo status=$?")
        self.assertIn("No such file or directory", text)
        self.assertTrue(text.endswith("status=2"), text)

    def test_command_not_found(self):
        self.assertIn("command not found", self.ask_ok("no_such_cmd_xyz"))

    def test_blank_lines_kept(self):
        self.assertEqual(self.ask_ok("printf 'a\\n\\nb\\n'"), "a\n\nb")

    def test_cwd(self):
        self.assertEqual(self.ask_ok("pwd"), os.path.realpath(self.tmp))
        st = self.d.request("status")
        self.assertEqual(st["cwd"], os.path.realpath(self.tmp))
        self.assertEqual(st["engine"], "bash")

    def test_ten_thousand_lines(self):
        text = self.ask_ok("seq 1 10000", timeout=60)
        self.assertEqual(text.split("\n"), [str(i) for i in range(1, 10001)])

    def test_scrollback_is_history_then_screen(self):
        self.ask_ok("seq 1 100")
        lines = self.d.request("scrollback")["lines"]
        prompt = lines[-1]
        self.assertRegex(prompt, r"^td-[0-9a-f]{6}\$$")  # unique to the session
        self.assertEqual(lines[-4:], ["98", "99", "100", prompt])
        # `lines` counts from the last line of text, not from blank rows below it.
        self.assertEqual(self.d.request("scrollback", lines=3)["lines"], ["99", "100", prompt])

    def test_clear_screen(self):
        self.assertEqual(self.ask_ok("clear; echo after-clear"), "after-clear")
        # clear also erases the history (CSI 3 J); what is on screen remains.
        lines = self.d.request("scrollback")["lines"]
        self.assertEqual(lines[0], "after-clear")
        self.assertRegex(lines[1], r"^td-[0-9a-f]{6}\$$")
        self.assertEqual(len(lines), 2)

    def test_tab_in_prompt_is_kept_as_text(self):
        self.assertEqual(self.ask_ok("printf '%s|%s\\n' a\tb"), "a|b")

    def test_escape_injection_is_stripped(self):
        # The ESC and the BEL never reach bash: the prompt is sanitised.
        self.assertEqual(self.ask_ok("echo safe\x1b[31m\x07"), "safe")


if __name__ == "__main__":
    unittest.main()
