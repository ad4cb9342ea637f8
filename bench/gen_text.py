#!/usr/bin/env python3
"""Writes the benchmark's mixed terminal text: what a busy build, a log tail or an
agent transcript looks like to a terminal emulator.

Lines of varying length (some wrap past 120 columns), SGR colours (16-colour,
256-colour, truecolour, bold/underline/reverse, resets), tabs, and UTF-8 text
(accents, box drawing, CJK and emoji that take two columns). The output is
deterministic for a given size, and ends with `END_MARKER` on a line of its own so
a reader can tell that everything arrived.

Usage: gen_text.py OUT_FILE --mb 100      (about 100 MB)
       gen_text.py OUT_FILE --lines 100000
"""
import argparse
import random

END_MARKER = "TUIDRIVER-BENCH-END-7f3a9c"

WORDS = (
    "build compile link error warning note src daemon terminal render screen "
    "scroll ring buffer cursor utf8 naïve café Ærøskøbing façade über Straße "
    "λ→μ ≥ ≤ ∑ ✓ ✗ — “quoted” 漢字 テスト 한국어 🚀 ✨ 📦 ok FAILED passed"
).split()

SGR = [
    "\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[4m", "\x1b[7m", "\x1b[31m", "\x1b[32m",
    "\x1b[33m", "\x1b[34m", "\x1b[1;36m", "\x1b[90m", "\x1b[38;5;208m",
    "\x1b[48;5;236m", "\x1b[38;2;255;128;0m", "\x1b[48;2;20;30;40m", "\x1b[22;24;27m",
]


def make_line(rng, n):
    """One line: a numbered prefix, words with colour changes, sometimes a tab,
    sometimes long enough to wrap."""
    kind = rng.random()
    target = rng.randint(5, 110) if kind < 0.9 else rng.randint(130, 320)
    parts = [f"\x1b[90m{n:8d}\x1b[0m "]
    width = 9
    while width < target:
        if rng.random() < 0.25:
            parts.append(rng.choice(SGR))
        if rng.random() < 0.03:
            parts.append("\t")
            width += 8
        w = rng.choice(WORDS)
        parts.append(w + " ")
        width += len(w) + 1
    parts.append("\x1b[0m")
    if rng.random() < 0.02:  # progress-bar style redraw of the same row
        parts.append("\r\x1b[K" + "█" * rng.randint(1, 60))
    return "".join(parts) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=0)
    ap.add_argument("--lines", type=int, default=0)
    a = ap.parse_args()
    rng = random.Random(42)
    # A pool of distinct lines, cycled with fresh numbers: fast to write, and the
    # emulator still sees varied content.
    pool = [make_line(rng, 0)[len("\x1b[90m       0\x1b[0m "):] for _ in range(4000)]
    limit_bytes = int(a.mb * 1_000_000)
    out = []
    size = 0
    n = 0
    with open(a.out, "wb") as f:
        while (a.lines and n < a.lines) or (limit_bytes and size < limit_bytes):
            b = (f"\x1b[90m{n:8d}\x1b[0m " + pool[n % len(pool)]).encode()
            out.append(b)
            size += len(b)
            n += 1
            if len(out) >= 4096:
                f.write(b"".join(out))
                out.clear()
        out.append(("\x1b[0m" + END_MARKER + "\n").encode())
        f.write(b"".join(out))


if __name__ == "__main__":
    main()
