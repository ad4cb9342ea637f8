"""Protocol behaviour: launch errors, bad requests, raw sessions, events."""
import json
import os
import subprocess
import threading
import time
import unittest

from tuiclient import BIN, MEASURED_MEMORY_ENV, ROOT, Daemon, peak_rss_kib, run_once



def old_spelling(d, type_, **fields):
    """One request with `timeout` in seconds, the wire's older spelling, which
    tuiclient's request refuses; returns its reply."""
    rid = "old-%d" % d.next_id
    d.next_id += 1
    d.send({"id": rid, "type": type_, **fields})
    return d.wait_for(lambda m: m.get("id") == rid and m.get("type") == "reply", 30)


class Launch(unittest.TestCase):
    def test_version_help_list(self):
        for args in (["--version"], ["--help"], ["--list-engines"]):
            p = subprocess.run([BIN, *args], capture_output=True, timeout=10)
            self.assertEqual(p.returncode, 0, args)
            self.assertTrue(p.stdout.strip(), args)
        p = subprocess.run([BIN, "--list-engines"], capture_output=True, timeout=10)
        out = p.stdout.decode()
        for name in ("bash", "python", "node"):
            self.assertIn(name, out)

    def test_usage_error(self):
        code, msgs, err = run_once(["--cols", "x", "python"], "")
        self.assertEqual(code, 2)
        self.assertEqual(msgs[0]["type"], "error")
        self.assertEqual(msgs[0]["kind"], "usage")
        self.assertIn("--cols", err)

    def test_unknown_engine(self):
        code, msgs, _ = run_once(["pyhton"], "")
        self.assertEqual(code, 2)
        self.assertIn("unknown engine 'pyhton'", msgs[0]["error"])
        # The engines there are, as an unknown request type lists the types: a typo shows.
        known = msgs[0]["error"].split("known: ")[1].split(";")[0].split(", ")
        shipped = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "engines"))
                         if f.endswith(".json") and f != "schema.json")
        self.assertEqual(known, shipped)

    def test_spawn_failure(self):
        code, msgs, err = run_once(["--", "definitely-not-a-command-xyz"], "")
        self.assertEqual(code, 3)
        self.assertEqual(msgs, [{"type": "error", "kind": "spawn",
                                 "error": "definitely-not-a-command-xyz: command not found"}])
        self.assertIn("command not found", err)

    def test_bad_cwd(self):
        code, msgs, _ = run_once(["--cwd", "/no/such/dir", "--", "true"], "")
        self.assertEqual(code, 3)
        self.assertIn("/no/such/dir", msgs[0]["error"])

    def test_engine_file_error_names_field(self):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "bad-engine-%d.json" % os.getpid())
        with open(path, "w") as f:
            json.dump({"command": ["true"], "prompt": {"pattern": "("}}, f)
        try:
            code, msgs, _ = run_once(["--engine-file", path], "")
        finally:
            os.unlink(path)
        self.assertEqual(code, 2)
        self.assertIn(path, msgs[0]["error"])
        self.assertIn("prompt.pattern", msgs[0]["error"])

    def test_engine_that_exits_before_ready(self):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "quick-exit-%d.json" % os.getpid())
        with open(path, "w") as f:
            json.dump({"command": ["sh", "-c", "echo bye; exit 4"], "prompt": {"pattern": "^never$"}}, f)
        try:
            code, msgs, stderr = run_once(["--engine-file", path], "")
        finally:
            os.unlink(path)
        self.assertEqual(code, 3)
        self.assertEqual(msgs[-1]["kind"], "not_ready")
        self.assertIn("exited with code 4", msgs[-1]["error"])
        self.assertEqual(msgs[-1]["screen"][0], "bye")
        # What the program printed is the first thing a user needs to see.
        self.assertIn("\n  | bye\n", stderr)


