"""Issue 47: sessions of one agent CLI started at the same instant in one
folder and one home each get their own answers, for every CLI (the shared
suite is ConcurrentStarts in exact_turns.py). Before, Codex, pi, Cline,
opencode and Kilo read the transcript written first, which was often
another session's. ctest runs each class as its own test
(e2e.concurrent.<Class>), the CPU hog test alone (CMakeLists.txt)."""
import unittest

from exact_turns import ConcurrentStarts

# Each CLI's session ids, as its ExactTurns class checks them.
UUID4 = r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
UUID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"


class Claude(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "claude", UUID4


class Codex(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "codex", r"^[0-9a-f-]{36}$"


class Gemini(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "gemini", UUID


class Opencode(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "opencode", r"^ses_[0-9A-Za-z]+$"


class Kilo(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "kilo", r"^ses_[0-9A-Za-z]+$"


class Pi(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "pi", UUID


class Copilot(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "copilot", UUID4


class Cline(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "cline", r"^\d+_[a-z0-9]+$"


class Qwen(ConcurrentStarts, unittest.TestCase):
    CLI, SESSION_ID = "qwen", UUID


if __name__ == "__main__":
    unittest.main()
