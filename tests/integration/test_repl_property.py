"""Property: whatever the timing, an ask's reply holds exactly what its own
code prints when run as a script, never another ask's output or the
engine's wrappers.

Random programs mix output printed at once with output from microtasks,
nextTick and timers (node), and from threads (python, whose
script end waits for them). Each is asked, one after another in one
session, and run as a script; the reply must equal the script's output.

Some also print late: from a timer or thread due after the helper's wait
(set short here, $TUIDRIVER_REPL_WAIT_MS), so that it lands while the
prompt shows or while a later ask runs. A script prints it last; the reply
must equal the script's output without it, and it must reach the `output`
events all the same (delivered, not dropped). All along, a ticker started
by the first ask (an interval, a daemon thread) prints late output too.

It runs beside a CPU hog (a busy loop per core, tests/lib/cpu_hog.py): on a
loaded machine the daemon reads the screen late, after the prompt and what
came after it, and whose output a line is must not depend on that.

The count (split between node and python) is the first argument or
$TUIDRIVER_PROPERTY_COUNT; 200 by default (about 3 minutes beside the hog); ctest runs
the full 1,000 (about 10 minutes, CMakeLists.txt), 200 under the sanitizers. The seed is
$TUIDRIVER_PROPERTY_SEED (printed on failure)."""
import os
import random
import subprocess
import sys
import tempfile
import time
import unittest
from concurrent.futures import ThreadPoolExecutor

from cpu_hog import CpuHog
from tuiclient import Daemon

COUNT = int(os.environ.get("TUIDRIVER_PROPERTY_COUNT", "200"))
WAIT_MS = 1000  # the helpers' wait for pending output, shortened (default 5 s)
LATE = "LATE"  # late lines print "LATE <number>", a text their source lacks
SEED = int(os.environ.get("TUIDRIVER_PROPERTY_SEED", str(random.randrange(1 << 30))))


def late_delay(rng):
    """A delay past the helper's wait: the output comes after the ask ended.
    Half a second past it at least: a loaded machine may stall the code that
    starts the timer that long before the wait begins."""
    return WAIT_MS + rng.randint(500, 1200)


def node_program(rng, number):
    FINAL = "undefined;"  # no value shown: the reply is the script's output
    parts = []
    for n in range(rng.randint(1, 6)):
        # (No setImmediate: its order against a timer varies in node itself.)
        kind = rng.choice(["now", "write", "microtask", "tick", "timer"] + ["late"] * (rng.random() < 0.2))
        tag = "%s%d" % (kind, n)
        if kind == "late":
            parts.append("setTimeout(() => console.log('%s', %d), %d);" % (LATE, number * 10 + n, late_delay(rng)))
            continue
        parts.append({
            "now": "console.log('%s');" % tag,
            "write": "process.stdout.write('%s\\n');" % tag,
            "microtask": "Promise.resolve().then(() => console.log('%s'));" % tag,
            "tick": "process.nextTick(() => console.log('%s'));" % tag,
            # Timers far enough apart that their order is the script's.
            "timer": "setTimeout(() => console.log('%s'), %d);" % (tag, 40 * n + 1),
        }[kind])
    parts.append(FINAL)
    return "\n".join(parts)


# Threads print while the ask waits for them, in an order that no load can
# change (the script's must not either): each waits for the main thread's
# last print, then for the thread before it. A late one starts its delay
# when the main thread is done, so that it ends past the wait however long
# the main thread was stalled before.
PYTHON_PRELUDE = """import threading, time
def after(first, delay, args, then):
    first.wait()
    time.sleep(delay)
    print(*args)
    then.set()
main_done = threading.Event()"""


