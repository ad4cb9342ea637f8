"""Start-up code of tuidriver's python engine (python3 -i python_repl.py TOKEN).

The interactive interpreter stays the standard one (readline, history,
tracebacks), with two additions:

- Prompts carry TOKEN, a string unique to the session, so that no program
  output can look like the prompt (output with no final newline ends on the
  prompt's row: the daemon takes it from there).
- __td_run(source) runs a whole submission the way a script runs it (blank
  lines inside blocks, dedents back to top level, decorators,
  `if __name__ == "__main__":`), then shows the value of a final bare
  expression the way the prompt does (nothing for None). The engine submits
  every ask as one line, `__td_run("...")`, with the source as a string
  literal: no block needs closing, no TAB reaches readline's completion.
"""
import builtins
import sys


def _setup(token):
    # Everything lives in this closure: the user's namespace (__main__)
    # keeps only what an interactive interpreter has.
    import ast
    import sys
    import traceback

    def print_error(exc):
        """A traceback as a script would print it: without this file's frames."""
        tb = exc.__traceback__
        # Frames before the submission's own (this file, ast's compile).
        while tb is not None and tb.tb_frame.f_code.co_filename != "<tuidriver>":
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)

    def run(source):
        namespace = sys.modules["__main__"].__dict__
        try:
            tree = ast.parse(source, "<tuidriver>", "exec")
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, "<tuidriver>", "exec", dont_inherit=True), namespace)
            if last is not None:
                sys.displayhook(eval(compile(last, "<tuidriver>", "eval", dont_inherit=True), namespace))
        except SystemExit:
            raise
        except BaseException as exc:  # the REPL would print it; so do we, minus our frames
            print_error(exc)

    sys.ps1 = "td-%s>>> " % token
    sys.ps2 = "td-%s... " % token
    builtins.__td_run = run


_setup(sys.argv[1] if len(sys.argv) > 1 else "td")
sys.argv = [""]
del _setup, builtins, sys, __file__
