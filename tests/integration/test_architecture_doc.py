"""docs/architecture.md stays true: the files, `Class::Method`s, names and
request types it names exist, and what it says of the clock, the timed parts
and the test beside each file holds. Pure Python, no daemon: the day the
document and the code part, this fails (issue 44). The layer table has its
own test, test_layers.py."""
import glob
import json
import os
import re
import unittest

from archdoc import DAEMON, ROOT, daemon_sources, doc_text, includes, layer_table, module_of, sections

# daemon/*.cc files with no <name>_test.cc beside them, and why: where they
# are tested instead. The document's "Tests" section names this list.
EXEMPT = {
    "main.cc": "the binary's entry point: every test in tests/integration/ runs it",
    "options.cc": "the command line: tests/integration/test_protocol.py (--list-*, usage errors) and every "
                  "integration test's command line",
    "session.cc": "the POSIX loop (fds, signals, the clock): the integration tests drive it through the binary",
    "session_common.cc": "what both loops share: tests/integration/test_protocol.py (an over-long line, "
                         "request framing) and the other integration tests",
    "session_windows.cc": "the Windows loop: tests/windows/test_wine.py, under Wine",
    "conpty_process.cc": "the Windows PTY: tests/windows/test_wine.py, under Wine",
    "platform_linux.cc": "one of platform.h's files: platform_test.cc tests platform.h on the OS it runs on",
    "platform_darwin.cc": "one of platform.h's files: platform_test.cc tests platform.h on the OS it runs on",
    "platform_windows.cc": "one of platform.h's files: tests/windows/test_wine.py, under Wine",
    "grid_reflow.cc": "Grid's resize, apart from grid.cc: grid_test.cc, terminal_test.cc and "
                      "tests/integration/test_resize_vs_tmux.py",
    "sqlite_reader.cc": "through its one user: transcript_opencode_test.cc writes a database as opencode does",
    "transcript_formats.cc": "the format table and the formats' shared helpers: transcript_test.cc and each "
                             "format's test",
    "transcript_jsonl.cc": "the JSONL formats' reader: transcript_claude_test.cc, transcript_codex_test.cc and "
                           "the other JSONL formats' tests",
}

# Where a name without a folder lives, by its extension.
HOMES = {
    "h": ["daemon"], "cc": ["daemon"],
    "ts": ["ts-shim/src", "ts-shim/test"], "mts": ["ts-shim/src"],
    "mjs": ["server/src", "server/bin"],
    "py": ["tests/integration", "tests/lib", "engines", "bench"],
    "json": ["engines"], "md": ["docs"],
}
TOP = ("daemon", "docs", "tests", "ts-shim", "server", "engines", "bench", "scripts")
SOURCE_DIRS = ["daemon", "ts-shim/src", "server/src"]


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def without_comments(code):
    """C++ and JavaScript without // and /* */ comments: a name only a comment
    mentions does not count."""
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    return re.sub(r"(?<![:\"'])//.*", "", code)


def code_files(dirs, exclude_tests=True):
    out = []
    for d in dirs:
        for ext in ("h", "cc", "ts", "mts", "mjs"):
            out += glob.glob(os.path.join(ROOT, d, "*." + ext))
    if exclude_tests:
        out = [p for p in out if not re.search(r"_(test|fuzz)\.cc$", p)]
    return sorted(out)


def backticked(text):
    return re.findall(r"`([^`\n]+)`", text)


def sentences(text):
    """The document's sentences, white space folded. A paragraph, a list item
    and a table row each end one; within them a sentence ends at a period
    before a capital, a backtick or a parenthesis."""
    blocks = re.split(r"\n\s*\n|\n(?=\s*(?:- |\d+\. |\|))", text)
    return [s for b in blocks for s in re.split(r"(?<=[.])\s+(?=[A-Z`(])", " ".join(b.split())) if s]


def expand_braces(name):
    m = re.search(r"\{([^}]*)\}", name)
    if not m:
        return [name]
    return [alt for part in m.group(1).split(",")
            for alt in expand_braces(name[:m.start()] + part + name[m.end():])]


