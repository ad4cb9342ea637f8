"""A toy TUI that asks questions inside a turn, for the on_input tests
(tests/integration/test_turn_input.py and the TypeScript shim's tests).

`deploy` asks "Proceed to production?" with three choices (arrows move the
highlight, Enter takes it); `deploy slowly` draws the choices half a second
after the question (a frame cut in two on a loaded machine); `release` asks
it, then "Notify the team?" as soon as it is answered; `name` asks for free
text. Like a TUI's dialog, the question goes away once answered; the
answer is printed, then the prompt again.
"""
import os, sys, termios, time, tty
def out(s):
    sys.stdout.write(s); sys.stdout.flush()
def key():
    b = os.read(0, 1)
    if b == b"\x1b":
        b += os.read(0, 2)
    return b
def choose(labels, pause=0):
    sel = 0
    time.sleep(pause)
    while True:
        # The list in one write, as a TUI draws a frame (row by row, a loaded
        # machine could show the question with its first choice alone).
        out("".join(("\u276f " if i == sel else "  ") + "%d. %s\r\n" % (i + 1, l) for i, l in enumerate(labels)))
        k = key()
        out("\x1b[%dA\r\x1b[J" % len(labels))
        if k == b"\x1b[B": sel = min(sel + 1, len(labels) - 1)
        elif k == b"\x1b[A": sel = max(sel - 1, 0)
        elif k in (b"\r", b"\n"): return labels[sel]
fd = sys.stdin.fileno()
cooked = termios.tcgetattr(fd)
while True:
    out("$ ")
    line = sys.stdin.readline()
    if not line:
        break
    cmd = line.strip()
    tty.setraw(fd)
    if cmd in ("deploy", "deploy slowly"):
        out("\x1b7Proceed to production?\r\n")
        answer = choose(["Yes", "Yes, and do not ask again", "No"], 0.5 if cmd == "deploy slowly" else 0)
        out("\x1b8\x1b[Jchose %s\r\n" % answer)
    elif cmd == "release":  # two questions, the second right after the first
        out("\x1b7Proceed to production?\r\n")
        deployed = choose(["Yes", "No"])
        out("\x1b8\x1b[J\x1b7Notify the team?\r\n")
        notified = choose(["Yes", "No"])
        out("\x1b8\x1b[Jdeployed: %s, notified: %s\r\n" % (deployed, notified))
    elif cmd == "name":
        out("\x1b7Your name?\r\n> ")
        name = b""
        while True:
            k = key()
            if k in (b"\r", b"\n"): break
            name += k
        out("\x1b8\x1b[Jhello %s\r\n" % name.decode())
    termios.tcsetattr(fd, termios.TCSANOW, cooked)
