"""Kilo Code, the genuine CLI (@kilocode/cli 7.7.7: 7.8.1's linux-x64 build
is not in the registry), driven through tuidriver against the fake API
through its own provider configuration (tests/e2e/homes.py). Kilo is a fork
of opencode: the same TUI, permission box and SQLite session store, in
~/.config/kilo and ~/.local/share/kilo."""
import unittest

from agent_harness import AgentLifecycle, AgentTurns, RowStreaming
from exact_turns import ExactTurns
from test_opencode import OpencodeLike


class Kilo(AgentTurns, RowStreaming, unittest.TestCase):
    CLI = "kilo"
    CHROME = ("┃", "▣", "esc interrupt", "ctrl+p commands")


class KiloExact(OpencodeLike, ExactTurns, unittest.TestCase):
    CLI = "kilo"
    DATABASE = ".local/share/kilo/kilo.db"
    REJECT_ASKS_WHY = True


class KiloLifecycle(AgentLifecycle, unittest.TestCase):
    CLI = "kilo"
    CLI_PROCESSES = 1  # kilo


if __name__ == "__main__":
    unittest.main()
