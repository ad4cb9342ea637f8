#!/usr/bin/env python3
"""Version drift: each agent CLI's e2e suite against its newest release on
npm, then against the version pinned in tests/e2e/package.json (and, with
--older, the release before the pin), and a matrix of the results. When the
newest installs no executable for this platform, the newest release that
does is tried too ("newest here"); so is, with --older, the newest release
before the pin that does ("older here").

The pins are not touched: other releases are installed into scratch folders
under $TUIDRIVER_DRIFT_DIR (default /tmp/tuidriver-drift) and the suite finds
them through TUIDRIVER_E2E_MODULES (tests/e2e/homes.py). Kept out of
scripts/test.sh, since its result depends on the day.

usage: scripts/drift.sh [--older] [--write-table] [CLI ...]
  CLI: claude codex gemini opencode kilo pi copilot cline qwen (default: all)
  --write-table  widens each engine's cli.verified by the versions that
                 passed, and writes the table in docs/engines.md from them
                 and the pins
Exit status: 0 when every version tried passed (a release that installs no
executable for this platform is shown as "none here": it cannot be tried,
and the release tried in its place must pass), 1 otherwise, 2 on bad usage.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
E2E = os.path.join(ROOT, "tests", "e2e")
sys.path.insert(0, E2E)
os.environ.pop("TUIDRIVER_E2E_MODULES", None)  # homes.MODULES: the pinned install
import homes  # noqa: E402  (where each CLI's executable is in a node_modules)
DOC = os.path.join(ROOT, "docs", "engines.md")
ENGINES = os.path.join(ROOT, "engines")
TABLE_START, TABLE_END = "<!-- drift table: scripts/drift.sh --write-table -->", "<!-- end of drift table -->"

# CLI name (as tests/e2e/homes.py knows it) -> npm package.
PACKAGES = {
    "claude": "@anthropic-ai/claude-code",
    "codex": "@openai/codex",
    "gemini": "@google/gemini-cli",
    "opencode": "opencode-ai",
    "kilo": "@kilocode/cli",
    "pi": "@mariozechner/pi-coding-agent",
    "copilot": "@github/copilot",
    "cline": "cline",
    "qwen": "@qwen-code/qwen-code",
}


def version_key(version):
    """1.10.2 after 1.9.0; a pre-release (1.2.0-beta.1) before its release."""
    core, _, pre = version.partition("-")
    return ([int(p) if p.isdigit() else 0 for p in core.split(".")], pre == "", pre)


def npm_view(package, field):
    out = subprocess.run(["npm", "view", package, field, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("npm view %s %s failed: %s" % (package, field, out.stderr.strip()[-500:]))
    return json.loads(out.stdout)


def releases(package):
    """The package's releases, oldest first, without pre-releases."""
    return sorted((v for v in npm_view(package, "versions") if "-" not in v), key=version_key)


def pinned_version(package):
    with open(os.path.join(E2E, "package.json")) as f:
        return json.load(f)["dependencies"][package]


class NotHere(RuntimeError):
    """The release installs no executable for this platform."""


def modules_for(cli, version, scratch):
    """A node_modules holding `version` of the CLI: the pinned install when it
    is that version, else a scratch folder installed once and then reused."""
    package = PACKAGES[cli]
    pinned = os.path.join(E2E, "node_modules")
    if installed_version(pinned, package) == version:
        return pinned
    folder = os.path.join(scratch, "%s@%s" % (package.replace("/", "+"), version))
    modules = os.path.join(folder, "node_modules")
    if installed_version(modules, package) != version:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "package.json"), "w") as f:
            json.dump({"private": True, "dependencies": {package: version}}, f)
        # --ignore-scripts: the tests run the CLIs' own executables, as CI does.
        out = subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                             cwd=folder, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("npm install %s@%s failed: %s" % (package, version, out.stderr.strip()[-500:]))
    # The executable the tests run is often in a platform package that npm
    # skips without a word when that release has none for this platform.
    executable = os.path.join(modules, os.path.relpath(homes.EXECUTABLES[cli], homes.MODULES))
    if not os.path.exists(executable):
        raise NotHere("%s@%s installs no %s (is its platform package on the registry?)" % (
            package, version, os.path.relpath(executable, modules)))
    return modules


