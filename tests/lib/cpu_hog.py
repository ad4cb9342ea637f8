"""Busy loops beside a timing-sensitive test, so that it cannot pass only on
a quiet machine: one per core, each a process of its own that spins until
the test is done, and at most `limit_s` even if the test is killed.

    with CpuHog():
        ...  # the test's asks, on a loaded machine
"""
import os
import subprocess
import sys

SPIN = "import time\nend = time.monotonic() + %f\nwhile time.monotonic() < end:\n    pass\n"


class CpuHog:
    def __init__(self, processes=None, limit_s=1800):
        self.processes = processes or max(2, os.cpu_count() or 2)
        self.limit_s = limit_s
        self.spinners = []

    def __enter__(self):
        try:
            for _ in range(self.processes):
                self.spinners.append(subprocess.Popen([sys.executable, "-c", SPIN % self.limit_s],
                                                      stdin=subprocess.DEVNULL))
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        for p in self.spinners:
            p.kill()
        for p in self.spinners:
            p.wait()
        self.spinners = []
