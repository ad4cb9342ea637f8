// What the tuidriver-acp tests share: the agent spawned and driven by the ACP
// SDK's own client, and the agent CLIs' homes on the loopback fake API of
// tests/e2e (their env comes from tests/e2e/homes.py itself, so there is one
// description of how each CLI is pointed at the fake).
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { SERVER_DIR } from './helpers.mjs';

export const BIN_ACP = path.join(SERVER_DIR, 'bin', 'tuidriver-acp.mjs');
export const E2E = path.resolve(SERVER_DIR, '..', 'tests', 'e2e');

/** A fresh temporary directory, removed by `t.after`. */
export function tempDir(t, prefix) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * tuidriver-acp ENGINE ...args, connected to an SDK client app. `permission`
 * answers session/request_permission (default: cancelled); every session/update
 * is kept in `updates`, and the agent's stderr in `stderr()`.
 */
export function startAgent(t, engine, { args = [], env = process.env, cwd } = {}) {
  const child = spawn(process.execPath, [BIN_ACP, engine, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const h = {
    child,
    exited,
    updates: [],
    permissions: [],
    permission: () => ({ outcome: { outcome: 'cancelled' } }),
    stderr: () => stderr,
  };
  const app = acp.client({ name: 'tuidriver-acp-test' })
    .onNotification(acp.methods.client.session.update, ({ params }) => { h.updates.push(params); })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      h.permissions.push(params);
      return h.permission(params);
    });
  const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  h.agent = conn.agent;
  h.init = () => h.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  h.newSession = async (cwdDir, mcpServers = []) => (await h.agent.request(acp.methods.agent.session.new, { cwd: cwdDir, mcpServers })).sessionId;
  h.prompt = (sessionId, text) => h.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
  h.cancel = (sessionId) => h.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  /** The updates of `sessionId` from index `from` on. */
  h.since = (sessionId, from) => h.updates.slice(from).filter((u) => u.sessionId === sessionId).map((u) => u.update);
  /** One turn: its response and the updates it sent. */
  h.turn = async (sessionId, text) => {
    const from = h.updates.length;
    const res = await h.prompt(sessionId, text);
    return { res, updates: h.since(sessionId, from) };
  };
  h.close = async () => {
    child.stdin.end();
    return exited;
  };
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return h;
}

/** The text of a turn's agent_message_chunk updates, concatenated. */
export function answer(updates) {
  return updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => u.content.text).join('');
}

/** The fake model API of tests/e2e on a free loopback port. */
export async function fakeApi(t) {
  const proc = spawn(process.execPath, [path.join(E2E, 'fake_api.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => proc.kill());
  const port = await new Promise((resolve, reject) => {
    proc.stdout.once('data', (d) => resolve(JSON.parse(String(d).split('\n')[0]).port));
    proc.once('exit', () => reject(new Error('fake_api.mjs did not start')));
  });
  const call = async (method, p, body) => {
    const r = await fetch(`http://127.0.0.1:${port}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    return r.json();
  };
  return {
    port,
    /** Queues what the model says in the next turns (objects or plain text). */
    script: (...replies) => call('POST', '/_control/replies', { replies: replies.map((r) => (typeof r === 'string' ? { text: r } : r)) }),
    /** What the model says when nothing is queued; {echo_say: true} answers "said X" to say 'X'. */
    setDefault: (reply) => call('POST', '/_control/default', reply),
    requests: () => call('GET', '/_control/requests'),
    state: () => call('GET', '/_control/state'),
  };
}

/** A home and project for `cli` on the fake API: the env tests/e2e/homes.py gives it. */
export function agentHome(t, cli, port) {
  if (!fs.existsSync(path.join(E2E, 'node_modules'))) {
    throw new Error(`the agent CLIs of tests/e2e are not installed: run (cd tests/e2e && npm ci --ignore-scripts) at the repository root first (docs/server.md, "Installing from this repository")`);
  }
  const dir = tempDir(t, `tuidriver-acp-${cli}-`);
  const home = path.join(dir, 'home');
  const cwd = path.join(dir, 'project');
  fs.mkdirSync(cwd);
  const code = 'import json, sys; sys.path.insert(0, sys.argv[1]); import homes; '
    + 'print(json.dumps(homes.make_env(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))))';
  const env = JSON.parse(execFileSync('python3', ['-c', code, E2E, cli, home, cwd, String(port)], { encoding: 'utf8' }));
  return { home, cwd, env: { ...process.env, ...env } };
}

/** Pids of the processes whose parent is `pid`. */
export function childrenOf(pid) {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((s) => s.trim()).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function until(cond, ms, what) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
