"""Shared pieces of the agent end-to-end tests: the fake model API, fresh
homes, and a tuidriver session on a genuine agent CLI.

The CLIs come from tests/e2e/node_modules (pinned by package-lock.json);
scripts/test.sh installs them. Nothing here talks to a real API: every
request goes to the loopback fake in fake_api.mjs.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

E2E = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(E2E))
sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))

from tuiclient import Daemon  # noqa: E402
import homes  # noqa: E402


def require_cli(cli):
    path = homes.EXECUTABLES[cli]
    if not os.path.exists(path):
        raise SystemExit("%s is not installed: run `npm ci --ignore-scripts` in tests/e2e "
                         "(scripts/test.sh does)" % path)


class FakeApi:
    """The fake model API on 127.0.0.1, on a free port, for one test class."""

    def __init__(self):
        self.proc = subprocess.Popen(["node", os.path.join(E2E, "fake_api.mjs")],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("fake_api.mjs did not start: %s" % self.proc.stderr.read().decode())
        self.port = json.loads(line)["port"]

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.port, path), data=data,
                                     method=method, headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def script(self, *replies):
        """Queues what the model says in the next turns (dicts or plain text)."""
        items = [r if isinstance(r, dict) else {"text": r} for r in replies]
        return self._call("POST", "/_control/replies", {"replies": items})

    def requests(self):
        return self._call("GET", "/_control/requests")

    def turns(self):
        return [r for r in self.requests() if r.get("turn")]

    def state(self):
        return self._call("GET", "/_control/state")

    def wait_turn_started(self, count, timeout=30):
        """Waits until `count` turns have started (the CLI sent its request)."""
        deadline = time.monotonic() + timeout
        while self.state()["turns_started"] < count:
            if time.monotonic() > deadline:
                raise TimeoutError("the CLI never sent turn %d to the fake API" % count)
            time.sleep(0.05)

    def reset(self):
        return self._call("POST", "/_control/reset", {})

    def stop(self):
        self.proc.kill()
        self.proc.wait()


class AgentSession:
    """A fresh home and project directory, and tuidriver on the CLI."""

    def __init__(self, cli, api, bare=False, mode=None, extra_args=()):
        require_cli(cli)
        self.tmp = tempfile.mkdtemp(prefix="tuidriver-e2e-%s-" % cli)
        self.home = os.path.join(self.tmp, "home")
        self.cwd = os.path.join(self.tmp, "project")
        os.makedirs(self.cwd)
        env = homes.make_env(cli, self.home, self.cwd, api.port, bare=bare)
        args = [cli, "--cwd", self.cwd]
        if mode:
            args += ["--mode", mode]
        args += ["--extra-arg=%s" % a for a in extra_args]
        self.daemon = Daemon(*args, env=env, timeout=60)
        self.pid = self.daemon.ready["pid"]

    def ask(self, prompt, timeout=60, **fields):
        return self.daemon.ask(prompt, timeout=timeout, **fields)

    def ask_stream(self, prompt, timeout=60):
        """Returns (chunks, reply, busy_flags): busy_flags[i] tells whether
        the fake API was still streaming when chunk i arrived."""
        d = self.daemon
        rid = d.next_id
        d.next_id += 1
        d.send({"id": rid, "type": "ask_stream", "prompt": prompt, "timeout": timeout})
        chunks = []
        while True:
            m = d.wait_for(lambda m: m.get("id") == rid, timeout + 10)
            if m["type"] != "chunk":
                return chunks, m
            chunks.append((time.time() * 1000, m["delta"]))

    def close(self):
        reply = None
        try:
            if self.daemon.proc.poll() is None:
                reply = self.daemon.close(timeout=20)
        finally:
            self.daemon.__exit__()
            shutil.rmtree(self.tmp, ignore_errors=True)
        return reply


def processes_matching(word):
    """Command lines of running processes that mention `word`."""
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [l for l in out.splitlines()[1:] if word in l and "ps -eo" not in l]


def words(n, seed=7):
    """n deterministic words of mixed length, for long replies."""
    vocab = ("alpha beta gamma delta epsilon terminal screen reply wraps across many rows "
             "and scrolls past the visible area while staying exactly as sent").split()
    return " ".join(vocab[(i * seed + i // 3) % len(vocab)] for i in range(n))
