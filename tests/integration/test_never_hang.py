"""Requests that must always get their answer (issue 24): a lone UTF-16
surrogate, a broken line whose id is readable, a misspelt key name, and a
cancelled expect or wait_idle."""
import unittest

from tuiclient import Daemon


def raw_bash():
    return Daemon("--", "bash", "--norc", "--noprofile", env={"PS1": "$ "})


class NeverHang(unittest.TestCase):
    def test_lone_surrogate_is_typed_as_replacement_character(self):
        with raw_bash() as d:
            # Exactly what Node's JSON.stringify writes for "x" + "\ud83d" + "y".
            d.send_raw(b'{"id":"s1","type":"send","data":"echo x\\ud83dy\\r"}\n')
            reply = d.wait_for(lambda m: m.get("id") == "s1", 5)
            self.assertTrue(reply["ok"], reply)
            d.request("expect", pattern="x\ufffdy\n", output_only=True, timeout_ms=5000)
            for key in (b'"keys":["\\udc00"]', b'"data":"\\ud800"'):
                kind = b'"keys"' if key.startswith(b'"keys"') else b'"send_secret"'
                d.send_raw(b'{"id":9,"type":' + kind + b"," + key + b"}\n")
                reply = d.wait_for(lambda m: m.get("id") == 9, 5)
                self.assertTrue(reply["ok"], reply)

    def test_broken_line_with_readable_id_gets_that_id(self):
        with raw_bash() as d:
            d.send_raw(b'{"id":41,"type":"send","data":"\\q"}\n')
            reply = d.wait_for(lambda m: m.get("id") == 41, 5)
            self.assertEqual(reply["kind"], "protocol")
            self.assertIn("invalid JSON", reply["error"])

    def test_misspelt_key_names_are_errors_and_nothing_is_sent(self):
        with raw_bash() as d:
            for bad in ("Ctrl+C", "Enterr", "PageDwn"):
                reply = d.request("keys", keys=["e", "c", "h", "o", " ", "Z", bad])
                self.assertFalse(reply["ok"], bad)
                self.assertEqual(reply["kind"], "protocol")
                self.assertIn("'%s' is not a key name" % bad, reply["error"])
                self.assertIn("C-c", reply["error"])
            screen = d.request("screen")
            self.assertNotIn("echo", "\n".join(screen["lines"]))
            # The aliases are keys: ^C and ctrl-c interrupt a sleep.
            for alias in ("^C", "ctrl-c", "Ctrl-C"):
                d.request("send", data="sleep 30\r")
                d.request("wait_idle", idle_ms=200, timeout_ms=5000)
                self.assertTrue(d.request("keys", keys=[alias])["ok"])
                d.request("expect", pattern=r"\$ $", output_only=True, timeout_ms=5000)

    def test_cancel_ends_a_waiting_expect_and_wait_idle(self):
        with raw_bash() as d:
            # At its prompt first: an interrupt before bash set up its handlers ends it.
            d.request("expect", pattern=r"\$ $", timeout_ms=10000)
            for req in ({"type": "expect", "pattern": "never-printed", "timeout_ms": 600000},
                        {"type": "wait_idle", "idle_ms": 1000, "timeout_ms": 600000}):
                if req["type"] == "wait_idle":
                    # Output flows before the wait begins, so it never sees 1 s of quiet
                    # (a loaded machine may take that long to start the loop).
                    d.request("send", data="while :; do echo busy; sleep 0.1; done\r")
                    d.request("expect", pattern="busy", output_only=True, timeout_ms=30000)
                d.send({"id": 100, **req})
                cancel = d.request("cancel", target=100, wait=5)
                self.assertTrue(cancel["ok"], cancel)
                reply = d.wait_for(lambda m: m.get("id") == 100, 5)
                self.assertEqual(reply["kind"], "cancelled")
                self.assertIn("lines", reply)
            d.request("keys", keys=["C-c"])
            self.assertEqual(d.request("cancel", target=100)["kind"], "error")

    def test_output_only_expect_ignores_the_screen_before(self):
        with raw_bash() as d:
            d.request("send", data="echo ab''cd\r")
            d.request("expect", pattern="abcd", timeout_ms=5000)
            reply = d.request("expect", pattern="abcd", output_only=True, timeout_ms=500)
            self.assertEqual(reply["kind"], "timeout")
            self.assertTrue(d.request("expect", pattern="abcd", timeout_ms=500)["ok"])


if __name__ == "__main__":
    unittest.main()
