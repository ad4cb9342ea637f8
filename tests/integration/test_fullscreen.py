"""Full-screen programs: the screen model must match what is displayed."""
import os
import tempfile
import unittest

from tuiclient import Daemon


def vim_args(path):
    # vim without user config, swap files or a viminfo, in a 80x24 terminal.
    # ttimeoutlen: with -u NONE vim waits a whole second after Escape to see
    # whether a key sequence follows.
    return ["--cols", "80", "--rows", "24", "--", "vim", "-u", "NONE", "-i", "NONE", "-n",
            "-N", "--noplugin", "--cmd", "set ttimeout ttimeoutlen=10", path]


class Vim(unittest.TestCase):
    def test_edit_and_save(self):
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "f.txt")
        with open(path, "w") as f:
            f.write("first line\nsecond line\n")
        with Daemon(*vim_args(path), env={"TERM": "xterm-256color"}) as d:
            d.request("expect", pattern="second line", timeout_ms=10000)
            s = d.request("screen")
            self.assertTrue(s["alt_screen"], s)
            self.assertEqual(s["lines"][0], "first line")
            self.assertEqual(s["lines"][1], "second line")
            self.assertEqual(s["lines"][2], "~")
            self.assertEqual(s["lines"][22], "~")
            self.assertEqual(s["cursor"]["row"], 0)
            # Append a line with keys; the cursor keys follow vim's DECCKM mode.
            d.request("keys", keys=["Down", "o", "third 🚀 line", "Escape"])
            e = d.request("expect", pattern="third 🚀 line", timeout_ms=5000)
            self.assertTrue(e["ok"], e)
            # The emoji takes two columns, so "line" is columns 9-12: Escape
            # (back in normal mode) leaves the cursor on its 'e', column 12.
            # vim redraws its status line after Escape (the cursor visits row 23
            # meanwhile, and a loaded machine can show that frame): wait for it to
            # settle where it belongs.
            s = d.wait_screen(lambda s: (s["cursor"]["row"], s["cursor"]["col"]) == (2, 12), 5)
            self.assertEqual(s["lines"][:3], ["first line", "second line", "third 🚀 line"])
            self.assertEqual((s["cursor"]["row"], s["cursor"]["col"]), (2, 12))
            d.request("keys", keys=[":wq", "Enter"])
            ex = d.wait_for(lambda m: m.get("type") == "exit", 10)
            self.assertEqual(ex["exit_code"], 0)
            s = d.request("screen")
            self.assertFalse(s["alt_screen"])
        with open(path) as f:
            self.assertEqual(f.read(), "first line\nsecond line\nthird 🚀 line\n")

    def test_resize_redraws(self):
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "g.txt")
        with open(path, "w") as f:
            f.write("".join("row %d\n" % i for i in range(100)))
        with Daemon(*vim_args(path)) as d:
            d.request("expect", pattern="row 22", timeout_ms=10000)
            d.request("resize", cols=40, rows=10)
            e = d.request("expect", pattern=r"row 8\n", timeout_ms=5000)
            self.assertTrue(e["ok"], e)
            d.request("wait_idle", idle_ms=150, timeout_ms=5000)
            s = d.request("screen")
            self.assertEqual(len(s["lines"]), 10)
            self.assertEqual(s["lines"][:9], ["row %d" % i for i in range(9)])
            d.request("keys", keys=[":q!", "Enter"])
            d.wait_for(lambda m: m.get("type") == "exit", 10)


class Less(unittest.TestCase):
    def test_page_down(self):
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "h.txt")
        with open(path, "w") as f:
            f.write("".join("item %03d\n" % i for i in range(200)))
        with Daemon("--cols", "80", "--rows", "10", "--", "less", path,
                    env={"LESS": "", "LESSHISTFILE": "-"}) as d:
            d.request("expect", pattern="item 008", timeout_ms=10000)
            d.request("keys", keys=["PageDown"])
            e = d.request("expect", pattern="item 017", timeout_ms=5000)
            self.assertTrue(e["ok"], e)
            d.request("wait_idle", idle_ms=150, timeout_ms=5000)
            s = d.request("screen")
            self.assertEqual(s["lines"][0], "item 009")
            d.request("keys", keys=["q"])
            d.wait_for(lambda m: m.get("type") == "exit", 10)


if __name__ == "__main__":
    unittest.main()
