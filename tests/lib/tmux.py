"""tmux as the reference terminal for the vs-tmux tests.

A server of its own (its own socket, no configuration, no status line),
one window per case; a case's program sets its title once every byte before
it was written, and the test reads the pane back with `display` and
`capture-pane`. The vs-tmux tests compare with one tmux, the version the
reference screens of tests/ref/ were made with: ReferenceTmux refuses any
other (another version renders some cases differently, so a test against it
would fail, or pass, for the wrong reason).
"""
import os
import subprocess
import time

# Debian bookworm's tmux: what the vs-tmux tests and tests/ref/ compare with.
REFERENCE_VERSION = "tmux 3.3a"


def version(env=None):
    """What `tmux -V` says; "" when there is no tmux on PATH."""
    try:
        return subprocess.run(["tmux", "-V"], capture_output=True, text=True, env=env).stdout.strip()
    except FileNotFoundError:
        return ""


def require_reference(env=None):
    """Raises unless the tmux on PATH is REFERENCE_VERSION, naming the one found."""
    found = version(env)
    if found != REFERENCE_VERSION:
        raise RuntimeError("the vs-tmux tests compare with %s (tests/ref/ pins it); the tmux on PATH is %s. "
                           "Install %s (Debian bookworm's)." % (REFERENCE_VERSION, repr(found) if found else "missing",
                                                                REFERENCE_VERSION))


class Tmux:
    """One tmux server of cols x rows running `command` in window 0."""

    def __init__(self, socket_dir, cols, rows, command="sleep 60", socket="tmux.sock"):
        self.argv = ["tmux", "-S", os.path.join(socket_dir, socket), "-f", "/dev/null"]
        self.env = {**os.environ, "TMUX": ""}  # inside a tmux, still a server of our own
        self.run("new-session", "-d", "-x", cols, "-y", rows, command,
                 ";", "set", "-g", "status", "off",
                 ";", "set", "-g", "default-size", "%dx%d" % (cols, rows))

    def run(self, *args):
        """One tmux command; returns its stdout."""
        return subprocess.run(self.argv + [str(a) for a in args], capture_output=True, text=True,
                              check=True, env=self.env).stdout

    def new_window(self, index, command):
        self.run("new-window", "-d", "-t", ":%d" % index, command)

    def display(self, fmt, target=None):
        """`fmt` with the pane's #{...} variables filled in, split at blanks."""
        return self.run("display", "-p", *self._target(target), fmt).split()

    def wait_title(self, title, target=None, timeout=10):
        """Waits until the pane's title is `title`: every byte the program wrote
        before setting it has been rendered."""
        deadline = time.monotonic() + timeout
        while self.run("display", "-p", *self._target(target), "#{pane_title}").strip() != title:
            if time.monotonic() > deadline:
                raise TimeoutError("tmux never showed the title %s in %s" % (title, target or "its pane"))
            time.sleep(0.01)

    def capture(self, target=None, styles=False, history=False):
        """The pane's lines (trailing blanks as tmux leaves them); `styles`: with
        SGR codes (-e); `history`: the scrollback too (-S -)."""
        args = ["capture-pane", "-p", *self._target(target)]
        if styles:
            args.append("-e")
        if history:
            args += ["-S", "-"]
        return self.run(*args).split("\n")

    def resize(self, cols, rows):
        self.run("resize-window", "-x", cols, "-y", rows)

    def kill(self):
        subprocess.run(self.argv + ["kill-server"], capture_output=True, env=self.env)

    def _target(self, target):
        return ["-t", target] if target else []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()


class ReferenceTmux(Tmux):
    """A Tmux that is the reference version, or raises (require_reference)."""

    def __init__(self, *args, **kwargs):
        require_reference()
        super().__init__(*args, **kwargs)
