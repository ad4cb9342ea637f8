"""The base class of the engine tests (tests/integration/test_bash.py,
test_node.py, test_python.py): one daemon of the class's ENGINE shared by its
tests, started in setUpClass and closed in tearDownClass."""
import shutil
import tempfile
import unittest

from tuiclient import Daemon


class EngineCase(unittest.TestCase):
    ENGINE = None  # the engine's name, set by the subclass

    @classmethod
    def daemon_args(cls):
        """The command line after the engine's name; `cls.tmp` is the class's
        own temporary directory."""
        return []

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="tuidriver-%s-" % cls.ENGINE)
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)
        cls.d = Daemon(cls.ENGINE, *cls.daemon_args())

    @classmethod
    def tearDownClass(cls):
        cls.d.close()

    def ask_ok(self, prompt, timeout_ms=30000):
        """The text of an ask that must succeed."""
        r = self.d.ask(prompt, timeout_ms=timeout_ms)
        self.assertTrue(r["ok"], r)
        return r["text"]
