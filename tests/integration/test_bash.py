"""The bash engine against the real bash."""
import json
import os
import subprocess
import tempfile
import unittest

from engine_case import EngineCase
from tuiclient import BIN, Daemon


class BashEngine(EngineCase):
    ENGINE = "bash"

    @classmethod
    def daemon_args(cls):
        return ["--cwd", cls.tmp]

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
        text = self.ask_ok("seq 1 10000", timeout_ms=60000)
        self.assertEqual(text.split("\n"), [str(i) for i in range(1, 10001)])

    def test_scrollback_is_history_then_screen(self):
        self.ask_ok("seq 1 100")
        lines = self.d.request("scrollback")["lines"]
        prompt = lines[-1]
        self.assertRegex(prompt, r"^bash-[0-9.]+[$#]$")  # bash's own (the mark that tells it is invisible)
        self.assertEqual(lines[-4:], ["98", "99", "100", prompt])
        # `lines` counts from the last line of text, not from blank rows below it.
        self.assertEqual(self.d.request("scrollback", lines=3)["lines"], ["99", "100", prompt])

    def test_clear_screen(self):
        self.assertEqual(self.ask_ok("clear; echo after-clear"), "after-clear")
        # clear also erases the history (CSI 3 J); what is on screen remains.
        lines = self.d.request("scrollback")["lines"]
        self.assertEqual(lines[0], "after-clear")
        self.assertRegex(lines[1], r"^bash-[0-9.]+[$#]$")
        self.assertEqual(len(lines), 2)

    def test_tab_in_prompt_is_kept_as_text(self):
        self.assertEqual(self.ask_ok("printf '%s|%s\\n' a\tb"), "a|b")

    def test_escape_injection_is_stripped(self):
        # The ESC and the BEL never reach bash: the prompt is sanitised.
        self.assertEqual(self.ask_ok("echo safe\x1b[31m\x07"), "safe")


class ProgramEnvironment(unittest.TestCase):
    """What a program is told about its terminal, and what a caller adds."""

    def test_colorterm_says_truecolor_as_the_emulator_keeps_24_bit_colours(self):
        with Daemon("bash") as d:
            self.assertEqual(d.ask("echo $TERM $COLORTERM")["text"], "xterm-256color truecolor")
            # The emulator keeps what it announces: a 24-bit colour comes back as it was sent.
            d.ask("printf '\\033[38;2;1;2;3mrgb\\033[0m\\n'")
            styles = d.request("screen", styles=True)["styles"]
            self.assertIn("#010203", json.dumps(styles))

    def test_env_adds_over_the_engines_and_the_defaults(self):
        with Daemon("bash", "--env", "TERM_PROGRAM=vscode", "--env=PAGER=less -R", "--env", "COLORTERM=24bit",
                    "--env", "EMPTY=", "--env", "WITH_EQ=a=b") as d:
            self.assertEqual(d.ask('echo "$TERM_PROGRAM|$PAGER|$COLORTERM|${EMPTY-unset}|$WITH_EQ"')["text"],
                             "vscode|less -R|24bit||a=b")
        with Daemon("--env", "TERM_PROGRAM=vscode", "--", "sh", "-c", "echo tp=$TERM_PROGRAM ct=$COLORTERM; sleep 30") as d:
            d.request("expect", pattern="tp=vscode ct=truecolor")

    def test_env_without_a_name_is_a_usage_error(self):
        for arg in ("NOEQUALS", "=value"):
            p = subprocess.run([BIN, "bash", "--env", arg], capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
            self.assertEqual(p.returncode, 2, arg)
            self.assertIn(b'"kind":"usage"', p.stdout)
            self.assertIn(b"--env needs NAME=VALUE", p.stdout)


class ResizeDuringAnAsk(unittest.TestCase):
    """Issue 14: shrinking the terminal while an ask runs, then widening it,
    must not cut the lines printed so far (reflow, as tmux does)."""

    def run_ask(self, kind):
        tmp = tempfile.mkdtemp()
        go = [os.path.join(tmp, "go%d" % i) for i in range(2)]
        wait = "while [ ! -e %s ]; do sleep 0.05; done"
        x60 = "x" * 60
        prompt = ("printf 'line1 %s\\n'; printf 'line2 %s'; " % (x60, x60[:30]) + wait % go[0]
                  + "; printf '%s\\nline3 %s\\n'; " % (x60[30:], x60) + wait % go[1]
                  + "; printf 'line4 %s\\n'" % x60)
        with Daemon("bash", "--cwd", tmp, "--cols", "120", "--rows", "30") as d:
            d.send({"id": "A", "type": kind, "prompt": prompt, "timeout_ms": 30000})
            d.wait_screen(lambda s: any(l.startswith("line2 ") for l in s["lines"]), 15)
            self.assertTrue(d.request("resize", cols=30, rows=30)["ok"])
            open(go[0], "w").close()
            d.wait_screen(lambda s: any(l.startswith("line3 ") for l in s["lines"]), 15)
            self.assertTrue(d.request("resize", cols=120, rows=30)["ok"])
            open(go[1], "w").close()
            reply = d.wait_for(lambda m: m.get("id") == "A" and m.get("type") == "reply", 40)
            chunks = "".join(m["delta"] for m in d.events if m.get("id") == "A" and m.get("type") == "chunk")
            lines = d.request("screen")["lines"]
        self.assertTrue(reply["ok"], reply)
        self.assertNotIn("revised", reply)
        expected = "\n".join("line%d %s" % (i, x60) for i in range(1, 5))
        self.assertEqual(reply["text"], expected)
        self.assertIn("line1 " + x60, lines)  # the screen was reflowed back too
        return chunks

    def test_ask(self):
        self.run_ask("ask")

    def test_ask_stream(self):
        chunks = self.run_ask("ask_stream")
        self.assertEqual(chunks, "\n".join("line%d %s" % (i, "x" * 60) for i in range(1, 5)))


if __name__ == "__main__":
    unittest.main()
