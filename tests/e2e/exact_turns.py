"""The shared end-to-end suite of exact turns (issue 25, point 3), one
subclass per agent CLI: ready on a bare home in --mode agent, markdown
exact, five turns, a tool call in turn.tools with the right text after it,
a permission question answered inside the turn, two in one turn, resume
across two daemons, an unreadable transcript. A subclass sets CLI and the
hooks below; mix in unittest.TestCase. The row-by-row paragraph is
RowStreaming (agent_harness), mixed into the CLI's AgentTurns class.
ConcurrentStarts: sessions started together in one folder and one home each
get their own answers (issue 47)."""
import json
import os
import re
import shutil
import tempfile

import homes
from agent_harness import AgentSession, WithFakeApi, assert_text_agrees, require_cli
from cpu_hog import CpuHog
from tuiclient import ROOT, Daemon

MARKDOWN = """## Plan
Use **bold** and `code`.

- first item
- second item

```python
def f(x):
    return x * 2
```

| a | b |
|---|---|
| 1 | 2 |

See [docs](https://example.com)."""


class ExactTurns(WithFakeApi):
    CLI = None
    SESSION_ID = r"^\S+$"  # how the CLI's session ids look
    SHELL_TOOL = "Bash"    # the model's name for the shell tool
    SHELL_DESCRIBED = True  # its input takes a "description" beside "command"
    MODEL = None           # turn.model, when the CLI records the model it was given
    BARE_HOME = {}         # more AgentSession arguments for the bare home (Codex: git_repo)
    ID_AT_READY = False    # the CLI is given its session id, so `ready` names it

    # Hooks a subclass may override.
    def shell_call(self, command):
        """The fake model's call of the shell tool."""
        args = {"command": command}
        if self.SHELL_DESCRIBED:
            args["description"] = "Run it"
        return {"tool_call": {"name": self.SHELL_TOOL, "input": args}}

    def asking_call(self, path):
        """A call creating `path` that the CLI asks about before it runs it."""
        return self.shell_call("touch " + path)

    def assert_asks_about(self, daemon, event, command):
        """The needs_input `event` names the command it asks about."""
        self.assertIn(command, event["question"] + json.dumps(event.get("screen", "")))

    def check_first_run(self, session):
        """Checks what agent mode answered on the bare home (session.daemon.events
        holds its `dialog` events)."""

    def tool_output(self, output):
        """turn.tools[i].output for a command that printed `output`."""
        return output + "\n"

    def tool_output_pattern(self, output):
        """A regex for turn.tools[i].output, for a CLI that adds what varies
        from run to run (a process group, a time)."""
        return r"\A%s\Z" % re.escape(self.tool_output(output))

    def answer_permission(self, daemon, rid, event):
        """Allows the command the needs_input `event` asks about."""
        raise NotImplementedError

    def break_transcript(self, session):
        """Makes the session's transcript unreadable; returns a string the
        transcript_error must name."""
        raise NotImplementedError

    def setUp(self):
        self.api.reset()
        self.s = None

    def tearDown(self):
        if self.s:
            self.s.close()

    def expected_model(self):
        """turn.model's expected value: MODEL, or (overridden) the model the
        CLI asked the fake API for, when that depends on the CLI's release."""
        return self.MODEL

    def start(self, **kw):
        self.s = AgentSession(self.CLI, self.api, **kw)
        return self.s

    def ask(self, prompt, **kw):
        r = self.s.ask(prompt, timeout_ms=90000, **kw)
        self.assertTrue(r["ok"], r)
        return r

    def test_ready_on_a_bare_home_in_agent_mode(self):
        self.start(bare=True, mode="agent", **self.BARE_HOME)
        self.check_first_run(self.s)
        self.api.script("Ready here.")
        r = self.ask("hello")
        self.assertEqual((r["text"], r["markdown"]), ("Ready here.", "Ready here."))

    def test_markdown_is_exact_and_the_turn_is_described(self):
        self.start()
        self.api.script(MARKDOWN)
        r = self.ask("make a plan")
        self.assertEqual(r["markdown"], MARKDOWN, r)
        self.assertIn("first item", r["text"])  # the screen's rendering
        turn = r["turn"]
        self.assertRegex(turn["session_id"], self.SESSION_ID)
        self.assertEqual(turn["tools"], [])
        if self.expected_model():
            self.assertEqual(turn["model"], self.expected_model())
        self.assertGreater(turn["usage"]["output_tokens"], 0)
        self.assertEqual(self.s.daemon.request("status")["session_id"], turn["session_id"])
        if self.ID_AT_READY:
            self.assertEqual(self.s.daemon.ready["session_id"], turn["session_id"])

    def test_five_turns_in_a_row_all_exact(self):
        self.start()
        answers = ["**%d** is `n`, and the prompt was turn %d:\n\n- turn %d" % (i, i, i) for i in range(5)]
        self.api.script(*answers)
        for i, answer in enumerate(answers):
            r = self.ask("turn %d" % i)
            self.assertEqual(r["markdown"], answer, r)
            self.assertIn("turn %d" % i, r["text"])

    def test_a_tool_call_and_the_answer_after_it(self):
        self.start(mode="agent")
        target = os.path.join(self.s.cwd, "made-by-tool.txt")
        # "Done.": the answer to the tool's result (queued: the Responses fake
        # answers every request that offers tools as a turn, "OK" by default).
        self.api.script(self.shell_call("echo tool said hi > %s; cat %s" % (target, target)), "Done.")
        d = self.s.daemon
        d.send({"id": "t", "type": "ask", "prompt": "run the tool", "timeout_ms": 90000, "on_input": "wait"})
        r = d.wait_for(lambda m: m.get("id") == "t", 90)
        if r["type"] == "needs_input":  # a CLI that asks even in agent mode
            self.answer_permission(d, "t", r)
            r = d.wait_for(lambda m: m.get("id") == "t", 90)
        self.assertTrue(r["ok"], r)
        tools = r["turn"]["tools"]
        self.assertEqual(len(tools), 1, r)
        self.assertEqual(tools[0]["name"], self.SHELL_TOOL)
        self.assertIn("echo tool said hi", json.dumps(tools[0]["input"]))
        self.assertRegex(tools[0]["output"], self.tool_output_pattern("tool said hi"))
        self.assertTrue(tools[0]["ok"], tools[0])
        self.assertEqual((r["markdown"], r["text"]), ("Done.", "Done."))

    def test_a_permission_question_answered_inside_the_turn(self):
        self.permission_turn(["allowed.txt"])

    # Two questions in one turn: the second is reported whole (its choices
    # drawn), like the first, and answered; the turn then goes on.
    def test_two_permission_questions_in_one_turn(self):
        self.permission_turn(["first.txt", "second.txt"])

    def permission_turn(self, names):
        """One turn of a tool call per file in `names`, each asked about (a
        needs_input event) and answered; then the reply."""
        self.start()
        d = self.s.daemon
        targets = [os.path.join(self.s.cwd, name) for name in names]
        self.api.script(*[self.asking_call(t) for t in targets], "Done.")
        d.send({"id": "q", "type": "ask", "prompt": "make the files", "timeout_ms": 90000, "on_input": "wait"})
        for target in targets:
            ev = d.wait_for(lambda m: m.get("id") == "q", 90)
            self.assertEqual(ev["type"], "needs_input", ev)
            self.assert_asks_about(d, ev, "touch " + target)
            self.answer_permission(d, "q", ev)
        r = d.wait_for(lambda m: m.get("id") == "q", 90)
        self.assertTrue(r["ok"], r)
        self.assertTrue(all(os.path.exists(t) for t in targets), r)
        self.assertEqual(r["markdown"], "Done.")
        self.assertEqual([t["name"] for t in r["turn"]["tools"]], [self.SHELL_TOOL] * len(targets))

    def test_resume_across_two_daemons(self):
        s = self.start()
        self.api.script("remembered")
        first = self.ask("remember the word kiwi")
        self.assertEqual(first["markdown"], "remembered")
        sid = first["turn"]["session_id"]
        s.daemon.close(timeout=20)
        env = homes.make_env(self.CLI, s.home, s.cwd, self.api.port)
        with Daemon(self.CLI, "--cwd", s.cwd, "--resume", sid, env=env, timeout=150) as d:
            self.assertEqual(d.ready["session_id"], sid)
            self.api.script("kiwi")
            r = d.ask("which word?", timeout_ms=90000)
            self.assertEqual((r["markdown"], r["turn"]["session_id"]), ("kiwi", sid), r)
            self.assertIn("remember the word kiwi", json.dumps(self.api.turns()[-1]))
            d.close()
        self.s = None
        shutil.rmtree(s.tmp, ignore_errors=True)

    def test_a_transcript_that_cannot_be_read_is_reported(self):
        self.start()
        # The release that runs, read from its npm package (issue 45).
        version, verified = installed_version(self.CLI)
        self.assertEqual(self.s.daemon.ready.get("cli_version"), version, self.s.daemon.ready)
        status = self.s.daemon.request("status")
        self.assertEqual(status["cli_version"], version, status)
        # A release outside the engine's verified range (scripts/drift.sh runs newer ones) is warned of.
        key = lambda v: [int(p) for p in v.split("-")[0].split(".")]  # noqa: E731
        if key(verified[0]) <= key(version) <= key(verified[1]):
            self.assertEqual(status["warnings"], [], status)
        else:
            self.assertEqual(len(status["warnings"]), 1, status)
            self.assertIn("%s %s is" % (self.CLI, version), status["warnings"][0])
        self.api.script("first")
        self.assertEqual(self.ask("one")["markdown"], "first")
        named = self.break_transcript(self.s)
        self.api.script("second")
        r = self.ask("two")
        # The screen still answers (the screen is shown if it does not).
        self.assertEqual(r["text"], "second", (r, self.s.daemon.request("screen")))
        self.assertIsNone(r["markdown"])
        self.assertIn(named, r["transcript_error"])
        self.assertIn("(%s %s)" % (self.CLI, version), r["transcript_error"])


