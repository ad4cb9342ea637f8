"""Resizes during output against the reference: tmux reflows the same bytes.

Each case is a list of output chunks and the sizes to change to between
them. A small program writes a chunk, shows a title, and waits for the
SIGWINCH of the next resize before writing the next chunk, so tmux and
tuidriver see every resize at the same point of the stream. At the end the
screens, the cursors and the whole history (tmux's capture-pane -S -,
tuidriver's scrollback) must be identical: text is re-wrapped, never cut.
"""
import os
import sys
import tempfile
import unittest

from tmux import ReferenceTmux
from tuiclient import Daemon

ESC = "\x1b"
CSI = ESC + "["
START = (80, 10)

# Writes chunk files one by one; before each resize it shows title STEPn and
# waits for SIGWINCH (blocked first, so one that comes early is not lost).
PROGRAM = r"""
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGWINCH})
chunks = sys.argv[1:]
for i, path in enumerate(chunks):
    with open(path, "rb") as f:
        os.write(1, f.read())
    title = "DONE" if i == len(chunks) - 1 else "STEP%d" % i
    os.write(1, b"\x1b]2;" + title.encode() + b"\x07")
    if title != "DONE":
        signal.sigwait({signal.SIGWINCH})
signal.pause()
"""


def numbered(first, last, width=0, prefix="line"):
    out = ""
    for i in range(first, last):
        text = "%s%d " % (prefix, i)
        out += (text + "".join(chr(ord("a") + (i + k) % 26) for k in range(max(0, width - len(text))))) + "\r\n"
    return out


WIDE = "\u4e2d\u6587\u65e5\u672c\u8a9e"  # five wide characters

CASES = {
    # The case: 66-column lines, narrowed during the second, widened back.
    "narrow_then_wide": ([numbered(1, 2, 66) + "line2 " + "x" * 20,
                          "y" * 40 + "\r\n" + numbered(3, 5, 66),
                          "ok"], [(30, 10), (120, 10)]),
    "wider_then_narrower": ([numbered(0, 6, 100), numbered(6, 9, 70) + "tail",
                             " more text"], [(120, 10), (33, 10)]),
    "wide_characters_at_the_wrap_point": (
        ["a" + WIDE * 10 + "\r\n" + "bb" + WIDE * 9 + "\r\n" + WIDE * 7 + "z",
         "\r\n" + WIDE * 3, "!"], [(41, 10), (19, 10)]),
    "shorter_then_taller": ([numbered(0, 14, 30), numbered(14, 18, 90), "end"],
                            [(80, 5), (50, 14)]),
    "cursor_inside_a_wrapped_line": (
        ["0123456789" * 15 + "\r" + CSI + "35C", "X", CSI + "50CY"], [(47, 10), (100, 10)]),
    "cursor_below_the_text": (["some text\r\n\r\n\r\n" + CSI + "12C", "here"], [(20, 10)]),
    "many_resizes_mid_line": (["first " + "w" * 50, "v" * 30, "u" * 30, "t" * 10 + "\r\nnext"],
                              [(50, 8), (23, 12), (90, 6)]),
    "combining_and_joined_at_the_wrap_point": (
        [("e\u0301" * 39 + "\U0001f468\u200d\U0001f469" + "x\u0308" * 10 + "\r\n") * 2, "mid", "end"],
        [(21, 10), (60, 10)]),
    "trailing_spaces_of_a_wrapped_line": (["word " * 40, " tail", "\r\n" + "pad   " * 20],
                                          [(37, 10), (80, 10)]),
    "history_beyond_the_screen": ([numbered(0, 40, 70), numbered(40, 45, 10), "x"],
                                  [(35, 10), (120, 10)]),
    "alternate_screen_during_resize": (
        [numbered(0, 5, 70) + CSI + "?1049h" + "in alt", "still alt", CSI + "?1049lback"],
        [(30, 10), (45, 10)]),
}


def write_chunks(tmp, name, chunks):
    paths = []
    for i, text in enumerate(chunks):
        paths.append(os.path.join(tmp, "%s.%d" % (name, i)))
        with open(paths[-1], "wb") as f:
            f.write(text.encode("utf-8"))
    return paths


def command(program, paths):
    return " ".join([sys.executable, program] + paths)


def run_tmux(tmp, program, name, paths, sizes):
    with ReferenceTmux(tmp, *START, command=command(program, paths), socket="tmux-%s.sock" % name) as tmux:
        for i, (cols, rows) in enumerate(sizes):
            tmux.wait_title("STEP%d" % i)
            tmux.resize(cols, rows)
        tmux.wait_title("DONE")
        out = tmux.display("#{cursor_y} #{cursor_x} #{pane_width}x#{pane_height}")
        assert out[2] == "%dx%d" % sizes[-1], out
        screen = tmux.capture()[:sizes[-1][1]]
        everything = tmux.capture(history=True)
        return ([l.rstrip(" ") for l in screen], (int(out[0]), int(out[1])),
                trimmed([l.rstrip(" ") for l in everything]))


def trimmed(lines):
    while lines and lines[-1] == "":
        lines = lines[:-1]
    return lines


def run_tuidriver(program, paths, sizes):
    with Daemon("--cols", str(START[0]), "--rows", str(START[1]), "--",
                *command(program, paths).split(" ")) as d:
        for i, (cols, rows) in enumerate(sizes):
            d.wait_screen(lambda s, i=i: s["title"] == "STEP%d" % i, 10)
            assert d.request("resize", cols=cols, rows=rows)["ok"]
        s = d.wait_screen(lambda s: s["title"] == "DONE", 10)
        history = d.request("scrollback")["lines"]
        return (s["lines"], (s["cursor"]["row"], s["cursor"]["col"]),
                trimmed([l.rstrip(" ") for l in history]))


class ResizeMatchesTmux(unittest.TestCase):
    def test_cases(self):
        tmp = tempfile.mkdtemp()
        program = os.path.join(tmp, "chunks.py")
        with open(program, "w") as f:
            f.write(PROGRAM)
        for name, (chunks, sizes) in CASES.items():
            with self.subTest(name):
                paths = write_chunks(tmp, name, chunks)
                expected = run_tmux(tmp, program, name, paths, sizes)
                got = run_tuidriver(program, paths, sizes)
                self.assertEqual(got[0], expected[0], "screen lines")
                self.assertEqual(got[1], expected[1], "cursor (row, col)")
                self.assertEqual(got[2], expected[2], "history and screen")


if __name__ == "__main__":
    unittest.main()