def installed_version(modules, package):
    try:
        with open(os.path.join(modules, package, "package.json")) as f:
            return json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        return None


def run_suite(cli, modules, log_path):
    """The CLI's e2e suite on the CLI in `modules`: (passed, ran, failing tests)."""
    env = dict(os.environ)
    env.setdefault("TUIDRIVER_BIN", os.path.join(ROOT, "build", "tuidriver"))
    env.setdefault("TUIDRIVER_ENGINES", os.path.join(ROOT, "engines"))
    env["PYTHONPATH"] = os.path.join(ROOT, "tests", "lib")
    env["TUIDRIVER_E2E_MODULES"] = modules
    if not os.path.exists(env["TUIDRIVER_BIN"]):
        raise SystemExit("%s is not built: bash scripts/build.sh build" % env["TUIDRIVER_BIN"])
    with open(log_path, "w") as log:
        code = subprocess.run([sys.executable, "-m", "unittest", "test_" + cli], cwd=E2E, env=env,
                              stdout=log, stderr=subprocess.STDOUT).returncode
    with open(log_path) as log:
        ran, failing = parse_unittest(log.read())
    return code == 0, ran, failing


def parse_unittest(text):
    """unittest's output: how many tests ran, and the failing ones as Class.test."""
    failing = re.findall(r"^(?:FAIL|ERROR): (\S+) \(([^)]*)\)", text, re.M)
    ran = re.search(r"^Ran (\d+) tests?", text, re.M)
    return int(ran.group(1)) if ran else 0, ["%s.%s" % (cls.split(".")[-2 if cls.endswith(name) else -1], name)
                                             for name, cls in failing]


def check(cli, older, scratch):
    """Rows of the matrix for one CLI: one per version tried."""
    package = PACKAGES[cli]
    pinned = pinned_version(package)
    # The newest is what `npm install -g` gives a user today: the latest tag.
    newest = npm_view(package, "dist-tags.latest")
    versions = [("newest", newest)]
    here = newest_installable(cli, newest, pinned, scratch)
    if here != newest:
        versions.append(("newest here", here))
    versions.append(("pinned", pinned))
    if older:
        before = [v for v in releases(package) if version_key(v) < version_key(pinned)]
        if before:
            versions.append(("older", before[-1]))
            # As for the newest: a user of this platform updating late gets the
            # release before the pin that installs here (kilo 7.7.5 has no cli-linux-x64).
            older_here = first_installable(cli, reversed(before), scratch)
            if older_here not in (None, before[-1]):
                versions.append(("older here", older_here))
    rows, seen = [], {}
    for role, version in versions:
        if version in seen:  # the newest is the pin
            rows.append(dict(seen[version], role=role))
            continue
        row = {"cli": cli, "role": role, "version": version, "passed": False, "ran": 0, "failing": []}
        log_path = os.path.join(scratch, "logs", "%s@%s.log" % (cli, version))
        row["log"] = log_path
        if os.path.exists(log_path):
            os.unlink(log_path)  # an earlier run's
        try:
            modules = modules_for(cli, version, scratch)
            print("== %s %s (%s): its suite" % (cli, version, role), flush=True)
            row["passed"], row["ran"], row["failing"] = run_suite(cli, modules, log_path)
        except NotHere as e:
            row["not_here"] = True
            row["failing"] = [str(e)]
        except RuntimeError as e:
            row["failing"] = [str(e)]
        if not row["passed"] and not row["failing"]:
            row["failing"] = ["the suite failed before its tests ran: see the log"]
        seen[version] = row
        rows.append(row)
    return rows


def newest_installable(cli, newest, pinned, scratch):
    """The newest release after the pin that installs this platform's
    executable: the latest may not, while its platform package is not
    published yet (kilo 7.8.1 has no cli-linux-x64), and users of this
    platform then get the one before. The pin when none does."""
    later = [v for v in releases(PACKAGES[cli]) if version_key(pinned) < version_key(v) <= version_key(newest)]
    return first_installable(cli, reversed(later), scratch) or pinned


