"""scripts/drift.py's own logic, without npm or the suites: release order,
unittest's output, and the table in docs/engines.md kept across runs."""
import os
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

    def test_the_table_widens_by_what_passed_and_keeps_the_rest(self):
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
            f.write("intro\n%s\n%s\nafter\n" % (drift.TABLE_START, drift.TABLE_END))
        try:
            drift.write_table([{"cli": "claude", "version": "2.1.330", "passed": True},
                               {"cli": "claude", "version": "2.1.332", "passed": True},
                               {"cli": "kilo", "version": "7.8.1", "passed": False}], f.name)
            drift.write_table([{"cli": "claude", "version": "2.1.329", "passed": True},
                               {"cli": "codex", "version": "0.171.0", "passed": True}], f.name)
            with open(f.name) as g:
                doc = g.read()
        finally:
            os.unlink(f.name)
        table = drift.read_table(doc)
        self.assertEqual([table["claude"][0], table["claude"][1]], ["2.1.329", "2.1.332"])
        self.assertEqual(table["codex"][:2], ["0.171.0", "0.171.0"])
        self.assertNotIn("kilo", table)  # nothing of Kilo passed: no claim
        self.assertTrue(doc.startswith("intro\n") and doc.endswith("%s\nafter\n" % drift.TABLE_END))


if __name__ == "__main__":
    unittest.main()
