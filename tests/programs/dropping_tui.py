"""A toy agent TUI that drops the first Enter after every paste, as Gemini
was seen doing under load (it took the Enter as part of the paste). Used by
test_submit.py for submit.resubmit_ms.

Empty, its input box reads "> Type here"; a pasted prompt shows in it; an
Enter that counts answers "● you said: PROMPT" and empties the box."""
import os
import sys
import tty

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"


def out(s):
    sys.stdout.write(s)
    sys.stdout.flush()


def draw(text):
    out("\r\x1b[K> " + (text if text else "Type here"))


tty.setraw(0)
out("\x1b[?2004h")
text, drop_enter, pending = "", False, b""
draw(text)
while True:
    data = os.read(0, 4096)
    if not data:
        break
    pending += data
    while pending:
        if pending.startswith(PASTE_START):
            end = pending.find(PASTE_END)
            if end < 0:
                break  # the rest of the paste is still coming
            text += pending[len(PASTE_START):end].decode()
            pending = pending[end + len(PASTE_END):]
            drop_enter = True
            draw(text)
            continue
        c, pending = pending[:1], pending[1:]
        if c == b"\r":
            if drop_enter:
                drop_enter = False
            elif text:
                out("\r\n\u25cf you said: %s\r\n" % text)
                text = ""
                draw(text)
        elif c in (b"\x03", b"\x04"):
            sys.exit(0)
