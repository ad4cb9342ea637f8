"""docs/architecture.md's table of the daemon's layers stays true: every
daemon source file is in one layer, and includes only files of its own layer
or below. The table in the document is what is checked, so the two cannot
drift apart."""
import fnmatch
import glob
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "architecture.md")


def layer_table():
    """[(layer name, [file patterns])], bottom first, from the document's table."""
    with open(DOC) as f:
        text = f.read()
    section = text.split("## The daemon's layers", 1)[1].split("\n## ", 1)[0]
    layers = []
    for row in re.findall(r"^\| ([a-z ]+) \| (.*?) \| .*\|$", section, re.M):
        if row[0] in ("layer",):
            continue
        names = []
        for item in re.findall(r"`([^`]+)`", row[1]):
            base = re.sub(r"\.(\{h,cc\}|h|cc)$", "", item)
            names.append(base)
        layers.append((row[0], names))
    return layers


def layer_of(base, layers):
    for i, (_, names) in enumerate(layers):
        if any(fnmatch.fnmatch(base, n) for n in names):
            return i
    return None


class Layers(unittest.TestCase):
    def test_every_file_includes_only_its_layer_or_below(self):
        layers = layer_table()
        self.assertGreaterEqual(len(layers), 6, layers)
        problems = []
        for path in sorted(glob.glob(os.path.join(ROOT, "daemon", "*.h")) + glob.glob(os.path.join(ROOT, "daemon", "*.cc"))):
            base = os.path.basename(path).rsplit(".", 1)[0]
            if base.endswith(("_test", "_fuzz")) or base in ("test_fakes", "transcript_test_util", "char_width_table"):
                continue
            own = layer_of(base, layers)
            if own is None:
                problems.append("%s is in no layer of docs/architecture.md" % os.path.basename(path))
                continue
            with open(path) as f:
                for inc in re.findall(r'#include "([^"]+)\.h"', f.read()):
                    if inc == "char_width_table":
                        continue
                    theirs = layer_of(inc, layers)
                    if theirs is None:
                        problems.append("%s includes %s.h, which is in no layer" % (os.path.basename(path), inc))
                    elif theirs > own:
                        problems.append("%s (%s) includes %s.h (%s, a layer above)" % (
                            os.path.basename(path), layers[own][0], inc, layers[theirs][0]))
        self.assertEqual(problems, [], "\n".join(problems))


if __name__ == "__main__":
    unittest.main()