class BadRequests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.d = Daemon("--", "cat", env=MEASURED_MEMORY_ENV)

    @classmethod
    def tearDownClass(cls):
        cls.d.close()

    def raw_reply(self, line: bytes):
        self.d.send_raw(line + b"\n")
        return self.d.wait_for(lambda m: m.get("type") == "reply", 10)

    def test_malformed_json(self):
        r = self.raw_reply(b'{"id":1,"type":')
        self.assertEqual((r["id"], r["ok"], r["kind"]), (None, False, "protocol"))

    def test_not_an_object(self):
        for line in (b"[1,2]", b"42", b'"str"', b"null"):
            r = self.raw_reply(line)
            self.assertEqual(r["kind"], "protocol", line)

    def test_trailing_junk(self):
        r = self.raw_reply(b'{"id":1,"type":"status"} junk')
        self.assertEqual(r["kind"], "protocol")

    def test_unknown_type(self):
        r = self.raw_reply(b'{"id":"x","type":"frobnicate"}')
        self.assertEqual((r["id"], r["kind"]), ("x", "unknown_type"))

    # Issue 22, item 3: a misspelt field is refused, naming it and the
    # type's fields; it never runs with a default in its place.
    def test_unknown_fields_are_bad_requests(self):
        r = self.raw_reply(b'{"id":"t","type":"ask","prompt":"1","timeout_sec":400}')
        self.assertEqual((r["id"], r["ok"], r["kind"]), ("t", False, "bad_request"))
        self.assertEqual(r["error"], "unknown field 'timeout_sec' in an 'ask' request "
                                     "(known: id, type, prompt, timeout_ms, timeout, on_input)")
        r = self.raw_reply(b'{"id":5,"type":"screen","style":true}')
        self.assertEqual((r["kind"], r["error"]), ("bad_request", "unknown field 'style' in a 'screen' "
                                                                  "request (known: id, type, styles)"))
        self.assertTrue(self.d.request("status")["ok"])  # the session goes on

    def test_list_fields(self):
        p = subprocess.run([BIN, "--list-fields"], capture_output=True, timeout=10, check=True)
        fields = json.loads(p.stdout)
        self.assertEqual(fields["ask"], ["id", "type", "prompt", "timeout_ms", "timeout", "on_input"])
        self.assertEqual(fields["expect"], ["id", "type", "pattern", "timeout_ms", "timeout", "output_only"])
        self.assertEqual(fields["wait_idle"], ["id", "type", "idle_ms", "timeout_ms", "timeout"])
        self.assertEqual(fields["status"], ["id", "type"])
        self.assertEqual(fields["history"], ["id", "type"])
        self.assertEqual(fields["run"], ["id", "type", "line", "timeout_ms", "idle_ms"])
        self.assertEqual(len(fields), 21)

    def test_list_error_kinds(self):
        p = subprocess.run([BIN, "--list-error-kinds"], capture_output=True, timeout=10, check=True)
        kinds = p.stdout.decode().split("\n")
        self.assertEqual(kinds[-1], "")  # one a line, each ended
        for kind in ("timeout", "needs_input", "not_ready", "record", "usage", "error"):
            self.assertIn(kind, kinds[:-1])
        self.assertEqual(len(set(kinds[:-1])), len(kinds) - 1)

    def test_history_of_a_session_without_a_transcript(self):
        r = self.d.request("history")
        self.assertEqual((r["ok"], r["kind"]), (False, "history"))
        self.assertIn("raw session", r["error"])

    def test_wrong_field_types(self):
        r = self.raw_reply(b'{"id":2,"type":"resize","cols":"80","rows":24}')
        self.assertEqual((r["id"], r["kind"]), (2, "protocol"))
        self.assertIn("cols", r["error"])
        r = self.raw_reply(b'{"id":3,"type":"keys","keys":"Enter"}')
        self.assertEqual(r["kind"], "protocol")
        r = self.raw_reply(b'{"id":{},"type":"status"}')
        self.assertEqual((r["id"], r["kind"]), (None, "protocol"))
        for line, field in ((b'{"id":6,"type":"ask_stream","prompt":["x"]}', "prompt"),
                            (b'{"id":6,"type":"send","data":null}', "data"),
                            (b'{"id":6,"type":"expect","pattern":"x","timeout":"5"}', "timeout"),
                            (b'{"id":6,"type":"wait_idle","idle_ms":1.5}', "idle_ms"),
                            (b'{"id":6,"type":"wait_idle","timeout_ms":2.5}', "timeout_ms"),
                            (b'{"id":6,"type":"expect","pattern":"x","timeout_ms":0}', "timeout_ms"),
                            (b'{"id":6,"type":"cancel","target":[1]}', "target"),
                            (b'{"id":6,"type":"signal","signal":true}', "signal"),
                            (b'{"id":6,"type":"scrollback","lines":-1}', "lines"),
                            (b'{"id":6,"type":["status"]}', "type")):
            r = self.raw_reply(line)
            self.assertEqual((r["id"], r["kind"]), (6, "protocol"), line)
            self.assertIn(field, r["error"], line)

    def test_empty_line_and_nul(self):
        r = self.raw_reply(b"")
        self.assertEqual(r["kind"], "protocol")
        r = self.raw_reply(b'{"id":4,"type":"status"}\x00')
        self.assertEqual(r["kind"], "protocol")
        for line in (b"\x00", b'{"id":4,\x00"type":"status"}', b'{"id":4,"type":"send","data":"a\x00b"}'):
            r = self.raw_reply(line)
            self.assertEqual(r["kind"], "protocol", line)
        r = self.raw_reply(b"\r")
        self.assertEqual(r["kind"], "protocol")

    def test_invalid_utf8(self):
        r = self.raw_reply(b'{"id":5,"type":"send","data":"\xff\xfe"}')
        self.assertEqual(r["kind"], "protocol")
        # Overlong, surrogate and truncated encodings, also in the id and type.
        for line in (b'{"id":5,"type":"send","data":"\xc0\xaf"}',
                     b'{"id":5,"type":"send","data":"\xed\xa0\x80"}',
                     b'{"id":"\xe2\x82","type":"status"}',
                     b'{"id":5,"type":"\xf0\x9f\x9a"}'):
            r = self.raw_reply(line)
            self.assertEqual(r["kind"], "protocol", line)

    def test_huge_line_refused_without_buffering(self):
        # 64 MiB in one line, far beyond the 16 MiB limit: one protocol
        # error, the rest discarded as it arrives, and the daemon never
        # holds the line (its peak memory grows far less than 64 MiB).
        pid = self.d.proc.pid
        before = peak_rss_kib(pid)
        chunk = b"x" * (1 << 20)
        self.d.send_raw(b'{"id":77,"type":"send","data":"')
        for _ in range(64):
            self.d.proc.stdin.write(chunk)
        self.d.send_raw(b'"}\n')
        r = self.d.wait_for(lambda m: m.get("type") == "reply", 30)
        self.assertEqual((r["id"], r["kind"]), (None, "protocol"))
        self.assertIn("longer than 16777216 bytes", r["error"])
        st = self.d.request("status")
        self.assertTrue(st["ok"], st)
        grown_mib = (peak_rss_kib(pid) - before) / 1024
        self.assertLess(grown_mib, 32, "peak RSS grew by %.0f MiB" % grown_mib)  # 16 MiB limit
        self.assertEqual([m for m in self.d.events if m.get("type") == "reply"], [])

    def test_ask_on_raw_session(self):
        r = self.d.request("ask", prompt="hi")
        self.assertFalse(r["ok"])
        self.assertIn("raw session", r["error"])

    def test_cancel_unknown(self):
        r = self.d.request("cancel", target=12345)
        self.assertEqual(r["kind"], "error")

    def test_daemon_survives(self):
        r = self.d.request("status")
        self.assertTrue(r["ok"])
        self.assertEqual(r["state"], "ready")


