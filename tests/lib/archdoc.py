"""docs/architecture.md and the daemon's sources, read as data by the tests
that keep the document true (tests/integration/test_layers.py and
test_architecture_doc.py)."""
import fnmatch
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "architecture.md")
DAEMON = os.path.join(ROOT, "daemon")
# Files only tests include, and the generated table: in no layer.
TEST_ONLY = ("test_fakes", "transcript_test_util", "char_width_table")


def doc_text():
    with open(DOC) as f:
        return f.read()


def sections(text):
    """[(title, body)] for each "## " section; the text before the first is titled ""."""
    parts = re.split(r"^## (.*)$", text, flags=re.M)
    out = [("", parts[0])]
    for i in range(1, len(parts), 2):
        out.append((parts[i].strip(), parts[i + 1]))
    return out


def layer_table(text=None):
    """[(layer name, [file patterns])], bottom first, from the document's table.
    A pattern is a file's name without its extension (`terminal.{h,cc}` is
    `terminal`); it may hold a `*`."""
    text = doc_text() if text is None else text
    section = text.split("## The daemon's layers", 1)[1].split("\n## ", 1)[0]
    layers = []
    for row in re.findall(r"^\| ([a-z ]+) \| (.*?) \| .*\|$", section, re.M):
        if row[0] == "layer":
            continue
        names = [re.sub(r"\.(\{h,cc\}|h|cc)$", "", item) for item in re.findall(r"`([^`]+)`", row[1])]
        layers.append((row[0], names))
    return layers


def layer_of(base, layers):
    for i, (_, names) in enumerate(layers):
        if any(fnmatch.fnmatch(base, n) for n in names):
            return i
    return None


def module_of(path):
    """A daemon file's module: its name without the extension (foo.h and foo.cc are one)."""
    return os.path.basename(path).rsplit(".", 1)[0]


def daemon_sources():
    """The daemon's own .h and .cc files: no tests, fuzzers or test helpers."""
    paths = sorted(glob.glob(os.path.join(DAEMON, "*.h")) + glob.glob(os.path.join(DAEMON, "*.cc")))
    return [p for p in paths if not module_of(p).endswith(("_test", "_fuzz")) and module_of(p) not in TEST_ONLY]


def includes(path):
    """The modules a file includes with #include "x.h" (the daemon's own headers)."""
    with open(path) as f:
        return re.findall(r'#include "([^"]+)\.h"', f.read())
