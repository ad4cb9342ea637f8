"""scripts/drift.py's own logic, without npm or the suites: release order,
unittest's output, and the table in docs/engines.md kept across runs."""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import drift  # noqa: E402


class DriftTest(unittest.TestCase):
    def test_releases_sort_as_numbers_and_a_prerelease_before_its_release(self):
        versions = ["1.10.0", "1.9.3", "2.0.0-beta.1", "2.0.0", "1.9.10"]
        self.assertEqual(sorted(versions, key=drift.version_key),
                         ["1.9.3", "1.9.10", "1.10.0", "2.0.0-beta.1", "2.0.0"])

    def test_failing_tests_are_read_from_both_forms_of_unittest_output(self):
        text = ("ERROR: test_a (test_kilo.Kilo.test_a)\n"      # Python 3.11+
                "FAIL: test_b (test_kilo.KiloExact)\n"         # older Pythons
                "----\nRan 12 tests in 3.2s\n\nFAILED (failures=1, errors=1)\n")
        self.assertEqual(drift.parse_unittest(text), (12, ["Kilo.test_a", "KiloExact.test_b"]))
        self.assertEqual(drift.parse_unittest("Traceback ...\nSystemExit: not installed\n"), (0, []))

    def test_the_newest_that_installs_here_is_found_when_the_latest_does_not(self):
        installable = {"7.7.9", "7.7.7"}

        def modules_for(cli, version, scratch):
            if version not in installable:
                raise RuntimeError("%s installs no executable" % version)
            return "/modules"
        saved = drift.releases, drift.modules_for
        drift.releases = lambda package: ["7.7.5", "7.7.7", "7.7.9", "7.8.1", "7.9.0"]
        drift.modules_for = modules_for
        try:
            self.assertEqual(drift.newest_installable("kilo", "7.8.1", "7.7.7", "/scratch"), "7.7.9")
            installable.discard("7.7.9")
            self.assertEqual(drift.newest_installable("kilo", "7.8.1", "7.7.7", "/scratch"), "7.7.7")
            installable.add("7.8.1")
            self.assertEqual(drift.newest_installable("kilo", "7.8.1", "7.7.7", "/scratch"), "7.8.1")
        finally:
            drift.releases, drift.modules_for = saved

    def test_a_release_with_no_executable_here_is_shown_so_and_the_older_that_has_one_is_found(self):
        def modules_for(cli, version, scratch):
            if version != "7.7.2":
                raise drift.NotHere("%s installs no executable" % version)
            return "/modules"
        saved = drift.modules_for
        drift.modules_for = modules_for
        try:
            self.assertEqual(drift.first_installable("kilo", ["7.7.5", "7.7.2", "7.0.33"], "/scratch"), "7.7.2")
            self.assertIsNone(drift.first_installable("kilo", ["7.7.5"], "/scratch"))
        finally:
            drift.modules_for = saved
        rows = [{"cli": "kilo", "role": "newest", "version": "7.8.1", "passed": False, "ran": 0, "not_here": True,
                 "failing": ["no executable"], "log": "/nonexistent"},
                {"cli": "kilo", "role": "newest here", "version": "7.7.7", "passed": True, "ran": 26,
                 "failing": [], "log": "/nonexistent"}]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            drift.print_matrix(rows)
        self.assertIn("kilo      newest      7.8.1      none here no executable", out.getvalue())
        self.assertIn("kilo      newest here 7.7.7      pass/26", out.getvalue())

    def test_the_engines_ranges_widen_by_what_passed_and_the_table_follows(self):
        tmp = tempfile.mkdtemp()
        engines, doc_path = os.path.join(tmp, "engines"), os.path.join(tmp, "engines.md")
        shutil.copytree(drift.ENGINES, engines)
        with open(doc_path, "w") as f:
            f.write("intro\n%s\nstale rows\n%s\nafter\n" % (drift.TABLE_START, drift.TABLE_END))
        pinned = drift.verified_range("claude", engines)
        try:
            drift.write_table([{"cli": "claude", "version": "99.0.0", "passed": True},
                               {"cli": "kilo", "version": "99.0.0", "passed": False}], engines, doc_path)
            drift.write_table([{"cli": "claude", "version": "0.0.1", "passed": True}], engines, doc_path)
            self.assertEqual(drift.verified_range("claude", engines), ["0.0.1", "99.0.0"])
            # Nothing of Kilo passed: its range stays as it was.
            self.assertEqual(drift.verified_range("kilo", engines), drift.verified_range("kilo", drift.ENGINES))
            with open(doc_path) as f:
                doc = f.read()
            with open(os.path.join(engines, "claude.json")) as f:
                json.load(f)  # still JSON
        finally:
            shutil.rmtree(tmp)
        pin = drift.pinned_version("@anthropic-ai/claude-code")
        self.assertIn("| claude | `@anthropic-ai/claude-code` | %s | 0.0.1 | 99.0.0 |" % pin, doc)
        self.assertNotIn("stale rows", doc)
        self.assertEqual(len([l for l in doc.splitlines() if l.startswith("| ") and "`" in l]), len(drift.PACKAGES))
        self.assertTrue(doc.startswith("intro\n") and doc.endswith("%s\nafter\n" % drift.TABLE_END))
        self.assertIsNotNone(pinned)


if __name__ == "__main__":
    unittest.main()
