"""`output` events at full speed: a program floods the terminal with 3 MB of
the bench's mixed text (colours, CJK, emoji, accents: characters cut by
every PTY read) plus invalid bytes and controls, and the events carry every
byte, in order, each multi-byte character whole.

3 MB keeps the JSON under the 4 MiB the daemon buffers for a slow reader, so
no event may be dropped however loaded the machine is: any difference is a
lost, reordered or garbled byte."""
import base64
import os
import subprocess
import sys
import tempfile
import unittest

from tuiclient import Daemon, ROOT
from test_hostile_output import sanitize

# Invalid UTF-8, a cut character, controls, quotes and U+2028: what the JSON
# string must escape or replace.
ODD_BYTES = (b"\xff\xfe bad \xc3 cut \xe2\x80 \x01\x02\x07\x08\x0c\x7f \"q\" \\ "
             b"\xe2\x80\xa8\xe2\x80\xa9 \xed\xa0\x80 \xf4\x90\x80\x80 end\n")


class OutputEvents(unittest.TestCase):
    def flood(self, tmp, encoding):
        """The text and the odd bytes, through `cat` at full speed; returns
        (the bytes written, the daemon after the exit event)."""
        path = os.path.join(tmp, "text")
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_text.py"), path, "--mb", "3"],
                       check=True)
        with open(path, "ab") as f:
            f.write(ODD_BYTES * 50)
        with open(path, "rb") as f:
            data = f.read()
        # The child waits for a line, so that no byte precedes the subscription.
        d = Daemon("--cols", "120", "--rows", "40", "--", "sh", "-c", 'read x; exec cat "$1"', "sh", path)
        self.addCleanup(d.__exit__)
        r = d.request("subscribe", events=["output"], encoding=encoding)
        self.assertEqual((r["ok"], r["encoding"]), (True, encoding), r)
        d.send({"id": "go", "type": "send", "data": "go\n"})
        d.wait_for(lambda m: m.get("type") == "exit", timeout=300)
        self.assertNotIn("output_dropped", {m.get("type") for m in d.events})
        # More than one event: the text was cut by the reads, characters too.
        self.assertGreater(sum(1 for m in d.events if m.get("type") == "output"), 10)
        return data, d

    # base64: every byte exactly as the program wrote it, invalid ones too.
    def test_base64_carries_every_byte_exactly(self):
        with tempfile.TemporaryDirectory() as tmp:
            data, d = self.flood(tmp, "base64")
            events = [m for m in d.events if m.get("type") == "output"]
            self.assertTrue(all(set(m) == {"type", "data_base64"} for m in events), events[0])
            got = b"".join(base64.b64decode(m["data_base64"]) for m in events)
            # The terminal echoes the line and turns LF into CR LF.
            self.assertTrue(got == b"go\r\n" + data.replace(b"\n", b"\r\n"), "the bytes differ")

    def test_every_byte_arrives_in_order_at_full_speed(self):
        with tempfile.TemporaryDirectory() as tmp:
            data, d = self.flood(tmp, "utf8")
            got = "".join(m["data"] for m in d.events if m.get("type") == "output")
            # The terminal echoes the line and turns LF into CR LF.
            expected = "go\r\n" + sanitize(data.replace(b"\n", b"\r\n"))
            self.assertEqual(len(got), len(expected))
            first = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), None)
            self.assertIsNone(first, "first difference at %s: %r vs %r" % (
                first, got[first - 20:first + 20] if first else "", expected[first - 20:first + 20] if first else ""))


if __name__ == "__main__":
    unittest.main()
