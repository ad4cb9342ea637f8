"""Start-up code of tuidriver's python engine (python3 -i python_repl.py TOKEN).

The interactive interpreter stays the standard one (readline, history,
tracebacks), with two additions:

- Prompts are the REPL's own (`>>> `, `... `), each after an invisible mark
  carrying TOKEN, a string unique to the session: OSC 7704 (the engine's
  prompt_osc), which a terminal does not show, and which readline counts as
  no width (between \001 and \002). The daemon takes a prompt only where
  its mark is, so no program output can look like the prompt (output with
  no final newline ends on the prompt's row: the daemon takes it from
  there).
- Tracebacks name the code's file `<stdin>`, as the REPL's own do.
- __td(source) runs a whole submission the way a script runs it (blank
  lines inside blocks, dedents back to top level, decorators,
  `if __name__ == "__main__":`), waits as a script's end would for the
  threads it started (non-daemon ones, up to DRAIN_S), then shows the value
  of a final bare expression the way the prompt does (nothing for None).
  sys.exit() ends the submission, not the interpreter.
- The history stays in the session, as the node engine's does: asks are not
  written to ~/.python_history, nor is it read (readline looks through its
  whole history at every line: a long one slowed every ask), and it keeps the
  last 1,000 lines.
- Output of a thread started by an earlier submission, or still running
  after the wait, is late: never part of a reply. It is held while a
  submission runs and shown above that one's code as typed, or, while the
  prompt shows, on rows of its own above a fresh prompt (docs/engines.md).

The engine sends every ask's source through a pipe ($TUIDRIVER_PROMPT_FD)
as prompt number N and types Enter alone: the REPL then asks for its next
prompt, sys.ps1, whose str() runs the prompt (Prompt, below). No block
needs closing, no TAB reaches readline's completion, and however long the
code, readline reads one key (each typed character costs it several system
calls, and compiling the typed line more than running `6*7`). `__td(N)`
typed runs prompt N, and `__td("...")` with the source as a string literal
runs it too (what the history keeps, for a person's up-arrow).
"""
import builtins
import sys


def _interactive_hook():
    """site's hook (readline, TAB completion, ~/.inputrc) without its
    history file."""
    try:
        import readline
        import rlcompleter  # noqa: F401 (it installs the completer)
    except ImportError:
        return
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    try:
        readline.read_init_file()
    except OSError:
        pass


def unbuffered_output():
    """What PYTHONUNBUFFERED=1 gives the code (output without a final
    newline shows at once: a progress dot, a question before
    sys.stdin.readline()), and to the programs it starts; not to C's stdout,
    where readline draws the prompt: unbuffered, each of its characters was
    a write of its own, and a wake-up of the daemon (the engine strips the
    variable)."""
    import io
    import os
    for name in ("stdout", "stderr"):
        old = getattr(sys, name)
        try:
            raw = io.FileIO(old.fileno(), "w", closefd=False)
        except (AttributeError, OSError, ValueError):
            continue  # no file descriptor (redirected by an embedder): left as it is
        stream = io.TextIOWrapper(raw, encoding=old.encoding, errors=old.errors, newline="\n", write_through=True)
        old.flush()
        setattr(sys, name, stream)
        setattr(sys, "__%s__" % name, stream)
    os.environ["PYTHONUNBUFFERED"] = "1"


