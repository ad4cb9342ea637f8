"""The reference screens (tests/ref/) still hold the vs-tmux tests' cases.

daemon/terminal_ref_test.cc replays the files without tmux; this checks,
without tmux either, that there is one file per case of the vs-tmux tests
and that each holds that case's bytes and resizes as the case now reads. A
case added or changed without running tests/ref/generate.py fails here.
"""
import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "ref"))

import generate  # noqa: E402
import tmux  # noqa: E402


def ref_files():
    """{(kind, case): the file's JSON} for every tests/ref/<kind>/<case>.json."""
    out = {}
    for kind in sorted(os.listdir(generate.HERE)):
        folder = os.path.join(generate.HERE, kind)
        if not os.path.isdir(folder) or kind == "__pycache__":
            continue
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                out[(kind, name[:-len(".json")])] = json.load(f)
    return out


def problems(files, inputs):
    found = []
    for key in sorted(set(inputs) - set(files)):
        found.append("tests/ref/%s/%s.json is missing" % key)
    for key in sorted(set(files) - set(inputs)):
        found.append("tests/ref/%s/%s.json is no vs-tmux case" % key)
    for key in sorted(set(files) & set(inputs)):
        doc, (cols, rows, steps) = files[key], inputs[key]
        if (doc["cols"], doc["rows"], doc["steps"]) != (cols, rows, steps):
            found.append("tests/ref/%s/%s.json does not hold the case's bytes and sizes" % key)
        if doc["tmux"] != generate.TMUX_VERSION:
            found.append("tests/ref/%s/%s.json was made with %s" % (key + (doc["tmux"],)))
    return found


class RefFiles(unittest.TestCase):
    def test_one_file_per_case_with_its_bytes(self):
        self.assertEqual(problems(ref_files(), generate.inputs()), [],
                         "run tests/py tests/ref/generate.py (needs %s)" % generate.TMUX_VERSION)

    def test_a_changed_case_is_seen(self):
        files, inputs = ref_files(), generate.inputs()
        changed = dict(inputs)
        cols, rows, steps = changed[("screen", "wrap")]
        changed[("screen", "wrap")] = (cols, rows, [{"feed": steps[0]["feed"] + "!"}])
        del changed[("styles", "invisible_text")]
        self.assertEqual(problems(files, changed), [
            "tests/ref/styles/invisible_text.json is no vs-tmux case",
            "tests/ref/screen/wrap.json does not hold the case's bytes and sizes"])

    def test_where_the_test_expects_xterm_the_file_says_why(self):
        files = ref_files()
        for name, (row, line, why) in generate.screen_cases.NOT_TMUX.items():
            doc = files[("screen", name)]
            self.assertEqual(doc["lines"][row], line)
            self.assertIn(why, doc["not_tmux"])
        self.assertEqual([k for k, d in files.items() if "not_tmux" in d],
                         [("screen", n) for n in generate.screen_cases.NOT_TMUX])


class ReferenceVersion(unittest.TestCase):
    """The vs-tmux tests refuse a tmux other than the one tests/ref/ pins,
    naming the one found; a fake `tmux` on PATH says each version."""

    def env_with_tmux(self, says):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder, True)
        if says is not None:
            fake = os.path.join(folder, "tmux")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\necho '%s'\n" % says)
            os.chmod(fake, 0o755)
        return {**os.environ, "PATH": folder}

    def test_only_the_pinned_version_passes(self):
        self.assertEqual(generate.TMUX_VERSION, tmux.REFERENCE_VERSION)
        tmux.require_reference(self.env_with_tmux(tmux.REFERENCE_VERSION))
        with self.assertRaisesRegex(RuntimeError, r"the tmux on PATH is 'tmux 3\.4'"):
            tmux.require_reference(self.env_with_tmux("tmux 3.4"))
        with self.assertRaisesRegex(RuntimeError, "the tmux on PATH is missing"):
            tmux.require_reference(self.env_with_tmux(None))

    def test_the_reference_tmux_checks_before_it_starts(self):
        path = os.environ["PATH"]
        os.environ["PATH"] = self.env_with_tmux("tmux 3.2")["PATH"]
        try:
            with self.assertRaisesRegex(RuntimeError, "'tmux 3.2'"):
                tmux.ReferenceTmux(tempfile.gettempdir(), 10, 5)
        finally:
            os.environ["PATH"] = path


if __name__ == "__main__":
    unittest.main()
