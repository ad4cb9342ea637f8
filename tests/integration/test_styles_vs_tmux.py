"""Styled screens against the reference: tmux's capture-pane -e.

Each case is an SGR-heavy byte string that `cat` writes to a 40x10 terminal,
inside tmux and inside tuidriver. After it, a '|' with default attributes
goes to the last column of every row, so that tmux's capture shows every
cell of the row (it leaves out trailing blanks, coloured or not). Then the
runs of `screen {"styles":true}` must equal the cells' attributes as tmux
reports them, and `lines` must be what the same screen gives without styles.
"""
import os
import tempfile
import unicodedata
import unittest

from tmux import ReferenceTmux
from tuiclient import Daemon

COLS, ROWS = 40, 10
ESC = "\x1b"
CSI = ESC + "["
ATTRS = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 5: "blink", 7: "reverse", 8: "invisible",
         9: "strike"}


def sgr(*codes):
    return CSI + ";".join(str(c) for c in codes) + "m"


CASES = {
    "sixteen_colours": "".join(sgr(30 + i, 47 - i) + "f%d" % i for i in range(8)) + sgr(0) + "\r\n"
    + "".join(sgr(90 + i, 107 - i) + "b%d" % i for i in range(8)) + sgr() + " plain",
    "palette_256": "".join(sgr(38, 5, n) + "x" + sgr(48, 5, 255 - n) + "y" for n in (0, 7, 8, 15, 16, 100, 231, 255))
    + CSI + "38:5:196mcolon" + CSI + "48:5:21mboth" + sgr(0),
    "true_colour": sgr(38, 2, 255, 128, 0) + "orange" + sgr(48, 2, 0, 0, 80) + "on navy" + sgr(39) + "fg reset"
    + sgr(49) + " bg reset\r\n" + CSI + "38:2::10:20:30mcs" + CSI + "38:2:40:50:60mnocs" + CSI + "48:2::1:2:3mbg"
    + sgr(0) + " " + sgr(38, 2, 300, 1, 1) + "bad",
    "attributes_and_partial_resets": sgr(1) + "B" + sgr(2) + "D" + sgr(3) + "I" + sgr(4) + "U" + sgr(5) + "K"
    + sgr(7) + "R" + sgr(8) + "H" + sgr(9) + "S" + sgr(22) + "b" + sgr(23) + "i" + sgr(24) + "u" + sgr(25) + "k"
    + sgr(27) + "r" + sgr(28) + "h" + sgr(29) + "s\r\n" + sgr(1, 31, 44) + "all" + sgr(0) + "none"
    + sgr(1, 4, 7, 32) + "mix" + CSI + "m" + "empty" + sgr(1, 2) + "bd" + sgr(22) + "x",
    "underline_styles": CSI + "4:3mcurly" + CSI + "4:0moff" + sgr(21) + "double" + sgr(24) + "none",
    "bce_erase_in_line_and_display": "abcdef\r\n" * 3 + sgr(44) + CSI + "1;3H" + CSI + "K" + CSI + "2;3H"
    + CSI + "1K" + CSI + "3;4H" + CSI + "2X" + sgr(0) + CSI + "5;1H" + sgr(41) + CSI + "J" + sgr(0),
    "bce_insert_delete": "0123456789\r\n" * 4 + sgr(42) + CSI + "1;3H" + CSI + "2@" + CSI + "2;3H"
    + CSI + "3P" + CSI + "3;1H" + CSI + "L" + CSI + "M" + sgr(0),
    "bce_scrolling": sgr(45) + "".join("row%d\r\n" % i for i in range(12)) + sgr(46) + CSI + "2S" + sgr(43)
    + CSI + "T" + sgr(0) + CSI + "10;1H" + sgr(44) + "x" * 45 + sgr(0),
    "styles_across_scroll": "".join(sgr(31 + i % 7) + "line %d" % i + sgr(0) + "\r\n" for i in range(14)),
    "wide_and_combining_styled": sgr(1, 35) + "\u4e2d\u6587" + sgr(0) + "e" + sgr(4) + "\u0301x"
    + sgr(7) + "\u65e5" + sgr(0),
    "reverse_line_and_save_restore": sgr(7) + "selected item" + CSI + "K" + sgr(0) + "\r\n" + sgr(32)
    + ESC + "7" + sgr(0) + "x" + ESC + "8" + "green again" + sgr(0),
    "invisible_text": sgr(8) + "secret" + sgr(28) + "shown",
}


def with_markers(text):
    return text + "".join(CSI + "%d;%dH" % (r + 1, COLS) + sgr(0) + "|" for r in range(ROWS))


def command(path):
    return "cat %s; printf '\\033]2;DONE\\007'; exec sleep 3600" % path


