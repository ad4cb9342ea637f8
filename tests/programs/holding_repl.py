"""A toy line REPL that holds an interrupt at its continuation prompt until
the next line arrives, and shows no "^C" for it: what bash was seen doing
when its interrupt landed just as it printed PS2. The test of the resync
after needs_input uses it (test_repl_snippets.py).

`echo WORDS` prints WORDS; a line with an odd number of double quotes goes
on at the continuation prompt until the quotes pair up."""
import signal
import sys
import termios

held = False


def hold(signum, frame):
    global held
    held = True


signal.signal(signal.SIGINT, hold)
fd = sys.stdin.fileno()
mode = termios.tcgetattr(fd)
mode[3] &= ~termios.ECHOCTL  # no "^C" echoed by the terminal: no visible reaction
termios.tcsetattr(fd, termios.TCSANOW, mode)
pending = []
while True:
    sys.stdout.write("toy... " if pending else "toy> ")
    sys.stdout.flush()
    line = sys.stdin.readline()  # a handled signal does not end the read (PEP 475)
    if not line:
        break
    if held:
        held = False
        pending = []
        print("interrupted")
        continue
    pending.append(line.rstrip("\n"))
    text = "\n".join(pending)
    if text.count('"') % 2:
        continue
    pending = []
    if text.startswith("echo "):
        print(text[5:].replace('"', ""))
