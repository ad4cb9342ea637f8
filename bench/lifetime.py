"""Measure: cost over a session's life (issue 28, point 5).

Three questions, each answered by runs in one process, interleaved where two
things are compared:
- history: an ask on a python session holding 100,000 lines of history
  (scrollback 100,000) against the same ask on a fresh session with the same
  scrollback, asked in turn;
- memory: the daemon's resident memory (VmRSS) as a python session with
  scrollback 10,000 prints 100,000 lines per ask, ten times: bounded by the
  scrollback and the largest reply, not by what was printed in all;
- turns: a 1,000-turn python session, each turn a different expression:
  the daemon's VmRSS early in the session against late, and the ask latency
  after the 1,000 turns against a fresh session's, asked in turn (early
  against late in time read the host's drift as growth);
- repeats: 1,000 asks of the same code on a python and on a node session,
  then the same against a fresh session, in turn (node's compile cache once
  grew with each ask: it slowed 0.55 -> 0.76 ms over 2,000 asks).
All of it runs on one CPU (measure, below).
"""
import json
import os
import statistics
import time

HISTORY_LINES = 100_000


def vm_rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def timed_ask(d, rid, prompt, expect):
    """One ask, from writing the request to reading its reply, in ms; None when the reply is wrong."""
    rid = "t%s" % rid  # apart from the client's own numbered requests
    req = (json.dumps({"id": rid, "type": "ask", "prompt": prompt}) + "\n").encode()
    t0 = time.perf_counter_ns()
    os.write(d.proc.stdin.fileno(), req)
    r = d.wait_for(lambda m: m.get("id") == rid)
    ms = (time.perf_counter_ns() - t0) / 1e6
    return ms if r.get("ok") and r.get("text") == expect else None


def ask_in_turn(sessions, rounds):
    """In round i, each of `sessions` ((name, daemon, ask_of)) asks
    ask_of(i) = (rid, prompt, expected), in an order reversed every other
    round, so that the host's drift meets them alike. Returns the ms of the
    right replies by name, and how many were wrong."""
    ms, bad = {name: [] for name, _, _ in sessions}, 0
    for i in range(rounds):
        for name, d, ask_of in sessions if i % 2 else sessions[::-1]:
            t = timed_ask(d, *ask_of(i))
            if t is None:
                bad += 1
            else:
                ms[name].append(t)
    return ms, bad


def print_lines(d, n):
    """Has python print n numbered lines; waits for the ask to finish."""
    r = d.request("ask", wait=660, prompt=f"for i in range({n}): print(i)", timeout_ms=600_000)
    if not r.get("ok"):
        raise RuntimeError("printing %d lines failed: %s" % (n, r))


def measure_history(cfg, daemon, log):
    fresh = daemon([cfg.td, "--scrollback", str(HISTORY_LINES), "python"])
    full = daemon([cfg.td, "--scrollback", str(HISTORY_LINES), "python"])
    try:
        for d in (fresh, full):
            d.wait_for(lambda m: m.get("type") == "ready")
        print_lines(full, HISTORY_LINES)
        held = full.request("scrollback", lines=1)
        ask_of = lambda i: (10 + i, f"{i}*7", str(i * 7))
        ms, bad = ask_in_turn((("fresh", fresh, ask_of), ("history", full, ask_of)), cfg.life_asks)
        res = {**ms, "bad": bad, "history_rows": held.get("first_row")}
        log("lifetime history: fresh p50 %.3f ms, 100k lines p50 %.3f ms" %
            (statistics.median(res["fresh"]), statistics.median(res["history"])))
        return res
    finally:
        fresh.end_input()
        full.end_input()


def measure_memory(cfg, daemon, log):
    d = daemon([cfg.td, "--scrollback", "10000", "python"])
    try:
        d.wait_for(lambda m: m.get("type") == "ready")
        res = {"ready_kb": vm_rss_kb(d.proc.pid)}
        res["after_kb"] = []  # after each ask of 100,000 lines
        for _ in range(10):
            print_lines(d, 100_000)
            res["after_kb"].append(vm_rss_kb(d.proc.pid))
        log("lifetime memory: %s" % res)
        return res
    finally:
        d.end_input()