def first_installable(cli, versions, scratch, tries=6):
    """The first of `versions` (at most `tries` of them) whose install holds
    this platform's executable, or None."""
    for version in list(versions)[:tries]:
        try:
            modules_for(cli, version, scratch)
            return version
        except RuntimeError:
            continue
    return None


def print_matrix(rows):
    print("\n%-9s %-11s %-10s %-9s %s" % ("CLI", "which", "version", "result", "failing tests (log)"))
    for r in rows:
        result = "pass" if r["passed"] else "none here" if r.get("not_here") else "FAIL"
        detail = "" if r["passed"] else ", ".join(r["failing"])
        if not r["passed"] and os.path.exists(r["log"]):
            detail += " (%s)" % r["log"]
        shown = result if r.get("not_here") else "%s/%d" % (result, r["ran"])
        print("%-9s %-11s %-10s %-9s %s" % (r["cli"], r["role"], r["version"], shown, detail))


def engine_file(cli, engines):
    return os.path.join(engines, cli + ".json")


def verified_range(cli, engines):
    """The engine file's cli.verified: [oldest, newest], or None."""
    with open(engine_file(cli, engines)) as f:
        return json.load(f).get("cli", {}).get("verified")


def write_table(rows, engines=ENGINES, doc_path=DOC):
    """Widens each engine's cli.verified by the versions that passed (the
    daemon warns outside it), then writes docs/engines.md's table from the
    engine files, the one place the range is kept, and the pins."""
    for cli in PACKAGES:
        passed = [r["version"] for r in rows if r["cli"] == cli and r["passed"]]
        if not passed:
            continue
        old = verified_range(cli, engines) or []
        versions = sorted(passed + old, key=version_key)
        path = engine_file(cli, engines)
        with open(path) as f:
            text = f.read()
        line = '"verified": ["%s", "%s"]' % (versions[0], versions[-1])
        text, found = re.subn(r'"verified": \[[^\]]*\]', line, text)
        if found != 1:
            raise SystemExit("%s: no single cli.verified to widen" % path)
        with open(path, "w") as f:
            f.write(text)
    lines = [TABLE_START, "| CLI | npm package | pinned | oldest verified | newest verified |",
             "|---|---|---|---|---|"]
    for cli, package in PACKAGES.items():
        verified = verified_range(cli, engines)
        if verified:
            lines.append("| %s | `%s` | %s | %s | %s |" % (cli, package, pinned_version(package), verified[0], verified[1]))
    with open(doc_path) as f:
        doc = f.read()
    if TABLE_START not in doc or TABLE_END not in doc:
        raise SystemExit("%s has no drift table (%s ... %s)" % (doc_path, TABLE_START, TABLE_END))
    doc = doc[:doc.index(TABLE_START)] + "\n".join(lines) + "\n" + doc[doc.index(TABLE_END):]
    with open(doc_path, "w") as f:
        f.write(doc)
    print("the engines' cli.verified and the table in %s are written" % os.path.relpath(doc_path, ROOT))


def main(argv):
    flags = [a for a in argv if a.startswith("-")]
    clis = [a for a in argv if not a.startswith("-")] or list(PACKAGES)
    unknown = [a for a in flags if a not in ("--older", "--write-table")] + [c for c in clis if c not in PACKAGES]
    if unknown:
        print("drift.sh: unknown %s\n%s" % (", ".join(unknown), __doc__.split("\n\n")[2]), file=sys.stderr)
        return 2
    scratch = os.environ.get("TUIDRIVER_DRIFT_DIR", "/tmp/tuidriver-drift")
    os.makedirs(os.path.join(scratch, "logs"), exist_ok=True)
    rows = []
    for cli in clis:
        rows += check(cli, "--older" in flags, scratch)
    print_matrix(rows)
    with open(os.path.join(scratch, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    if "--write-table" in flags:
        write_table(rows)
    return 0 if all(r["passed"] or r.get("not_here") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