def _setup(token):
    # Everything lives in this closure: the user's namespace (__main__)
    # keeps only what an interactive interpreter has.
    import ast
    import os
    import re
    import select
    import sys
    import threading
    import time

    # The wait for threads; $TUIDRIVER_REPL_WAIT_MS shortens it (tests).
    drain_s = float(os.environ.get("TUIDRIVER_REPL_WAIT_MS") or 5000) / 1000
    # How long late output waits after a submission: an ask that follows at
    # once shows it above its code, with no redraw of the prompt in between.
    # (The reply's end is the end mark, Late.ended, not this wait.)
    late_s = 0.2

    history_lines = 1000  # kept in readline's history
    unbuffered_output()
    # The daemon's prompt pipe: read by number, never inherited by programs
    # the code starts, non-blocking (read at once, select only to wait).
    try:
        prompt_fd = int(os.environ.pop("TUIDRIVER_PROMPT_FD", "-1"))
        os.set_inheritable(prompt_fd, False)
        os.set_blocking(prompt_fd, False)
    except (ValueError, OSError):
        prompt_fd = -1
    piped = bytearray()  # read from the pipe, not parsed yet
    pending = {}  # complete prompts read from it, by number
    taken = [0]  # prompts up to this number are taken or void

    exits = [0]
    echoes = [0]
    last_char = ["\n"]  # the last character the code printed
    running = [0]  # the running submission's number (0: the prompt shows)
    submissions = [0]
    threads_until = [0.0]  # when the running submission's wait for its threads ends

    def owner():
        """The submission whose code writes: the main thread runs the
        running one (or is the REPL's own); a thread belongs to the
        submission that started it (Thread.start, below), until the wait for
        its threads is over (its output is late from then on, whenever the
        main thread gets to end the submission)."""
        thread = threading.current_thread()
        if thread is threading.main_thread():
            return running[0]
        number = getattr(thread, "_td_submission", 0)
        if number == running[0] and number and time.monotonic() >= threads_until[0]:
            return -1  # no submission's: late, as are threads it starts
        return number

    thread_start = threading.Thread.start

    def start(self):
        self._td_submission = owner()
        return thread_start(self)

    threading.Thread.start = start

    class Late:
        """Late output not shown yet: held while a submission runs (its
        start shows it above its code) and for late_s after one, then shown
        above a fresh prompt, in one piece once writes pause (print writes
        its parts one by one)."""

        def __init__(self, raw):
            self.raw = raw
            self.held = []
            self.lock = threading.RLock()
            self.quiet_until = 0.0
            self.timer = None

        def hold(self, text):
            with self.lock:
                self.held.append(text)
                if not running[0] and self.timer is None:
                    delay = max(0.05, self.quiet_until - time.monotonic())
                    self.timer = threading.Timer(delay, self.flush)
                    self.timer.daemon = True
                    self.timer.start()

        def take(self):
            """The held output, ending its line, and none held any more."""
            with self.lock:
                text = "".join(self.held)
                self.held.clear()
                return text if not text or text.endswith("\n") else text + "\n"

        def flush(self):
            with self.lock:
                self.timer = None
                if running[0] or not self.held:
                    return  # the running submission shows it above its code
                if time.monotonic() < self.quiet_until:
                    return self.hold("")
                try:
                    import readline
                    typed = readline.get_line_buffer()
                except ImportError:
                    typed = ""
                # Clear the prompt's row (keeping output it shares the row
                # with), print, and draw the prompt (with what was typed so
                # far) again below.
                start = "\r\x1b[K" if last_char[0] == "\n" else "\n"
                self.raw.write("%s%s%s%s" % (start, self.take(), drawn(sys.ps1), typed))
                self.raw.flush()
                last_char[0] = "\n"

        def ended(self):
            with self.lock:
                text = stdout.take_gathered()  # the value shown, if any
                if running[0]:
                    # Where the submission's output ends (the engine's
                    # end_osc, with the number of its echo mark): the daemon
                    # ends the reply there, so late output shown after it is
                    # never the reply's, however late the daemon reads it.
                    # In the value's write: one wake-up of the daemon less.
                    text += "\x1b]7705;%d\x07" % echoes[0]
                if text:
                    self.raw.write(text)
                    self.raw.flush()
                running[0] = 0
                self.quiet_until = time.monotonic() + late_s
                if self.held:
                    self.hold("")

    late = Late(sys.stdout)

    def drawn(prompt):
        """A prompt as the helper writes it itself: the mark without
        readline's \\001/\\002 around it (only readline takes those out)."""
        return str.__str__(prompt).replace("\001", "").replace("\002", "")

    class Tracked:
        """sys.stdout or sys.stderr: the running submission's output goes
        out, noting whether it ended a line (the prompt after output with no
        final newline shares its row, which a redrawn echo must not wipe);
        any other is late."""

        def __init__(self, stream):
            self._stream = stream
            self._gathered = None  # while show_value runs: its writes, to go out as one

        def write(self, text):
            with late.lock:
                if text and owner() != running[0]:
                    late.hold(text)
                    return len(text)
                if text:
                    last_char[0] = text[-1]
                if self._gathered is not None and threading.current_thread() is threading.main_thread():
                    self._gathered.append(text)
                    return len(text)
                if self is not stdout and stdout._gathered:
                    stdout.write_gathered()  # (a displayhook that writes to both: in order)
                return self._stream.write(text)

        def write_gathered(self):
            text = "".join(self._gathered)
            self._gathered.clear()
            if text:
                self._stream.write(text)

        def take_gathered(self):
            """What show_value gathered, not written yet; gathering ends."""
            text = "".join(self._gathered or [])
            self._gathered = None
            return text

        def show_value(self, value):
            """sys.displayhook(value), its writes here gathered to go out in
            one with the end mark (the repr and its newline: each write wakes
            the daemon; Late.ended writes them)."""
            self._gathered = []
            sys.displayhook(value)

        def __getattr__(self, name):
            return getattr(self._stream, name)

    sys.stdout = stdout = Tracked(sys.stdout)
    sys.stderr = Tracked(sys.stderr)

    def width(text):
        text = re.sub("\001[^\002]*\002", "", text)  # a prompt's mark takes no room
        if text.isascii():
            return len(text)  # the common case, without a look at each character
        import unicodedata
        return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
                   for c in text)

    def read_pipe(wait):
        """Reads what the pipe holds, waiting up to `wait` seconds for it,
        and files its records: "<number> <size>\\n" and the prompt's bytes,
        or "<number> drop\\n" (its ask ended before the prompt was taken:
        it and those before it are void). False if nothing came."""
        if prompt_fd < 0:
            return False
        try:
            chunk = os.read(prompt_fd, 65536)  # (a 1 MiB buffer costs an mmap per read)
        except BlockingIOError:
            if wait <= 0 or not select.select([prompt_fd], [], [], wait)[0]:
                return False
            return read_pipe(0)
        if not chunk:
            return False
        piped.extend(chunk)
        while True:
            end = piped.find(b"\n")
            if end < 0:
                return True
            number, size = piped[:end].split()
            number, start = int(number), end + 1
            if size == b"drop":
                del piped[:start]
                take(number)
                continue
            stop = start + int(size)
            if len(piped) < stop:
                return True  # the rest is on its way
            if number > taken[0]:
                pending[number] = bytes(piped[start:stop]).decode("utf-8", "replace")
            del piped[:stop]

    def take(number):
        """Prompt `number` if it was read, else None. Those before it are
        void: their line never reached the REPL (an ask cancelled before
        the REPL read it)."""
        taken[0] = max(taken[0], number)
        source = pending.pop(number, None)
        for n in [n for n in pending if n < number]:
            del pending[n]
        return source

    def from_pipe(number):
        """Prompt `number` (typed as `__td(N)`), or None if it never comes."""
        if number <= taken[0]:
            return None  # taken already (a person typed an old number)
        # The daemon writes a prompt before its line: a wait here is only
        # for the rest of a large one, or for one that never comes.
        while number not in pending and number > taken[0] and not any(n > number for n in pending):
            if not read_pipe(2):
                return None  # it never came
        return take(number)  # (None if a later one came instead: this one is gone)

    def newest_from_pipe():
        """The newest prompt in the pipe as (number, source), or None: an
        Enter typed alone (submit.enter_only) follows its prompt."""
        read_pipe(0)
        while piped and read_pipe(2):
            pass  # a large prompt: the rest is on its way
        if piped:  # it never came whole: void, and what is left of it with it
            number = int(piped.split()[0])
            piped.clear()
            return number, take(number)
        if not pending:
            return None
        number = max(pending)
        return number, take(number)

    def literal(source):
        import json
        return json.dumps(source, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")

    def keep_in_history(typed, source):
        """The history holds the source, not its number, nor an empty line
        for an Enter typed alone: a person's up-arrow brings back code that
        runs again. Its oldest lines go past history_lines."""
        readline = sys.modules.get("readline")
        entry = "__td(%s)" % literal(source)
        try:
            last = readline.get_current_history_length()
            if typed and readline.get_history_item(last) == typed:  # (1-based)
                readline.replace_history_item(last - 1, entry)
            elif readline.get_history_item(last) != entry:  # (as the REPL adds a line)
                readline.add_history(entry)
            if readline.get_current_history_length() > history_lines:
                readline.remove_history_item(0)
        except Exception:  # no readline, or one without a history
            pass

    def show_as_typed(source, typed):
        """The terminal shows what the user typed, not __td(...): the
        echo of the call is replaced by the code with the REPL's prompts,
        then OSC 7703 (the engine's echo_osc) marks where the output begins,
        all in one synchronized update (mode 2026), so that the daemon never
        reads the code's continuation prompts half drawn as a question.
        Skipped when the echo or the code is taller than the screen, or when
        there is no code to show."""
        echoes[0] += 1
        mark = "\x1b]7703;%d\x07" % echoes[0]  # sent in any case: the daemon waits for it
        try:
            cols, rows = os.get_terminal_size(sys.stdout.fileno())
        except OSError:
            cols, rows = 1, 0  # no terminal: the echo stays
        cols = max(cols, 1)  # a terminal of size 0x0 (never set): the echo stays too
        echo_rows = max(1, -(-width(sys.ps1 + typed) // cols))
        if source is None or echo_rows >= rows or source.count("\n") + 1 >= rows or last_char[0] != "\n":
            sys.stdout.write(mark)
        else:
            shown = drawn(sys.ps1) + ("\n" + drawn(sys.ps2)).join(source.split("\n"))
            # Late output held so far goes above the code, out of this reply.
            sys.stdout.write("\x1b[?2026h\x1b[%dA\r\x1b[J%s%s\n%s\x1b[?2026l" % (echo_rows, late.take(), shown, mark))
        sys.stdout.flush()
        last_char[0] = "\n"  # (the mark is no output: the code's starts a row)

    def report_exit(exc):
        """sys.exit() ends the submission, as it ends a script: its status
        goes to the daemon in an OSC (the engine's exit_osc), and the
        interpreter with its variables goes on."""
        code = exc.code
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr)  # as python does for sys.exit("message")
            code = 1
        exits[0] += 1
        ended_with = last_char[0]  # (the OSC is no output: the next echo is redrawn as ever)
        sys.stdout.write("\x1b]7702;%d;%d\x07" % (exits[0], code & 0xFF))
        sys.stdout.flush()
        last_char[0] = ended_with

    def join_new_threads(before):
        """A script's end waits for its non-daemon threads: so does an ask."""
        until = threads_until[0] = time.monotonic() + drain_s
        for t in threading.enumerate():
            if t in before or t.daemon or t is threading.current_thread():
                continue
            t.join(max(0.0, until - time.monotonic()))

    def print_error(exc):
        """A traceback as a script would print it: without this file's frames."""
        tb = exc.__traceback__
        # Frames before the submission's own (this file, ast's compile).
        while tb is not None and tb.tb_frame.f_code.co_filename != "<stdin>":
            tb = tb.tb_next
        # sys.excepthook, as a script's end calls it: before 3.12 only the
        # built-in one adds "Did you mean: 'print'?" to a NameError.
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)

    def compile_expression(source):
        """An ask that is one expression (most are), compiled from the text
        in one step: going through ast objects costs the most of an ask.
        None for anything else (a leading blank too: an IndentationError in
        both modes)."""
        try:
            return compile(source, "<stdin>", "eval", dont_inherit=True)
        except SyntaxError:
            return None

    def begin():
        with late.lock:
            submissions[0] += 1
            running[0] = submissions[0]
            threads_until[0] = float("inf")

    def run(source):
        """__td(N) (prompt N from the pipe) or __td("code")."""
        begin()
        if type(source) is int:  # (not True: a bool is an int too)
            typed, number = "__td(%d)" % source, source
            source = from_pipe(number)
        else:
            typed, number = "__td(%s)" % literal(source), 0
        execute(source, typed, number)

    def execute(source, typed, number):
        """Runs a submission begun (begin) as a script would run it."""
        namespace = sys.modules["__main__"].__dict__
        if source is not None:
            keep_in_history(typed, source)
        show_as_typed(source, typed)
        if source is None:
            print("tuidriver: prompt %d never came through the pipe" % number, file=sys.stderr)
            late.ended()
            return
        before = set(threading.enumerate())
        try:
            last, value = compile_expression(source), None
            if last is None:  # statements, maybe ending in an expression
                tree = ast.parse(source, "<stdin>", "exec")
                if tree.body and isinstance(tree.body[-1], ast.Expr):
                    expression = ast.Expression(tree.body.pop().value)
                    last = compile(expression, "<stdin>", "eval", dont_inherit=True)
                exec(compile(tree, "<stdin>", "exec", dont_inherit=True), namespace)
            if last is not None:
                value = eval(last, namespace)
            join_new_threads(before)
            if last is not None:
                stdout.show_value(value)
        except SystemExit as exc:
            join_new_threads(before)
            report_exit(exc)
        except BaseException as exc:  # the REPL would print it; so do we, minus our frames
            join_new_threads(before)
            print_error(exc)
        finally:
            late.ended()

    class Prompt(str):
        """sys.ps1. The REPL takes str() of it before it reads each line:
        after an Enter typed alone (the engine's submit.enter_only), the
        prompt just piped runs then, as __td(N) would run it. Nothing is
        compiled from the typed line, and readline reads one key."""

        def __str__(self):
            if sys._getframe().f_back is not None:
                return str.__str__(self)  # not the REPL's own call: code printing sys.ps1
            try:
                got = newest_from_pipe()
                if got is not None:
                    begin()
                    execute(got[1], "", got[0])
            except KeyboardInterrupt:  # outside the code (which reports its own): as the REPL
                print("\nKeyboardInterrupt", file=sys.stderr)
                late.ended()
            except Exception as exc:  # a pipe that lost its place: start afresh
                piped.clear()
                print("tuidriver: the prompt pipe: %r" % exc, file=sys.stderr)
                late.ended()
            return str.__str__(self)

    mark = "\001\x1b]7704;%s\x07\002" % token
    sys.ps1 = Prompt(mark + ">>> ")
    sys.ps2 = mark + "... "
    builtins.__td = run


_setup(sys.argv[1] if len(sys.argv) > 1 else "td")
sys.__interactivehook__ = _interactive_hook
sys.argv = [""]
del _setup, _interactive_hook, unbuffered_output, builtins, sys, __file__
