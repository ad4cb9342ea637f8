#!/usr/bin/env python3
"""Writes the reference screens of tests/ref/ from the vs-tmux tests' cases.

Each case of tests/integration/test_screen_vs_tmux.py, test_styles_vs_tmux.py
and test_resize_vs_tmux.py is rendered by tmux, through those tests' own
run_tmux, and written as one JSON file: the bytes the terminal received, the
resizes between them, and what tmux showed (what that test compares:
lines and cursor, styles, or lines, cursor and history). daemon/terminal_ref_test.cc
replays every file through Terminal with no tmux, and
tests/integration/test_ref_files.py checks that the files still hold the
cases' current bytes. Where a vs-tmux test expects xterm's screen instead of
tmux's (test_screen_vs_tmux.NOT_TMUX), the file holds what the test expects,
and says why.

The screens are tmux's, so the version is pinned: with any other tmux this
refuses to run. Run it after changing a case (tests/py tests/ref/generate.py).
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

import test_resize_vs_tmux as resize_cases  # noqa: E402
import test_screen_vs_tmux as screen_cases  # noqa: E402
import test_styles_vs_tmux as styles_cases  # noqa: E402
import tmux  # noqa: E402

# The tmux the files were made with: the one the vs-tmux tests require.
TMUX_VERSION = tmux.REFERENCE_VERSION
OSC_TITLE = "\x1b]2;%s\x07"


def onlcr(text):
    """What the terminal receives when a program writes `text` to a PTY with
    the default output processing (ONLCR: each LF goes out as CR LF)."""
    return text.replace("\n", "\r\n")


def screen_steps(name):
    # `cat` writes the case, then printf the title the test waits for.
    return [{"feed": onlcr(screen_cases.CASES[name]) + OSC_TITLE % "DONE"}]


def styles_steps(name):
    return [{"feed": onlcr(styles_cases.with_markers(styles_cases.CASES[name])) + OSC_TITLE % "DONE"}]


def resize_steps(name):
    # The test's program writes a chunk and a title, then waits for the resize.
    chunks, sizes = resize_cases.CASES[name]
    steps = []
    for i, chunk in enumerate(chunks):
        title = "DONE" if i == len(chunks) - 1 else "STEP%d" % i
        steps.append({"feed": onlcr(chunk) + OSC_TITLE % title})
        if i < len(sizes):
            steps.append({"resize": list(sizes[i])})
    return steps


# Each source: its file, its module, the size its cases start at, and how a
# case becomes steps. The ref files are tests/ref/<kind>/<case>.json.
SOURCES = {
    "screen": ("test_screen_vs_tmux.py", screen_cases, (screen_cases.COLS, screen_cases.ROWS), screen_steps),
    "styles": ("test_styles_vs_tmux.py", styles_cases, (styles_cases.COLS, styles_cases.ROWS), styles_steps),
    "resize": ("test_resize_vs_tmux.py", resize_cases, resize_cases.START, resize_steps),
}


def inputs():
    """{(kind, case): (cols, rows, steps)}: what every ref file must replay,
    computed without tmux (test_ref_files.py compares it with the files)."""
    out = {}
    for kind, (_, module, size, steps) in SOURCES.items():
        for name in module.CASES:
            out[(kind, name)] = (size[0], size[1], steps(name))
    return out


def write_case_files(tmp, texts):
    """{case: text} as files for `cat`, as the vs-tmux tests write them."""
    paths = []
    for name, text in texts.items():
        paths.append(os.path.join(tmp, name))
        with open(paths[-1], "wb") as f:
            f.write(text.encode("utf-8"))
    return paths


def expect_screen(tmp):
    names = list(screen_cases.CASES)
    got = screen_cases.run_tmux(write_case_files(tmp, screen_cases.CASES), tmp)
    out = {}
    for name, (lines, (row, col), visible) in zip(names, got):
        expect = {"lines": lines, "cursor": {"row": row, "col": col, "visible": visible}}
        if name in screen_cases.NOT_TMUX:
            row_index, line, why = screen_cases.NOT_TMUX[name]
            expect["lines"][row_index] = line
            expect["not_tmux"] = "row %d is the test's, not tmux's: %s" % (row_index, why)
        out[name] = expect
    return out


def expect_styles(tmp):
    names = list(styles_cases.CASES)
    texts = {name: styles_cases.with_markers(text) for name, text in styles_cases.CASES.items()}
    got = styles_cases.run_tmux(write_case_files(tmp, texts), tmp)
    return {name: {"styles": rows} for name, rows in zip(names, got)}


def expect_resize(tmp):
    program = os.path.join(tmp, "chunks.py")
    with open(program, "w") as f:
        f.write(resize_cases.PROGRAM)
    out = {}
    for name, (chunks, sizes) in resize_cases.CASES.items():
        paths = resize_cases.write_chunks(tmp, name, chunks)
        lines, (row, col), history = resize_cases.run_tmux(tmp, program, name, paths, sizes)
        out[name] = {"lines": lines, "cursor": {"row": row, "col": col}, "history": history}
    return out


def dumps(doc):
    """JSON with one top-level field, screen line or styled row per line, so
    that a changed screen shows as a readable diff."""
    parts = []
    for key, value in doc.items():
        if isinstance(value, list) and len(value) > 1:
            items = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in value)
            parts.append("%s: [\n  %s\n ]" % (json.dumps(key), items))
        else:
            parts.append("%s: %s" % (json.dumps(key), json.dumps(value, ensure_ascii=False)))
    return "{\n " + ",\n ".join(parts) + "\n}\n"


def write_files(expected):
    for kind, (source, _, _, _) in SOURCES.items():
        folder = os.path.join(HERE, kind)
        os.makedirs(folder, exist_ok=True)
        for old in os.listdir(folder):  # a case removed from the test goes too
            if old.endswith(".json"):
                os.remove(os.path.join(folder, old))
    for (kind, name), (cols, rows, steps) in inputs().items():
        doc = {"source": "tests/integration/" + SOURCES[kind][0], "case": name, "tmux": TMUX_VERSION,
               "cols": cols, "rows": rows, "steps": steps}
        doc.update(expected[kind][name])
        with open(os.path.join(HERE, kind, name + ".json"), "w", encoding="utf-8") as f:
            f.write(dumps(doc))


def main():
    try:
        tmux.require_reference()
    except RuntimeError as e:
        sys.exit("tests/ref/generate.py: %s" % e)
    expected = {}
    for kind, expect in (("screen", expect_screen), ("styles", expect_styles), ("resize", expect_resize)):
        with tempfile.TemporaryDirectory() as tmp:  # a tmux server, its socket and files each
            expected[kind] = expect(tmp)
    write_files(expected)
    print("wrote %d files under %s" % (len(inputs()), HERE))


if __name__ == "__main__":
    main()
