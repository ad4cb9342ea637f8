#!/usr/bin/env python3
"""A scripted stand-in for Claude Code's TUI, as far as engines/claude.json reads it: the
input box between two rules with its `❯ ` prompt, the terminal probe (DA1) before it
listens, a spinner with "esc to interrupt" while it works, and each answer marked with
$FAKE_CLAUDE_MARKER (`⏺`, the marker of older Claude Code versions, unless set).

It answers
    env     the names of the CLAUDE* variables it was started with ("none")
    args    its arguments, without --session-id and its value, one per line
    other   "You said: PROMPT", the prompt's later lines indented below
Ctrl-C quits."""
import os
import sys
import termios
import time
import tty

MARKER = os.environ.get("FAKE_CLAUDE_MARKER", "\u23fa")
RULE = "\u2500" * 40
out = sys.stdout


def write(s):
    out.write(s)
    out.flush()


def read_byte():
    b = os.read(0, 1)
    if not b:
        sys.exit(0)
    return b


def probe_terminal():
    """Claude draws its prompt, then asks for the device attributes; tuidriver waits for that."""
    write("\x1b[c")
    reply = b""
    while not reply.endswith(b"c"):
        reply += read_byte()


def read_prompt():
    """Bytes up to Enter (CR), without the bracketed-paste marks; then its echo."""
    buf = b""
    while not buf.endswith(b"\r"):
        buf += read_byte()
        if buf.endswith(b"\x03"):
            sys.exit(0)
    text = buf[:-1].replace(b"\x1b[200~", b"").replace(b"\x1b[201~", b"").decode("utf-8", "replace")
    # The input box shows a multi-line prompt's later lines indented.
    write(text.replace("\n", "\r\n  "))
    return text


def answer(prompt):
    if prompt == "env":
        names = sorted(k for k in os.environ if k.startswith("CLAUDE"))
        return ", ".join(names) if names else "none"
    if prompt == "args":
        args, skip = [], False
        for a in sys.argv[1:]:
            if skip:
                skip = False
            elif a == "--session-id":
                skip = True
            else:
                args.append(a)
        return "\n".join(args) if args else "no arguments"
    return "You said: " + prompt


def main():
    old = termios.tcgetattr(0)
    tty.setraw(0)
    try:
        write("\x1b[?2004h Fake Claude Code\r\n\r\n")
        probe_terminal()
        while True:
            write(RULE + "\r\n\u276f ")
            prompt = read_prompt()
            write("\r\n\r\n\u2733 Pondering\u2026 (esc to interrupt)")
            time.sleep(0.3)
            rows = answer(prompt).split("\n")
            write("\r\x1b[K" + MARKER + " " + rows[0] + "\r\n")
            for r in rows[1:]:
                write("  " + r + "\r\n")
            write("\r\n")
    finally:
        termios.tcsetattr(0, termios.TCSADRAIN, old)


main()