def is_path(token):
    if " " in token or token.startswith(("{", "-", "[")):
        return False
    return bool(re.search(r"\.(h|cc|ts|mts|mjs|js|py|json|md|\{h,cc\})$", token) or token.endswith("/")
                or token.split("/")[0] in TOP and "/" in token)


def named_paths(text):
    """[(section title, path)] for every file or folder the document names:
    backticked, or written bare with a top folder (docs/protocol.md)."""
    found = []
    for title, body in sections(text):
        found += [(title, t) for t in backticked(body) if is_path(t)]
        prose = re.sub(r"`[^`\n]*`", " ", body)
        found += [(title, p) for p in re.findall(r"(?<![\w/.-])((?:%s)/[\w./*{},-]*[\w/*}])" % "|".join(TOP), prose)]
    return found


def resolves(title, name):
    """Whether each of `name`'s alternatives matches a file, where the
    document means it: a bare name by its extension, a path from the top, or
    in the servers' section from server/."""
    for alt in expand_braces(name):
        if "/" in alt.rstrip("/"):
            bases = ["."] + (["server"] if title.startswith("The servers") else [])
        elif alt.endswith("/"):
            bases = ["."] + (["server"] if title.startswith("The servers") else [])
        else:
            bases = HOMES.get(alt.rsplit(".", 1)[-1], [])
        if not any(glob.glob(os.path.join(ROOT, b, alt)) for b in bases):
            return False
    return True


def class_body(name, code):
    """The text between the braces of `class name`, `struct name` or `enum
    (class) name` in `code`, or None."""
    m = re.search(r"\b(?:class|struct|enum class|enum)\s+%s\b(?!::)[^;{()]*\{" % re.escape(name), code)
    if not m:
        return None
    depth, i = 1, m.end()
    while depth and i < len(code):
        depth += {"{": 1, "}": -1}.get(code[i], 0)
        i += 1
    return code[m.end():i - 1]


def request_types():
    return set(re.findall(r'\{"(\w+)", RequestType::k', read(os.path.join(DAEMON, "request.cc"))))


def message_types():
    """The "type" of every line the daemon sends (messages.cc)."""
    text = read(os.path.join(DAEMON, "messages.cc"))
    return set(re.findall(r'Add\("type", "(\w+)"\)', text) + re.findall(r'\{"type":"(\w+)"', text))


def error_kinds():
    return set(re.findall(r'\{ErrorKind::k\w+, "(\w+)"\}', read(os.path.join(DAEMON, "error_kind.cc"))))


def request_fields():
    """Every field some request type may carry (request.cc's table)."""
    rows = re.findall(r'\{"\w+", RequestType::k\w+, \{([^}]*)\}', read(os.path.join(DAEMON, "request.cc")))
    return {f for row in rows for f in re.findall(r'"(\w+)"', row)}


def engine_schema():
    with open(os.path.join(ROOT, "engines", "schema.json")) as f:
        return json.load(f)


def engine_field(schema, dotted):
    """The schema of an engine file's field `a.b` (following $refs), or None."""
    node = schema
    for key in dotted.split("."):
        while "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        node = node.get("properties", {}).get(key)
        if node is None:
            return None
    return node


def engine_keys(node):
    """Every property name anywhere in the engine schema."""
    if isinstance(node, dict):
        return set(node.get("properties", {})) | {k for v in node.values() for k in engine_keys(v)}
    if isinstance(node, list):
        return {k for v in node for k in engine_keys(v)}
    return set()


def missing_tests():
    """daemon/*.cc with no <name>_test.cc beside them."""
    out = set()
    for path in glob.glob(os.path.join(DAEMON, "*.cc")):
        base = module_of(path)
        if not base.endswith(("_test", "_fuzz")) and not os.path.exists(os.path.join(DAEMON, base + "_test.cc")):
            out.add(base + ".cc")
    return out


