"""A program that prints hostile output, for test_hostile_output.py.

Usage: hostile_child.py CASE. It waits for one line on stdin (so the test
can subscribe first), writes the case's bytes to the terminal, prints
END-OF-CASE on a fresh, reset terminal, and then waits for stdin to close.
"""
import os
import random
import select
import sys
import termios
import time
import tty

ESC = b"\x1b"
# Leaves any string or sequence the case left open, and resets the terminal.
RESET = ESC + b"\\" + b"\x18" + ESC + b"c"


def out(data):
    view = memoryview(data)
    while view:
        n = os.write(1, view)
        view = view[n:]


RANDOM = random.Random(6).randbytes(1 << 20)


def random_bytes():
    # No echo: the emulator's answers to queries hidden in the noise would
    # otherwise be echoed at unpredictable points of the output.
    attrs = termios.tcgetattr(0)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(0, termios.TCSANOW, attrs)
    out(RANDOM)


TRUNCATABLE = [
    ESC + b"[38;2;255;0;0m", ESC + b"[?1049h", ESC + b"]0;title" + b"\x07",
    ESC + b"]8;;http://x" + ESC + b"\\", ESC + b"P+q544e" + ESC + b"\\", ESC + b"[6n",
    ESC + b"[1;3r", ESC + b"(0", ESC + b"[?2004h", ESC + b"[s", ESC + b"[>c",
    ESC + b"[" + b"9" * 40 + b"H", b"\xf0\x9f\x9a\x80", b"\xe4\xb8\x96",
    # Over 16 arguments (libvterm 0.1.4, used before, wrote past its array).
    ESC + b"[" + b"1;" * 40 + b"m", ESC + b"[?" + b"1:" * 40 + b"h",
]


def truncated_escapes():
    # Every prefix of every sequence, followed by text and by another escape.
    for seq in TRUNCATABLE:
        for k in range(1, len(seq)):
            out(seq[:k] + b"txt" + ESC + b"[0m\r\n")


def huge_osc_title():
    out(ESC + b"]0;" + b"T" * (8 << 20) + b"\x07")
    out(ESC + b"]2;" + b"\xff\xfeU" * 1000 + ESC + b"\\")


def megabyte_line():
    out(b"y" * 1000000)
    out(b"\r\n")


SPLIT_TEXT = "h\u00e9llo \u4e16 \U0001F680 e\u0301 \u00ff".encode()
INVALID = b"A\xff\xfeB\xc3(C\xe2\x82D\xed\xa0\x80E\xf8\x88\x80\x80\x80F\xc0\xafG\xf4\x90\x80\x80H"


def utf8():
    # One byte per write, so the reads that carry them split characters.
    for b in SPLIT_TEXT:
        out(bytes([b]))
        time.sleep(0.001)
    out(b"\r\n")
    for b in INVALID:
        out(bytes([b]))
    out(b"\r\n" + INVALID[::-1] + b"\r\n")


def alt_screen():
    out(b"main-1\r\nmain-2\r\n")
    for i in range(300):
        mode = (b"1049", b"47", b"1047")[i % 3]
        out(ESC + b"[?" + mode + b"h" + ESC + b"[2J" + ESC + b"[HALT-%d\r\n" % i + b"alt\r\n" * 50)
        out(ESC + b"[?" + mode + b"l")
    out(b"main-3\r\n")


def queries():
    # Raw mode, so the replies arrive at once and are not echoed.
    fd = 0
    old = termios.tcgetattr(fd)
    tty.setraw(fd)
    out(ESC + b"[5n" + ESC + b"[6n" + ESC + b"[c" + ESC + b"[>c")
    got = b""
    deadline = time.monotonic() + 20
    while got.count(b"n") < 1 or got.count(b"R") < 1 or got.count(b"c") < 2:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        got += os.read(fd, 1024)
    termios.tcsetattr(fd, termios.TCSADRAIN, old)
    out(b"REPLIES:" + got.hex().encode() + b"\r\n")


CASES = {f.__name__: f for f in (random_bytes, truncated_escapes, huge_osc_title, megabyte_line,
                                 utf8, alt_screen, queries)}

if __name__ == "__main__":
    case = sys.argv[1]
    sys.stdin.buffer.readline()
    CASES[case]()
    if case not in ("alt_screen", "utf8", "megabyte_line", "queries"):
        out(RESET)
    out(b"END-OF-CASE\r\n")
    sys.stdin.buffer.read()
