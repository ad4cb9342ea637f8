"""Hostile output from the child: none of it may corrupt the JSON stream or
the screen model. Every stdout line is checked to be one JSON object in
valid UTF-8 (tuiclient.parse_line) as it is read."""
import importlib.util
import re
import sys
import unittest

from tuiclient import Daemon, program

HOSTILE_CHILD = program("hostile_child.py")
_spec = importlib.util.spec_from_file_location("hostile_child", HOSTILE_CHILD)
hostile_child = importlib.util.module_from_spec(_spec)  # the expected bytes
_spec.loader.exec_module(hostile_child)


def sanitize(data: bytes) -> str:
    """What the daemon makes of raw bytes: valid UTF-8 kept, every byte of
    an invalid or cut-off sequence one U+FFFD (daemon/utf8.h)."""
    out = []
    i = 0
    while i < len(data):
        b = data[i]
        n = 1 if b < 0x80 else 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        if n:
            try:
                out.append(data[i:i + n].decode("utf-8"))
                i += n
                continue
            except UnicodeDecodeError:
                pass
        out.append("\ufffd")
        i += 1
    return "".join(out)


class HostileOutput(unittest.TestCase):
    def run_case(self, case, *args, cols=80, rows=24):
        """Starts the case, returns (daemon, concatenated output events) once
        END-OF-CASE is on screen. The caller closes the daemon."""
        d = Daemon("--cols", str(cols), "--rows", str(rows), *args, "--",
                   sys.executable, HOSTILE_CHILD, case)
        self.addCleanup(d.__exit__)
        self.assertTrue(d.request("subscribe", events=["output"])["ok"])
        d.send({"id": "go", "type": "send", "data": "go\r"})
        e = d.request("expect", pattern="END-OF-CASE", timeout_ms=120000, wait=130)
        self.assertTrue(e["ok"], e)
        output = "".join(m["data"] for m in d.events if m.get("type") == "output")
        self.check_screen(d, cols, rows)
        return d, output

    def check_screen(self, d, cols, rows):
        s = d.request("screen")
        self.assertEqual((s["cols"], s["rows"], len(s["lines"])), (cols, rows, rows))
        for line in s["lines"]:
            self.assertLessEqual(len(line), cols)
        self.assertTrue(0 <= s["cursor"]["row"] < rows and 0 <= s["cursor"]["col"] <= cols, s["cursor"])
        return s

    def still_serves(self, d):
        st = d.request("status")
        self.assertEqual(st["state"], "ready", st)
        d.request("unsubscribe")
        c = d.close()
        self.assertTrue(c["ok"])
        self.assertEqual(d.proc.wait(10), 0)

    def test_random_bytes(self):
        d, output = self.run_case("random_bytes")
        self.assertIn("END-OF-CASE", d.request("screen")["lines"][0])
        # Every byte arrives in the output events, the terminal turning LF
        # into CR LF, invalid bytes each one U+FFFD.
        raw = hostile_child.RANDOM + hostile_child.RESET + b"END-OF-CASE\r\n"
        expected = "go\r\n" + sanitize(raw.replace(b"\n", b"\r\n"))
        self.assertEqual(len(output), len(expected))
        self.assertTrue(output == expected)
        self.still_serves(d)

    def test_truncated_escape_sequences(self):
        d, _ = self.run_case("truncated_escapes")
        self.assertEqual(d.request("screen")["lines"][0], "END-OF-CASE")
        self.still_serves(d)

    def test_huge_osc_titles(self):
        d, output = self.run_case("huge_osc_title")
        s = d.request("screen")
        self.assertLessEqual(len(s["title"]), 8 << 20)
        self.assertIn("T" * 1000, output)  # the raw event carries it, escaped
        self.still_serves(d)

    def test_megabyte_line_without_newline(self):
        d, output = self.run_case("megabyte_line", "--scrollback", "20000", cols=100)
        self.assertEqual(output.count("y"), 1000000)
        lines = d.request("scrollback")["lines"]
        ys = [l for l in lines if l.startswith("y")]
        self.assertEqual("".join(ys), "y" * 1000000)  # every byte rendered, wrapped at 100
        self.assertEqual(len(ys), 10000)
        self.assertEqual(lines[-1], "END-OF-CASE")
        self.still_serves(d)

    def test_invalid_and_split_utf8(self):
        d, output = self.run_case("utf8")
        text = hostile_child.SPLIT_TEXT.decode()
        self.assertIn(text, output)
        lines = d.request("screen")["lines"]
        self.assertEqual(lines[1], "h\u00e9llo \u4e16 \U0001F680 e\u0301 \u00ff")
        # Invalid bytes become U+FFFD and never eat the letters around them.
        for line in (lines[2], lines[3]):
            self.assertTrue(set("ABCDEFGH") <= set(line), line)
            self.assertIn("\ufffd", line)
        self.assertTrue(set("ABCDEFGH") <= set(output))
        self.still_serves(d)

    def test_alternate_screen_switching(self):
        d, _ = self.run_case("alt_screen")
        s = d.request("screen")
        self.assertFalse(s["alt_screen"])
        lines = d.request("scrollback")["lines"]
        self.assertFalse([l for l in lines if "ALT" in l or l == "alt"], lines)
        text = [l for l in lines if l]
        order = [text.index(x) for x in ("main-1", "main-2", "main-3", "END-OF-CASE")]
        self.assertEqual(order, sorted(order), text)
        self.still_serves(d)

    def test_repeat_before_any_character(self):
        # REP with nothing to repeat (libvterm 0.1.4, used before, looped: the
        # daemon hung on a program's first bytes).
        with Daemon("--", "sh", "-c", "printf '\\033[b\\033[5b'; echo REP-DONE; exec cat") as d:
            self.assertTrue(d.request("expect", pattern="REP-DONE", timeout_ms=10000)["ok"])
            # Nothing to repeat: as in tmux, REP repeats only a character
            # printed just before it.
            self.assertEqual(d.request("screen")["lines"][0], "REP-DONE")
            self.still_serves(d)

    def test_device_queries_are_answered(self):
        d, _ = self.run_case("queries")
        e = d.request("expect", pattern=r"REPLIES:([0-9a-f]*)", timeout_ms=5000)
        replies = bytes.fromhex(e["groups"][0])
        # DSR 5 (status OK), DSR 6 (cursor at row 2, column 1, after the
        # echoed "go"), DA1 and DA2, in order, and nothing else.
        self.assertRegex(replies, re.compile(rb"^\x1b\[0n\x1b\[2;1R\x1b\[\?[0-9;]*c\x1b\[>[0-9;]*c$"))
        self.still_serves(d)


if __name__ == "__main__":
    unittest.main()
