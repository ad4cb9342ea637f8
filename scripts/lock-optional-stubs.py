#!/usr/bin/env python3
"""Makes a package-lock.json that `npm install` wrote acceptable to `npm ci`.

Some packages list platform builds as optionalDependencies at versions the
registry does not have (Kilo's, Cline's and Qwen's clipboard for other
platforms; acpx's fs-safe). `npm install` leaves them out of the lock, and
`npm ci` then refuses the lock as out of sync. This enters each missing one
as an optional, platform-bound entry with no tarball: npm ci skips it on
other platforms, and on this one an optional package that cannot be fetched
is skipped too. Usage: scripts/lock-optional-stubs.py path/to/package-lock.json
"""
import json
import re
import sys


def platform_of(name):
    """os, cpu and libc from a platform package's name, as far as it says."""
    n = name.lower()
    os_ = next((o for k, o in (("darwin", "darwin"), ("linux", "linux"), ("win32", "win32"),
                               ("windows", "win32")) if k in n), None)
    cpu = next((c for c in ("arm64", "x64") if re.search(r"\b%s\b" % c, n.replace("-", " "))), None)
    libc = "musl" if "musl" in n else "glibc" if re.search(r"\bgnu\b", n.replace("-", " ")) else None
    return os_, cpu, libc


def main(path):
    with open(path) as f:
        lock = json.load(f)
    pkgs = lock["packages"]
    added = []
    for where, entry in list(pkgs.items()):
        if where == ".." or where.startswith("../"):
            continue  # a linked local package (the repository's root): its own lock covers it
        for dep, version in entry.get("optionalDependencies", {}).items():
            base = (where + "/" if where else "") + "node_modules/" + dep
            if base in pkgs or "node_modules/" + dep in pkgs:
                continue
            stub = {"version": version, "optional": True}
            if entry.get("dev"):
                stub["dev"] = True
            os_, cpu, libc = platform_of(dep)
            if os_:
                stub["os"] = [os_]
            if cpu:
                stub["cpu"] = [cpu]
            if libc:
                stub["libc"] = [libc]
            pkgs["node_modules/" + dep] = stub
            added.append(dep)
    root = pkgs.pop("")
    lock["packages"] = {"": root, **dict(sorted(pkgs.items()))}
    with open(path, "w") as f:
        json.dump(lock, f, indent=2)
        f.write("\n")
    print("%s: %d optional platform packages entered: %s" % (path, len(added), " ".join(added) or "none"))


if __name__ == "__main__":
    main(sys.argv[1])