def lose_writes(path):
    """Points a CLI's transcript file at /dev/null, so that whatever the CLI
    writes to it from now on is lost (a transcript that cannot be read). In
    one rename: the CLI may still be appending, and an unlink then symlink
    lost that race once (Claude wrote the file again in between)."""
    spare = path + ".tuidriver-null"
    os.symlink("/dev/null", spare)
    os.replace(spare, path)


def installed_version(cli):
    """The version of the CLI's npm package in the install the tests run,
    as its engine file names the package, and the engine's verified range."""
    with open(os.path.join(os.environ.get("TUIDRIVER_ENGINES") or os.path.join(ROOT, "engines"), cli + ".json")) as f:
        release = json.load(f)["cli"]
    with open(os.path.join(homes.MODULES, release["npm"][0], "package.json")) as f:
        return json.load(f)["version"], release["verified"]


class ConcurrentStarts(WithFakeApi):
    """Sessions started at the same instant in one folder and one home (a
    pool, one agent per task on a repository), each asking its own prompt
    at the same time for three rounds: every reply's markdown, text and
    turn.session_id are its own session's (issue 47). A subclass sets CLI
    and SESSION_ID; mix in unittest.TestCase. tests/e2e/test_concurrent_starts.py
    holds one per CLI; the CPU hog test runs alone (ctest RUN_SERIAL)."""
    CLI = None
    SESSION_ID = r"^\S+$"

    def setUp(self):
        self.api.reset()

    def test_two_sessions_started_together_in_one_folder(self):
        self.concurrent_sessions(2)

    def test_four_sessions_started_together_in_one_folder(self):
        self.concurrent_sessions(4)

    def test_four_sessions_started_together_beside_a_cpu_hog(self):
        with CpuHog():
            self.concurrent_sessions(4)

    def concurrent_sessions(self, count, rounds=3):
        require_cli(self.CLI)
        tmp = tempfile.mkdtemp(prefix="tuidriver-e2e-%s-shared-" % self.CLI)
        home, cwd = os.path.join(tmp, "home"), os.path.join(tmp, "project")
        os.makedirs(cwd)
        env = homes.make_env(self.CLI, home, cwd, self.api.port)
        self.api.default({"echo_say": True})
        daemons = []
        try:
            daemons = [Daemon(self.CLI, "--cwd", cwd, env=env, wait_ready=False) for _ in range(count)]
            for d in daemons:
                d.ready = d.wait_for(lambda m: m.get("type") == "ready", 150)
            ids = [None] * count
            for r in range(rounds):
                prompts = ["say 'tdx-%d-%d'" % (i, r) for i in range(count)]
                for d, prompt in zip(daemons, prompts):
                    d.send({"id": "c%d" % r, "type": "ask", "prompt": prompt, "timeout_ms": 120000})
                for i, d in enumerate(daemons):
                    reply = d.wait_for(lambda m, r=r: m.get("id") == "c%d" % r, 130)
                    if not reply.get("ok"):  # what the session showed, and what the model was asked
                        reply = dict(reply, screen=d.request("screen").get("text"),
                                     prompts_seen=[json.dumps(q)[-300:] for q in self.api.turns()])
                    self.assert_own_reply(reply, "said tdx-%d-%d" % (i, r), ids[i])
                    ids[i] = reply["turn"]["session_id"]
            self.assertEqual(len(set(ids)), count, ids)  # no two sessions share an id
            for d, sid in zip(daemons, ids):
                self.assertEqual(d.request("status")["session_id"], sid)
                history = d.request("history", wait=30)
                if history.get("ok"):  # the formats that read a whole session
                    self.assertEqual([t["markdown"] for t in history["turns"]][-rounds:],
                                     ["said tdx-%d-%d" % (ids.index(sid), r) for r in range(rounds)], history)
        finally:
            for d in daemons:
                if d.proc.poll() is None:
                    d.close(timeout=30)
                d.release()
            shutil.rmtree(tmp, ignore_errors=True)

    def assert_own_reply(self, reply, answer, session_id):
        """The reply is its own session's: its answer, in markdown and text,
        and the session id its earlier turns had."""
        self.assertTrue(reply.get("ok"), reply)
        self.assertNotIn("transcript_error", reply)
        self.assertEqual(reply["markdown"], answer, reply)
        self.assertIn(answer, reply["text"])
        assert_text_agrees(reply)
        self.assertRegex(reply["turn"]["session_id"], self.SESSION_ID)
        if session_id is not None:
            self.assertEqual(reply["turn"]["session_id"], session_id, reply)