def timed_asks(d, turns, ask_of, after=lambda i: None):
    """Asks ask_of(i) = (prompt, expected) for i in 1..turns; returns (ms of the right replies, wrong ones)."""
    ms, bad = [], 0
    for i in range(1, turns + 1):
        t = timed_ask(d, i, *ask_of(i))
        if t is None:
            bad += 1
        else:
            ms.append(t)
        after(i)
    return ms, bad


AFTER = 300  # asks compared at the end of a long session


def late_against_fresh(cfg, daemon, d, engine, ask_of, first):
    """AFTER more asks on the long session d (numbered from `first`) and
    AFTER on a fresh session of the same engine, asked in turn."""
    fresh = daemon([cfg.td, engine])
    try:
        fresh.wait_for(lambda m: m.get("type") == "ready")
        ms, bad = ask_in_turn((("late", d, lambda i: (first + i, *ask_of(first + i))),
                               ("fresh", fresh, lambda i: (i + 1, *ask_of(i + 1)))), AFTER)
        return {**ms, "late_bad": bad}
    finally:
        fresh.end_input()


def measure_turns(cfg, daemon, log):
    d = daemon([cfg.td, "python"])
    try:
        d.wait_for(lambda m: m.get("type") == "ready")
        rss = {}
        ms, bad = timed_asks(d, cfg.life_turns, lambda i: (f"{i}*7", str(i * 7)),
                             lambda i: rss.update(early_kb=vm_rss_kb(d.proc.pid)) if i == 100 else None)
        rss["late_kb"] = vm_rss_kb(d.proc.pid)
        res = {"ms": ms, "bad": bad, "turns": cfg.life_turns, **rss,
               **late_against_fresh(cfg, daemon, d, "python", lambda i: (f"{i}*7", str(i * 7)), cfg.life_turns + 1)}
        log("lifetime turns: after %d turns p50 %.3f ms, fresh p50 %.3f ms, VmRSS at 100 %d kB, at %d %d kB" %
            (cfg.life_turns, statistics.median(res["late"]), statistics.median(res["fresh"]), rss["early_kb"],
             cfg.life_turns, rss["late_kb"]))
        return res
    finally:
        d.end_input()


def measure_repeats(cfg, daemon, log, engine):
    d = daemon([cfg.td, engine])
    try:
        d.wait_for(lambda m: m.get("type") == "ready")
        ms, bad = timed_asks(d, cfg.life_turns, lambda i: ("6*7", "42"))
        res = {"ms": ms, "bad": bad,
               **late_against_fresh(cfg, daemon, d, engine, lambda i: ("6*7", "42"), cfg.life_turns + 1)}
        log("lifetime repeats (%s): after %d asks p50 %.3f ms, fresh p50 %.3f ms" %
            (engine, cfg.life_turns, statistics.median(res["late"]), statistics.median(res["fresh"])))
        return res
    finally:
        d.end_input()


def measure(cfg, daemon, log):
    # Every process of these measures (this client, the daemons, their
    # REPLs: children inherit it) on one CPU. Across two CPUs, where the
    # scheduler puts a session's daemon and REPL (together or apart, the
    # other one idle or not) decides a round trip's cost, and it stays so
    # for a pair of sessions: unpinned, the same late-against-fresh question
    # read 0.95x to 1.15x from one pair to the next; on one CPU, 0.98x-1.02x.
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    try:
        return {"history": measure_history(cfg, daemon, log), "memory": measure_memory(cfg, daemon, log),
                "turns": measure_turns(cfg, daemon, log),
                "repeats": {e: measure_repeats(cfg, daemon, log, e) for e in ("python", "node")},
                "one_cpu": True}
    finally:
        os.sched_setaffinity(0, cpus)