def width(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def apply_sgr(style, params):
    """tmux's capture-pane -e codes onto a style dict (fg, bg, attribute names)."""
    i = 0
    while i < len(params):
        p = params[i]
        head = int(p.split(":")[0] or 0)
        if head == 0:
            style.clear()
        elif head == 4 and ":" in p:
            if p.split(":")[1] == "0":
                style.pop("underline", None)
            else:
                style["underline"] = True
        elif head in ATTRS:
            style[ATTRS[head]] = True
        elif head == 21:
            style["underline"] = True
        elif head == 22:
            style.pop("bold", None)
            style.pop("dim", None)
        elif head in (23, 24, 25, 27, 28, 29):
            style.pop(ATTRS[head - 20], None)
        elif 30 <= head <= 37 or 90 <= head <= 97:
            style["fg"] = head - 30 if head < 90 else head - 90 + 8
        elif 40 <= head <= 47 or 100 <= head <= 107:
            style["bg"] = head - 40 if head < 100 else head - 100 + 8
        elif head in (39, 49):
            style.pop("fg" if head == 39 else "bg", None)
        elif head in (38, 48):
            key = "fg" if head == 38 else "bg"
            if params[i + 1] == "5":
                style[key] = int(params[i + 2])
                i += 2
            else:
                style[key] = "#%02x%02x%02x" % tuple(int(v) for v in params[i + 2:i + 5])
                i += 4
        i += 1


def runs_from_capture(line, style):
    """The styled runs of one captured row; `style` carries on to the next row."""
    cells = []
    i = 0
    while i < len(line):
        if line.startswith(CSI, i):
            end = i + 2
            while not line[end].isalpha():
                end += 1
            assert line[end] == "m", line
            apply_sgr(style, line[i + 2:end].split(";") if end > i + 2 else ["0"])
            i = end + 1
            continue
        w = width(line[i])
        if w > 0:
            cells.extend([dict(style)] * w)
        i += 1
    runs = []
    for col, s in enumerate(cells):
        if not s:
            continue
        if runs and runs[-1]["col"] + runs[-1]["len"] == col and runs[-1]["style"] == s:
            runs[-1]["len"] += 1
        else:
            runs.append({"col": col, "len": 1, "style": s})
    return [dict(r["style"], col=r["col"], len=r["len"]) for r in runs]


def run_tmux(paths, tmp):
    with ReferenceTmux(tmp, COLS, ROWS) as tmux:
        for i, path in enumerate(paths):
            tmux.new_window(i + 1, command(path))
        results = []
        for i in range(len(paths)):
            target = ":%d" % (i + 1)
            tmux.wait_title("DONE", target)
            style = {}
            results.append([runs_from_capture(l, style) for l in tmux.capture(target, styles=True)[:ROWS]])
        return results


class StylesMatchTmux(unittest.TestCase):
    def test_cases(self):
        tmp = tempfile.mkdtemp()
        paths = []
        for name, text in CASES.items():
            paths.append(os.path.join(tmp, name))
            with open(paths[-1], "wb") as f:
                f.write(with_markers(text).encode("utf-8"))
        expected = dict(zip(CASES, run_tmux(paths, tmp)))
        for name, path in zip(CASES, paths):
            with self.subTest(name):
                with Daemon("--cols", str(COLS), "--rows", str(ROWS), "--", "sh", "-c", command(path)) as d:
                    d.wait_screen(lambda s: s["title"] == "DONE", 10)
                    plain = d.request("screen")
                    styled = d.request("screen", styles=True)
                self.assertEqual(len(styled["styles"]), ROWS)
                self.assertEqual(styled["styles"], expected[name])
                self.assertEqual({k: v for k, v in styled.items() if k not in ("styles", "id")},
                                 {k: v for k, v in plain.items() if k != "id"})

    def test_without_styles_the_reply_is_unchanged(self):
        # The exact bytes of a reply without "styles" (as before styles existed).
        with Daemon("--cols", "12", "--rows", "2", "--", "sh", "-c",
                    "printf '\\033[1;31mred\\033[0m'; exec sleep 60") as d:
            d.wait_screen(lambda s: s["lines"][0] == "red", 10)
            d.send({"id": 5, "type": "screen"})
            raw = b""
            while b"\n" not in d.buf:
                d.buf += os.read(d.proc.stdout.fileno(), 65536)
            raw, d.buf = d.buf.split(b"\n", 1)
        self.assertEqual(raw, b'{"id":5,"type":"reply","ok":true,"lines":["red",""],'
                              b'"cursor":{"row":0,"col":3,"visible":true},"cols":12,"rows":2,'
                              b'"alt_screen":false,"title":""}')


if __name__ == "__main__":
    unittest.main()