class Flood(unittest.TestCase):
    def test_100000_requests_back_to_back(self):
        # Sent without waiting for any reply (a writer thread, so neither
        # side's pipe can deadlock the test): all answered, in order.
        n = 100000
        kinds = ("status", "screen", "frob", None)  # None: malformed, id unreadable
        lines = []
        expected = []
        for i in range(n):
            t = kinds[i % 4]
            if t is None:
                lines.append(b'{"id":%d,"type":' % i)
                expected.append((None, False))
            else:
                lines.append(b'{"id":%d,"type":"%s"}' % (i, t.encode()))
                expected.append((i, t != "frob"))
        blob = b"\n".join(lines) + b"\n"
        with Daemon("--", "cat") as d:
            writer = threading.Thread(target=d.send_raw, args=(blob,))
            writer.start()
            got = []
            while len(got) < n:
                m = d.read_line(60)
                if m.get("type") == "reply":
                    got.append((m["id"], m["ok"]))
            writer.join()
            self.assertEqual(got, expected)
            self.assertTrue(d.request("status")["ok"])
            d.close()


class RawSession(unittest.TestCase):
    def test_send_screen_expect(self):
        with Daemon("--cols", "60", "--rows", "10", "--", "cat") as d:
            self.assertIsNone(d.ready["engine"])
            self.assertEqual((d.ready["cols"], d.ready["rows"]), (60, 10))
            self.assertTrue(d.request("send", data="hello world\r")["ok"])
            # The terminal echoes the line, then cat prints it again.
            e = d.request("expect", pattern=r"hello (\w+)\nhello world", timeout_ms=5000)
            self.assertTrue(e["ok"], e)
            self.assertEqual(e["groups"], ["world"])
            s = d.request("screen")
            self.assertEqual(s["lines"][0], "hello world")
            self.assertEqual(s["lines"][1], "hello world")  # cat echoes the line
            self.assertEqual(s["cursor"], {"row": 2, "col": 0, "visible": True})
            self.assertEqual(len(s["lines"]), 10)
            self.assertFalse(s["alt_screen"])

    def test_expect_timeout_returns_screen(self):
        with Daemon("--", "cat") as d:
            r = d.request("expect", pattern="never-appears", timeout_ms=200)
            self.assertEqual(r["kind"], "timeout")
            self.assertIn("lines", r)

    # Issue 29, point 5: every duration on the wire is in ms. `timeout_ms` is
    # accepted wherever `timeout` (seconds, the older spelling) is, and the
    # error texts speak ms; both at once are refused. The one test that sends
    # the older spelling (tuiclient.request refuses it): the wire still takes it.
    def test_timeout_ms(self):
        with Daemon("--", "cat") as d:
            r = d.request("expect", pattern="never-appears", timeout_ms=300)
            self.assertEqual((r["ok"], r["kind"], r["error"]), (False, "timeout", "condition not met within 300 ms"))
            self.assertIn("lines", r)
            r = d.request("wait_idle", idle_ms=60000, timeout_ms=200)
            self.assertEqual((r["kind"], r["error"]), ("timeout", "condition not met within 200 ms"))
            r = old_spelling(d, "expect", pattern="never-appears", timeout=0.25)
            self.assertEqual((r["kind"], r["error"]), ("timeout", "condition not met within 250 ms"))
            r = d.request("wait_idle", idle_ms=50, timeout_ms=5000)
            self.assertEqual((r["ok"], r["idle_ms"]), (True, 50))
            with self.assertRaises(TypeError):  # the client teaches one spelling
                d.request("wait_idle", idle_ms=50, timeout=5)
            for t, a in (("expect", "an"), ("wait_idle", "a")):
                fields = {"pattern": "x"} if t == "expect" else {}
                r = old_spelling(d, t, timeout_ms=100, timeout=1, **fields)
                self.assertEqual((r["ok"], r["kind"]), (False, "bad_request"), r)
                self.assertEqual(r["error"], f"{a} '{t}' request gives both 'timeout_ms' and 'timeout' "
                                             "(seconds, the older spelling): send one")
        with Daemon("python") as d:
            r = d.request("ask", prompt="import time; time.sleep(30)", timeout_ms=500, wait=20)
            self.assertEqual((r["ok"], r["kind"], r["error"]), (False, "timeout", "no reply within 500 ms"))
            r = old_spelling(d, "ask", prompt="6*7", timeout_ms=100, timeout=1)
            self.assertEqual(r["kind"], "bad_request")
            r = old_spelling(d, "ask_stream", prompt="6*7", timeout=20)
            self.assertEqual((r["ok"], r["text"]), (True, "42"), r)
            r = d.request("ask", prompt="6*7", timeout_ms=20000)
            self.assertEqual((r["ok"], r["text"]), (True, "42"), r)

    def test_bad_regex(self):
        with Daemon("--", "cat") as d:
            r = d.request("expect", pattern="(", timeout_ms=1000)
            self.assertEqual(r["kind"], "protocol")

    def test_resize_reaches_child(self):
        with Daemon("--", "bash", "--norc", "--noprofile") as d:
            r = d.request("resize", cols=77, rows=21)
            self.assertEqual((r["cols"], r["rows"]), (77, 21))
            d.request("send", data="echo size=$(stty size)\r")
            e = d.request("expect", pattern=r"size=(\d+) (\d+)", timeout_ms=5000)
            self.assertEqual(e["groups"], ["21", "77"])
            s = d.request("screen")
            self.assertEqual((s["cols"], s["rows"], len(s["lines"])), (77, 21, 21))

    def test_scrollback_wrapped_and_resize_follow_row(self):
        with Daemon("--cols", "20", "--rows", "6", "--", "sh", "-c", "printf '%s\\nend\\n' aaaaaaaaaaaaaaaaaaaaaaaaa; exec cat") as d:
            self.assertTrue(d.request("expect", pattern="(?m)^end$", timeout_ms=5000)["ok"])
            r = d.request("scrollback", wrapped=True)
            self.assertEqual(r["lines"][:3], ["a" * 20, "a" * 5, "end"])
            self.assertEqual(r["wrapped"][:3], [True, False, False])
            self.assertEqual((r["cursor_row"], r["alt_screen"]), (r["first_row"] + 3, False))
            self.assertNotIn("wrapped", d.request("scrollback"))  # only when asked
            end = r["first_row"] + 2
            # At 10 columns the 25 a's take three rows: "end" moves one down.
            m = d.request("resize", cols=10, rows=6, follow_row=end)
            self.assertEqual(m["follow_row"], end + 1)
            after = d.request("scrollback")
            self.assertEqual(after["lines"][m["follow_row"] - after["first_row"]], "end")
            self.assertNotIn("follow_row", d.request("resize", cols=10, rows=6))
            r = d.request("resize", cols=10, rows=6, follow_row=-1)
            self.assertEqual(r["kind"], "protocol")

    def test_keys_and_signal(self):
        with Daemon("--", "python3", "-q") as d:
            d.request("expect", pattern=">>> $", timeout_ms=10000)
            d.request("keys", keys=["import time; time.sleep(100)", "Enter"])
            d.request("wait_idle", idle_ms=200, timeout_ms=5000)
            r = d.request("signal", signal="INT")
            self.assertTrue(r["ok"])
            e = d.request("expect", pattern="KeyboardInterrupt", timeout_ms=5000)
            self.assertTrue(e["ok"], e)

    def test_exit_event_and_exited_errors(self):
        with Daemon("--", "sh", "-c", "printf 'bye\\n'; exit 7") as d:
            ex = d.wait_for(lambda m: m.get("type") == "exit", 10)
            self.assertEqual((ex["exit_code"], ex["signal"]), (7, None))
            r = d.request("send", data="x")
            self.assertEqual(r["kind"], "exited")
            s = d.request("screen")
            self.assertEqual(s["lines"][0], "bye")
            st = d.request("status")
            self.assertEqual((st["state"], st["exit_code"]), ("exited", 7))
            c = d.close()
            self.assertEqual((c["exit_code"], c["signal"]), (7, None))
            self.assertEqual(d.proc.returncode, 0)

    def test_subscribe_output(self):
        with Daemon("--", "cat") as d:
            d.request("subscribe", events=["output"])
            d.request("send", data="héllo 🚀\r")
            got = ""
            deadline = time.monotonic() + 5
            while "🚀" not in got or got.count("héllo") < 2:
                m = d.wait_for(lambda m: m.get("type") == "output", deadline - time.monotonic())
                got += m["data"]
            self.assertIn("héllo 🚀\r\n", got)

    def test_unsubscribe_stops_output(self):
        # No tty echo: each line shows once, when cat writes it back.
        with Daemon("--", "sh", "-c", "stty -echo; echo go; exec cat") as d:
            self.assertTrue(d.request("expect", pattern="go", timeout_ms=5000)["ok"])
            d.request("subscribe", events=["output"])
            d.request("send", data="one\r")
            d.wait_for(lambda m: m.get("type") == "output" and "one" in m["data"], 5)
            r = d.request("unsubscribe", events=["output"])
            self.assertTrue(r["ok"], r)
            d.events.clear()
            d.request("send", data="two\r")
            # expect replies after the daemon has read "two", so an output
            # event for it would already be in d.events.
            self.assertTrue(d.request("expect", pattern="two", timeout_ms=5000)["ok"])
            self.assertEqual([m for m in d.events if m.get("type") == "output"], [])

    def test_paste_bracketed_only_when_enabled(self):
        script = "printf 'go\\033[?2004h\\n'; exec cat -v"
        with Daemon("--", "sh", "-c", script) as d:
            self.assertTrue(d.request("expect", pattern="go", timeout_ms=5000)["ok"])
            r = d.request("paste", text="hi there\n")
            self.assertEqual((r["ok"], r["bracketed"]), (True, True), r)
            self.assertTrue(d.request("expect", pattern=r"\^\[\[200~hi there", timeout_ms=5000)["ok"])
        with Daemon("--", "sh", "-c", "stty -echo; echo go; exec cat -v") as d:
            self.assertTrue(d.request("expect", pattern="go", timeout_ms=5000)["ok"])
            r = d.request("paste", text="plain\n")
            self.assertEqual((r["ok"], r["bracketed"]), (True, False), r)
            self.assertTrue(d.request("expect", pattern=r"plain", timeout_ms=5000)["ok"])
            self.assertEqual(d.request("screen")["lines"][:2], ["go", "plain"])

    def test_status_foreground_pid(self):
        with Daemon("--", "bash", "--norc", "--noprofile") as d:
            st = d.request("status")
            self.assertEqual((st["state"], st["foreground_pid"]), ("ready", st["pid"]))
            d.request("send", data="sleep 30\r")

            def command(pid):
                with open("/proc/%d/cmdline" % pid, "rb") as f:
                    return f.read().split(b"\0")[0]
            # bash's child takes the terminal before it executes sleep: until
            # then the foreground process is a copy of bash (seen on a loaded
            # machine), so wait for the command too.
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if st["foreground_pid"] != st["pid"] and command(st["foreground_pid"]) == b"sleep":
                    break
                d.request("wait_idle", idle_ms=20, timeout_ms=1000)
                st = d.request("status")
            self.assertNotEqual(st["foreground_pid"], st["pid"])
            self.assertEqual(command(st["foreground_pid"]), b"sleep")

    def test_duplicate_id(self):
        with Daemon("--", "cat") as d:
            d.send({"id": 1, "type": "wait_idle", "idle_ms": 100000, "timeout_ms": 5000})
            d.send({"id": 1, "type": "status"})
            r = d.wait_for(lambda m: m.get("type") == "reply", 5)
            self.assertEqual((r["id"], r["kind"]), (1, "protocol"))
            self.assertIn("already in use", r["error"])

    def test_stdin_eof_closes(self):
        code, msgs, _ = run_once(["--", "cat"], '{"id":1,"type":"status"}\n')
        self.assertEqual(code, 0)
        self.assertEqual([m["type"] for m in msgs][:2], ["ready", "reply"])
        self.assertEqual(msgs[-1]["type"], "exit")

    def test_close_kills_stubborn_child(self):
        # A child that ignores SIGTERM and SIGHUP is killed after the grace period.
        with Daemon("--", "sh", "-c", "trap '' TERM HUP INT; echo armed; while :; do sleep 1; done") as d:
            self.assertTrue(d.request("expect", pattern="armed", timeout_ms=10000)["ok"])
            start = time.monotonic()
            c = d.close(timeout=15)
            self.assertEqual(c["signal"], "SIGKILL")
            self.assertLess(time.monotonic() - start, 10)


if __name__ == "__main__":
    unittest.main()
