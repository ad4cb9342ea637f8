"""A raw session's `run` (issue 44: MCP's `run` takes its output and state
from the daemon): a line typed at a real bash or python, its output compared
with the same code run as a script, questions answered by the next run, a
pager's screen, time running out, a command that never ends, a cancel."""
import os
import subprocess
import unittest

from tuiclient import Daemon

BASH = ("--cols", "40", "--", "bash", "--norc", "--noprofile")
ENV = {"PS1": "$ ", "TERM": "xterm-256color", "LESS": "", "LESSHISTFILE": "-"}

foreign_children = unittest.skipIf(
    os.environ.get("TUIDRIVER_FOREIGN_CHILDREN"),
    "the daemon's question probe cannot read another architecture's syscalls (scripts/test-linux-arm64.sh)")


def run(d, line, **fields):
    timeout_ms = fields.get("timeout_ms", 30000)
    return d.request("run", wait=timeout_ms / 1000 + 10, line=line, **fields)


def as_script(program, code):
    """What `code` prints run as a script (stdout and stderr in one)."""
    out = subprocess.run(program + [code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=30, env={**os.environ, **ENV}).stdout
    return out.rstrip("\n")


@foreign_children
class RunBash(unittest.TestCase):
    def test_output_is_the_scripts_without_echo_or_prompt(self):
        with Daemon(*BASH, env=ENV) as d:
            for line in ["ls /nope; echo done", "printf 'a\\tb\\n\\nc\\n'", "echo $((6*7))",
                         "echo 0123456789012345678901234567890123456789wrapped"]:
                r = run(d, line)
                self.assertTrue(r["ok"], r)
                self.assertEqual(r["output"], as_script(["bash", "-c"], line), line)
                self.assertEqual((r["program_state"], r["question"], r["running"]), ("ready", None, False))

    def test_a_line_of_several_lines_loses_every_echo(self):
        with Daemon(*BASH, env=ENV) as d:
            code = "for i in 1 2; do\necho i$i\ndone"
            self.assertEqual(run(d, code)["output"], as_script(["bash", "-c"], code))

    def test_a_question_is_answered_by_the_next_run(self):
        with Daemon(*BASH, env=ENV) as d:
            r = run(d, "read -p 'Continue? [y/N] ' a; echo got $a")
            self.assertEqual((r["program_state"], r["question"], r["output"]),
                             ("needs_input", "Continue? [y/N]", "Continue? [y/N]"))
            r = run(d, "y")
            self.assertEqual((r["program_state"], r["output"]), ("ready", "got y"))

    def test_time_running_out_leaves_the_command_running_and_the_next_run_waits_for_it(self):
        with Daemon(*BASH, env=ENV) as d:
            r = run(d, "echo first; sleep 2; echo late", timeout_ms=500)
            self.assertEqual((r["program_state"], r["running"], r["output"]), ("running", True, "first"))
            r = run(d, "echo next", timeout_ms=10000)
            self.assertEqual((r["program_state"], r["output"]), ("ready", "next"))
            screen = "\n".join(d.request("screen")["lines"])
            self.assertIn("late", screen)
            self.assertLess(screen.index("late"), screen.index("next"))

    def test_a_command_before_that_never_ends_keeps_the_line_untyped(self):
        with Daemon(*BASH, env=ENV) as d:
            self.assertTrue(run(d, "sleep 30", timeout_ms=300)["running"])
            r = run(d, "echo never", timeout_ms=500)
            self.assertEqual(r["kind"], "busy", r)
            self.assertIn("still running", r["error"])
            self.assertNotIn("echo never", "\n".join(d.request("screen")["lines"]))

    def test_cancel_interrupts_the_line_and_the_next_run_starts_at_a_prompt(self):
        with Daemon(*BASH, env=ENV) as d:
            d.send({"id": "long", "type": "run", "line": "sleep 30"})
            d.request("wait_idle", idle_ms=300, timeout_ms=5000)
            self.assertTrue(d.request("cancel", target="long")["ok"])
            r = d.wait_for(lambda m: m.get("id") == "long", 5)
            self.assertEqual(r["kind"], "cancelled")
            self.assertEqual(run(d, "echo after")["output"], "after")

    def test_runs_go_one_at_a_time_in_arrival_order_and_a_waiting_one_can_be_cancelled(self):
        with Daemon(*BASH, env=ENV) as d:
            d.send({"id": "first", "type": "run", "line": "sleep 2; echo one"})
            d.send({"id": "dropped", "type": "run", "line": "echo dropped"})
            d.send({"id": "second", "type": "run", "line": "echo two", "timeout_ms": 1500, "idle_ms": 100})
            self.assertTrue(d.request("cancel", target="dropped")["ok"])
            self.assertEqual(d.wait_for(lambda m: m.get("id") == "dropped", 5)["kind"], "cancelled")
            self.assertEqual(d.wait_for(lambda m: m.get("id") == "first", 10)["output"], "one")
            # Its 1500 ms count from its start, after the first's 2 s.
            second = d.wait_for(lambda m: m.get("id") == "second", 10)
            self.assertEqual((second["output"], second["program_state"]), ("two", "ready"))
            self.assertNotIn("dropped", "\n".join(d.request("screen")["lines"]))

    def test_a_pager_gives_its_screen_and_an_exit_what_was_printed(self):
        with Daemon(*BASH, env=ENV) as d:
            r = run(d, "printf 'alpha\\nbeta\\n' | less")
            self.assertEqual(r["program_state"], "fullscreen")
            lines = d.request("screen")["lines"]
            while lines and lines[-1] == "":
                lines.pop()
            self.assertEqual(r["output"], "\n".join(lines))  # tmux shows the same: less leaves row 0 blank
            self.assertIn("alpha\nbeta\n(END)", r["output"])
            d.request("send", data="q")
            self.assertEqual(run(d, "exit 3")["program_state"], "exited")


@foreign_children
class RunPython(unittest.TestCase):
    def test_output_input_and_errors_as_the_script_gives_them(self):
        with Daemon("--cols", "80", "--", "python3", "-q", env=ENV) as d:
            self.assertEqual(run(d, "print(6*7)")["output"], "42")
            code = "for i in range(3):\n    print(i * i)\n"
            self.assertEqual(run(d, code)["output"], as_script(["python3", "-c"], code))
            r = run(d, "1/0")
            self.assertTrue(r["output"].endswith("ZeroDivisionError: division by zero"), r["output"])
            r = run(d, "name = input('Name? '); print('hi', name)")
            self.assertEqual((r["program_state"], r["question"]), ("needs_input", "Name?"))
            self.assertEqual(run(d, "Ada")["output"], "hi Ada")


class RunRefused(unittest.TestCase):
    def test_an_engine_session_answers_with_ask(self):
        with Daemon("bash") as d:
            r = run(d, "echo hi")
            self.assertEqual(r["kind"], "error")
            self.assertIn("ask", r["error"])

    def test_bad_fields_are_named(self):
        with Daemon(*BASH, env=ENV) as d:
            self.assertEqual(d.request("run")["kind"], "protocol")
            r = d.request("run", line="x", idle=3)
            self.assertEqual(r["kind"], "bad_request")
            self.assertIn("idle_ms", r["error"])


if __name__ == "__main__":
    unittest.main()
