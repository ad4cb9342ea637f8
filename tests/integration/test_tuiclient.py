"""tests/lib/tuiclient.py reads the daemon's pipes with a deadline in two
ways: select() on the pipe, which every test uses on Linux, and a reader
thread per pipe, which Windows needs (its select() takes sockets only). Both
are run here on Linux, so the Windows way is checked where it cannot run."""
import unittest

from tuiclient import Daemon


class PipeReads(unittest.TestCase):
    def check_reads(self, threaded):
        with Daemon("--", "sh", "-c", "read x; echo got-$x; echo oops >&2; read y", threaded_reads=threaded) as d:
            with self.assertRaises(TimeoutError):  # nothing comes: the deadline holds
                d.read_line(0.3)
            d.request("send", data="hi\r")
            s = d.wait_screen(lambda s: "got-hi" in s["lines"], 10)
            self.assertIn("got-hi", s["lines"])
            d.request("send", data="\r")
            exit_event = d.wait_for(lambda m: m.get("type") == "exit", 10)
            self.assertEqual(exit_event["exit_code"], 0)
            d.proc.stdin.close()  # the daemon ends with its input
            with self.assertRaises(EOFError):
                d.read_line(10)
            with self.assertRaises(EOFError):  # and stays at the end
                d.read_line(1)

    def test_select(self):
        self.check_reads(threaded=False)

    def test_reader_threads(self):
        self.check_reads(threaded=True)

    def test_stderr_either_way(self):
        for threaded in (False, True):
            with self.subTest(threaded=threaded):
                # In the error a read raises at the end of stdout.
                with Daemon("--bogus-option", wait_ready=False, threaded_reads=threaded) as d:
                    self.assertEqual(d.read_line(10)["kind"], "usage")
                    with self.assertRaises(EOFError) as raised:
                        d.read_line(10)
                    self.assertIn("unknown option '--bogus-option'", str(raised.exception))
                # What is left once it exited, kept by release().
                d = Daemon("--bogus-option", wait_ready=False, threaded_reads=threaded)
                d.proc.wait(10)
                d.release()
                self.assertIn(b"usage: tuidriver", d.stderr_rest)


if __name__ == "__main__":
    unittest.main()