def python_program(rng, number):
    FINAL = "None"  # no value shown: the reply is the script's output
    parts = [PYTHON_PRELUDE]
    previous = "main_done"
    for n in range(rng.randint(1, 5)):
        kind = rng.choice(["now", "write", "thread"] + ["late"] * (rng.random() < 0.2))
        tag = "%s%d" % (kind, n)
        if kind in ("thread", "late"):
            first, delay, args = previous, rng.choice([0, 0.05, 0.1]), [tag]
            if kind == "late":
                # One argument: print writes its arguments one by one, so
                # the ticker's line could land between "LATE" and the number
                # (Python's own print does so; seen once in ~500 asks).
                first, delay, args = "main_done", late_delay(rng) / 1000, ["%s %d" % (LATE, number * 10 + n)]
            parts.append("done%d = threading.Event()\nthreading.Thread(target=after, args=(%s, %.3f, %r, done%d)).start()"
                         % (n, first, delay, args, n))
            if kind == "thread":
                previous = "done%d" % n
            continue
        parts.append({
            "now": "print('%s')" % tag,
            "write": "import sys; sys.stdout.write('%s\\n')" % tag,
        }[kind])
    parts += ["main_done.set()", FINAL]
    return "\n".join(parts)


# Started by the first ask, prints "LATE tick" every 50 ms for ever.
TICKERS = {
    "node": "setInterval(() => console.log('%s', 'tick'), 50);\nundefined;" % LATE,
    "python": ("import threading, time\ndef tick():\n    while True:\n        print('%s tick')\n"
               "        time.sleep(0.05)\nthreading.Thread(target=tick, daemon=True).start()\nNone" % LATE),
}

ENGINES = {
    "node": (node_program, ["node"], ".js"),
    "python": (python_program, ["python3"], ".py"),
}


def run_as_script(engine, code):
    _, argv, suffix = ENGINES[engine]
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "w") as f:
        f.write(code + "\n")
    try:
        return subprocess.run(argv + [path], capture_output=True, text=True, timeout=60).stdout.rstrip("\n")
    finally:
        os.unlink(path)


def split_late(output):
    """A script's output: (its lines before the ask would end, its late lines)."""
    lines = output.split("\n") if output else []
    late = [line for line in lines if line.startswith(LATE + " ")]
    return "\n".join(line for line in lines if line not in late), late


class Interleavings(unittest.TestCase):
    def check(self, engine, count):
        rng = random.Random("%d-%s" % (SEED, engine))
        programs = [ENGINES[engine][0](rng, number) for number in range(count)]
        with ThreadPoolExecutor(2) as pool:
            expected = list(pool.map(lambda c: run_as_script(engine, c), programs))
        late = [LATE + " tick"]
        with CpuHog(), Daemon(engine, env={"TUIDRIVER_REPL_WAIT_MS": str(WAIT_MS)}) as d:
            d.request("subscribe", events=["output"])
            self.assertTrue(d.ask(TICKERS[engine])["ok"])  # (its text: ticks in its wait)
            for code, script_output in zip(programs, expected):
                want, late_lines = split_late(script_output)
                late += late_lines
                reply = d.ask(code, timeout_ms=30000)
                self.assertEqual((reply["ok"], reply["text"]), (True, want),
                                 "seed %d, reply %r, code:\n%s" % (SEED, reply, code))
            self.assert_delivered(d, late)

    def assert_delivered(self, d, late):
        """Every late line reaches the `output` events (within a few seconds)."""
        deadline = time.monotonic() + 5
        missing = late
        while missing and time.monotonic() < deadline:
            try:
                d.wait_for(lambda m: False, 0.2)
            except TimeoutError:
                pass
            output = "".join(m.get("data", "") for m in d.events if m.get("type") == "output")
            missing = [line for line in late if line not in output]
        self.assertEqual(missing, [], "seed %d: late output never shown" % SEED)

    def test_node(self):
        self.check("node", COUNT // 2)

    def test_python(self):
        self.check("python", COUNT - COUNT // 2)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1].isdigit():
        COUNT = int(sys.argv.pop(1))
    unittest.main()