def exemption_problems(missing, exempt):
    """What is wrong between the files that have no test and the list that
    excuses them: a file with neither, an entry for a file that is gone or
    has a test now, an entry without a reason."""
    problems = ["daemon/%s has no %s_test.cc and no entry in EXEMPT" % (f, f[:-3]) for f in sorted(missing - set(exempt))]
    for f, why in sorted(exempt.items()):
        if not os.path.exists(os.path.join(DAEMON, f)):
            problems.append("EXEMPT lists daemon/%s, which does not exist" % f)
        elif f not in missing:
            problems.append("EXEMPT lists daemon/%s, which has a test beside it now" % f)
        if not why.strip():
            problems.append("EXEMPT gives no reason for daemon/%s" % f)
        for named in re.findall(r"[\w/]+\.(?:cc|py)\b", why):
            homes = ["."] if "/" in named else ["daemon", "tests/integration"]
            if not any(os.path.exists(os.path.join(ROOT, h, named)) for h in homes):
                problems.append("EXEMPT's reason for daemon/%s names %s, which does not exist" % (f, named))
    return problems


def files_reading(pattern):
    """The daemon's own files (not clock.h, not tests) whose code matches `pattern`."""
    return {os.path.basename(p) for p in code_files(["daemon"])
            if os.path.basename(p) != "clock.h" and re.search(pattern, without_comments(read(p)))}


def the_sentence(text, marker):
    found = [s for s in sentences(text) if marker in s]
    assert len(found) == 1, "docs/architecture.md should say it in one sentence with %r: %r" % (marker, found)
    return found[0]


