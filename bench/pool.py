"""Measure: warm sessions (the shim's SessionPool) against cold spawns.

For python and each agent CLI, bench/pool.mjs times the first reply of a
fresh session: `Session.spawn` + ask (cold) against `SessionPool.acquire` +
ask (warm). The agent CLIs run against the loopback fake API with fresh
homes, as in the agent measure. The shim must be built (npm run build).
"""
import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_pool(cfg, engine, env, prompt, cwd=None):
    argv = ["node", os.path.join(HERE, "pool.mjs"), engine, str(cfg.pool_rounds), prompt]
    if cwd:
        argv.append(cwd)
    out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError("pool.mjs %s failed: %s" % (engine, out.stderr.strip()[-500:]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(cfg, log):
    """Returns {engine: {"cold": [...], "pool": [...], "ready_wait_ms": n} or {"skipped": why}}."""
    if not os.path.exists(os.path.join(ROOT, "dist", "index.js")):
        return {"python": {"skipped": "the shim is not built (npm run build)"}}
    base = dict(os.environ, TUIDRIVER_BIN=cfg.td, TUIDRIVER_ENGINES=os.path.join(ROOT, "engines"))
    res = {"python": run_pool(cfg, "python", base, "1+1")}
    log("pool python: %s" % res["python"])
    import homes
    from agent_harness import FakeApi
    for cli in cfg.agent_clis:
        if not os.path.exists(homes.EXECUTABLES.get(cli, "")):
            res[cli] = {"skipped": "%s is not installed (npm ci --ignore-scripts in tests/e2e)" % cli}
            continue
        api = FakeApi()
        tmp = tempfile.mkdtemp(prefix="tuidriver-bench-pool-%s-" % cli)
        try:
            home, cwd = os.path.join(tmp, "home"), os.path.join(tmp, "project")
            os.makedirs(cwd)
            env = dict(base)
            env.update(homes.make_env(cli, home, cwd, api.port))
            res[cli] = run_pool(cfg, cli, env, "hello", cwd)
            log("pool %s: %s" % (cli, res[cli]))
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
            res[cli] = {"skipped": "failed: %s" % e}
            log("pool %s failed: %s" % (cli, e))
        finally:
            api.stop()
            shutil.rmtree(tmp, ignore_errors=True)
    return res