class ArchitectureDoc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.text = doc_text()
        cls.daemon_code = {os.path.basename(p): without_comments(read(p)) for p in code_files(["daemon"])}
        cls.all_code = "\n".join(without_comments(read(p)) for p in code_files(SOURCE_DIRS))

    def test_every_file_it_names_exists(self):
        named = named_paths(self.text)
        self.assertGreater(len(named), 100, "the document names far more files than this: is the parsing broken?")
        bad = sorted({"%s (in %r)" % (n, t or "the introduction") for t, n in named if not resolves(t, n)})
        self.assertEqual(bad, [], "named in docs/architecture.md but not found:\n" + "\n".join(bad))

    def test_every_layer_entry_names_a_file(self):
        modules = {module_of(p) for p in glob.glob(os.path.join(DAEMON, "*.h")) + glob.glob(os.path.join(DAEMON, "*.cc"))}
        bad = ["%s (layer %s)" % (n, layer) for layer, names in layer_table(self.text)
               for n in names if not any(re.fullmatch(n.replace("*", ".*"), m) for m in modules)]
        self.assertEqual(bad, [], "layer table entries that name no daemon file:\n" + "\n".join(bad))

    def test_every_class_method_it_names_is_in_the_sources(self):
        pairs = sorted(set(re.findall(r"\b([A-Z]\w*)::(~?\w+)", self.text)))
        self.assertGreater(len(pairs), 20, pairs)
        code = "\n".join(self.daemon_code.values())
        bad = []
        for cls, member in pairs:
            if re.search(r"\b%s::%s\b" % (cls, member), code):
                continue  # defined out of line, or used so
            if re.search(r"\busing\s+%s\s*=\s*std::" % cls, code):
                continue  # an alias of a standard type (TimePoint): its members are the library's
            body = class_body(cls, code)
            if body is None or not re.search(r"\b%s\b" % re.escape(member), body):
                bad.append("%s::%s" % (cls, member))
        self.assertEqual(bad, [], "named in docs/architecture.md but not in daemon/:\n" + "\n".join(bad))

    def test_every_class_and_function_name_it_names_is_in_the_sources(self):
        names = set()
        for t in backticked(self.text):
            m = re.fullmatch(r"([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*|[a-z]+[A-Z][A-Za-z0-9]*)(\(\))?", t)
            if m:
                names.add(m.group(1))
        self.assertGreater(len(names), 40, names)
        bad = sorted(n for n in names if not re.search(r"\b%s\b" % n, self.all_code))
        self.assertEqual(bad, [], "named in docs/architecture.md but in no source:\n" + "\n".join(bad))

    def test_shim_and_server_methods_it_names_exist(self):
        pairs = set(re.findall(r"`([A-Z]\w+)\.([a-z]\w*)`", self.text))
        self.assertTrue(pairs)
        bad = []
        for cls, method in sorted(pairs):
            homes = [p for p in code_files(["ts-shim/src", "server/src"]) if re.search(r"\bclass %s\b" % cls, read(p))]
            if not any(re.search(r"\b%s\s*\(" % method, class_body(cls, without_comments(read(p))) or "") for p in homes):
                bad.append("%s.%s" % (cls, method))
        self.assertEqual(bad, [], "named in docs/architecture.md but not in the shim or server:\n" + "\n".join(bad))

    def test_every_request_type_it_names_is_in_the_request_table(self):
        table, messages = request_types(), message_types()
        self.assertIn("ask", table)
        named, sent, folded = set(), set(), " ".join(self.text.split())
        for lst in re.findall(r"((?:`\w+`(?:,? and |,? or |, ))*`\w+`) requests?\b", folded):
            named.update(re.findall(r"`(\w+)`", lst))
        named.update(re.findall(r"\brequests? `(\w+)`", folded))
        for snippet in backticked(self.text):
            if snippet.startswith("{") and '"type"' in snippet:
                obj = json.loads(snippet)
                (sent if "ok" in obj else named).add(obj["type"])
        sent.update(re.findall(r"`(\w+)` (?:lines?|events?)\b", folded))
        self.assertGreaterEqual(len(sent), 2, sent)
        self.assertGreaterEqual(len(named), 5, named)
        self.assertEqual(sorted(named - table), [], "request types docs/architecture.md names that daemon/request.cc's "
                         "table lacks (it has %s)" % sorted(table))
        self.assertEqual(sorted(sent - messages), [], "line types docs/architecture.md names that daemon/messages.cc "
                         "never sends (it sends %s)" % sorted(messages))

    def test_every_error_kind_and_wire_name_it_names_exists(self):
        folded = " ".join(self.text.split())
        kinds = set(re.findall(r"`(\w+)` (?:reply|one)\b", folded))
        self.assertGreaterEqual(len(kinds), 2, kinds)
        self.assertEqual(sorted(kinds - error_kinds()), [], "error kinds docs/architecture.md names that "
                         "daemon/error_kind.cc's table lacks (it has %s)" % sorted(error_kinds()))
        # A snake_case name is a name on the wire or in an engine file (or a
        # module of the layer table): a renamed one leaves the document behind.
        known = (request_types() | message_types() | error_kinds() | request_fields()
                 | engine_keys(engine_schema()) | {module_of(p) for p in code_files(["daemon"])})
        names = {t for t in backticked(self.text) if re.fullmatch(r"[a-z]+(?:_[a-z0-9]+)+", t)}
        self.assertGreaterEqual(len(names), 8, names)
        self.assertEqual(sorted(names - known), [], "snake_case names in docs/architecture.md that are no request "
                         "or line type, error kind, request field, engine field or daemon module")

    def test_every_engine_field_it_names_is_in_the_schema(self):
        dotted = {t for t in backticked(self.text) if re.fullmatch(r"[a-z_]+\.[a-z_]+", t) and not is_path(t)}
        self.assertGreaterEqual(len(dotted), 3, dotted)
        schema = engine_schema()
        bad = sorted(d for d in dotted if engine_field(schema, d) is None)
        self.assertEqual(bad, [], "engine fields docs/architecture.md names that engines/schema.json lacks")
        modes = engine_field(schema, "submit.mode")["enum"]
        said = set(re.findall(r"`([a-z]+)`", the_sentence(self.text, "(`submit.mode`:")))
        self.assertEqual(sorted(said), sorted(modes), "the submit modes, each with how it is shaped")

    def test_a_test_beside_each_file_or_a_reason(self):
        tests_section = dict(sections(self.text))["Tests"]
        self.assertIn("`EXEMPT`", tests_section)
        self.assertIn("`tests/integration/test_architecture_doc.py`", tests_section)
        problems = exemption_problems(missing_tests(), EXEMPT)
        self.assertEqual(problems, [], "\n".join(problems))

    def test_the_exemption_check_sees_each_kind_of_drift(self):
        missing = {"a.cc", "b.cc"}
        self.assertEqual(exemption_problems(missing, {"a.cc": "why"}),
                         ["daemon/b.cc has no b_test.cc and no entry in EXEMPT",
                          "EXEMPT lists daemon/a.cc, which does not exist"])
        self.assertEqual(exemption_problems(set(), {"ask.cc": "why"}),
                         ["EXEMPT lists daemon/ask.cc, which has a test beside it now"])
        self.assertEqual(exemption_problems({"main.cc"}, {"main.cc": " "}), ["EXEMPT gives no reason for daemon/main.cc"])
        self.assertEqual(exemption_problems({"main.cc"}, {"main.cc": "in main_test.cc and tests/integration/test_x.py; "
                                                                    "test_protocol.py"}),
                         ["EXEMPT's reason for daemon/main.cc names main_test.cc, which does not exist",
                          "EXEMPT's reason for daemon/main.cc names tests/integration/test_x.py, which does not exist"])

    def test_the_files_it_says_read_the_clock_are_the_ones_that_do(self):
        said = set(re.findall(r"`(\w+\.cc)`", the_sentence(self.text, "`Clock::now()`")))
        do = files_reading(r"Clock::now\(\)|steady_clock|high_resolution_clock|CLOCK_MONOTONIC")
        self.assertEqual(sorted(said), sorted(do), "the files that read the session's clock")
        said = set(re.findall(r"`(\w+\.cc)`", the_sentence(self.text, "wall-clock")))
        do = files_reading(r"system_clock|CLOCK_REALTIME|\btime\((?:nullptr|NULL|0)\)|gettimeofday")
        self.assertEqual(sorted(said), sorted(do), "the files that read the wall-clock time")

    def test_every_reader_of_the_session_clock_goes_through_clock_h(self):
        # "The one clock": a file that named std::chrono's clock itself could
        # be given another one without the document or the tests noticing.
        bypass = files_reading(r"steady_clock|high_resolution_clock|CLOCK_MONOTONIC")
        self.assertEqual(sorted(bypass), [], "read the clock around clock.h's Clock")

    def test_only_the_files_it_says_include_the_pty(self):
        said = set(re.findall(r"`(\w+\.h)`", the_sentence(self.text, "includes `pty_process.h`"))) - {"pty_process.h"}
        do = {os.path.basename(p) for p in daemon_sources()
              if module_of(p) != "pty_process" and "pty_process" in includes(p)}
        self.assertEqual(sorted(said), sorted(do), "the daemon's files that include pty_process.h")

    def test_the_tests_it_says_start_the_binary_are_the_ones_that_do(self):
        said = set(re.findall(r"`(test_\w+\.py)`", the_sentence(self.text, "start the binary on their own")))
        do = {os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "tests", "integration", "test_*.py"))
              if re.search(r"subprocess\.\w+\(\s*\[[^\]]*\bBIN\b", read(p))}
        self.assertEqual(sorted(said), sorted(do), "the integration tests that start the binary themselves")

    def test_the_parts_it_says_are_timed_have_update_and_next_wakeup(self):
        code = "\n".join(v for k, v in self.daemon_code.items() if k.endswith(".h"))
        said = set()
        for s in sentences(self.text):
            if "`Update(..., now)`" in s and "`next_wakeup()`" in s:
                said.update(t for t in backticked(s) if re.fullmatch(r"[A-Z]\w+", t) and class_body(t, code) is not None)
        self.assertGreaterEqual(len(said), 5, said)
        bad = sorted(c for c in said if not re.search(r"\bUpdate\(", class_body(c, code))
                     or not re.search(r"\bnext_wakeup\(\)", class_body(c, code)))
        self.assertEqual(bad, [], "said to have Update(..., now) and next_wakeup() but do not:\n" + "\n".join(bad))


if __name__ == "__main__":
    unittest.main()
