#!/usr/bin/env node
// A bounded load test of tuidriver-serve on loopback (not part of npm test):
//   node test/load.mjs [--sessions 50] [--clients 200] [--seconds 60]
// Starts the server (the bin, as its own process), SESSIONS programs that each print a
// numbered line every 50 ms for SECONDS, and CLIENTS WebSocket clients spread over
// them: half attach at once, half at random moments (a replay under load), and every
// fourth of those reconnects once midway. At the end each client's last connection
// must hold every line of its session exactly once, in order, and as many characters
// as the session produced. Prints the server's peak memory and the totals; exits 1 on
// any mismatch.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { BIN_SERVE, waitForLine } from './helpers.mjs';

const { values } = parseArgs({ options: { sessions: { type: 'string' }, clients: { type: 'string' }, seconds: { type: 'string' } } });
const SESSIONS = Number(values.sessions ?? 50);
const CLIENTS = Number(values.clients ?? 200);
const SECONDS = Number(values.seconds ?? 60);
const TOKEN = 'load-test-token-0123456789';

// Perl: small, and a 50 ms sleep without a fork.
const PROGRAM = `$|=1; $e=time+${SECONDS}; $i=0; while (time < $e) { print "n=$i\\n"; $i++; select(undef,undef,undef,0.05) } print "DONE $i\\n"; sleep 3600`;

function rssKiB(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

async function api(url, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.error}`);
  return json;
}

/** One client: attaches `sessionId`; `text` is what its current connection received. */
function connectClient(url, sessionId) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const c = { ws, text: '', frames: 0, errors: [] };
    ws.on('open', () => ws.send(JSON.stringify({ type: 'attach', session_id: sessionId })));
    ws.on('message', (d, binary) => {
      if (binary) {
        c.text += d.subarray(1).toString('utf8');
        c.frames++;
      } else {
        const m = JSON.parse(d.toString('utf8'));
        if (m.type === 'error') c.errors.push(m.error);
        if (m.type === 'live') resolve(c);
      }
    });
    ws.on('error', reject);
  });
}

function check(c, produced) {
  const ns = [...c.text.matchAll(/n=(\d+)\r\n/g)].map((m) => Number(m[1]));
  const done = c.text.match(/DONE (\d+)/);
  if (!done) return 'no DONE line';
  if (ns.length !== Number(done[1])) return `${ns.length} lines, the program printed ${done[1]}`;
  const gap = ns.findIndex((n, i) => n !== i);
  if (gap >= 0) return `line ${gap} is n=${ns[gap]}`;
  if (c.text.length !== produced) return `${c.text.length} characters, the session produced ${produced}`;
  if (c.errors.length) return `errors: ${c.errors.join('; ')}`;
  return null;
}

const server = spawn(process.execPath, [BIN_SERVE, '--port', '0', '--token', TOKEN, '--max-sessions', String(SESSIONS)], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = (await waitForLine(server.stdout, /listening on/)).match(/(http:\S+)/)[1];
/** The daemons: the server's child processes (each runs one program). */
function daemonsRssKiB() {
  let total = 0;
  let n = 0;
  for (const task of fs.readdirSync(`/proc/${server.pid}/task`)) {
    for (const pid of fs.readFileSync(`/proc/${server.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
      total += rssKiB(pid);
      n++;
    }
  }
  return { total, n };
}
let peak = rssKiB(server.pid);
let daemons = { total: 0, n: 0 };
const sampler = setInterval(() => {
  peak = Math.max(peak, rssKiB(server.pid));
  const d = daemonsRssKiB();
  if (d.total > daemons.total) daemons = d;
}, 250);
const startRss = rssKiB(server.pid);

const t0 = Date.now();
const ids = [];
// Ten at a time: starting all at once would only queue on the CPU.
for (let i = 0; i < SESSIONS; i += 10) {
  const batch = Array.from({ length: Math.min(10, SESSIONS - i) }, () => api(url, 'POST', '/sessions', { command: ['perl', '-e', PROGRAM], cols: 80, rows: 24 }));
  for (const s of await Promise.all(batch)) ids.push(s.session_id);
}
console.log(`${SESSIONS} sessions started in ${Date.now() - t0} ms`);

const clients = [];
const late = [];
for (let i = 0; i < CLIENTS; i++) {
  const id = ids[i % SESSIONS];
  if (i % 2 === 0) {
    clients[i] = await connectClient(url, id);
  } else {
    late.push(new Promise((resolve) => setTimeout(async () => {
      clients[i] = await connectClient(url, id);
      if (i % 4 === 1) {
        // Reconnect once, later: the new connection must get everything again.
        setTimeout(async () => {
          clients[i].ws.close();
          clients[i] = await connectClient(url, id);
          resolve();
        }, Math.random() * (SECONDS * 1000) / 3);
      } else {
        resolve();
      }
    }, Math.random() * (SECONDS * 1000) / 2)));
  }
}
await Promise.all(late);
console.log(`${CLIENTS} clients attached; waiting for the programs to finish`);

// Wait for every session's DONE line to reach its clients.
const produced = new Map();
for (const id of ids) {
  for (;;) {
    const scr = await api(url, 'GET', `/sessions/${id}/screen`);
    if (scr.lines.some((l) => l.startsWith('DONE '))) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  produced.set(id, (await api(url, 'GET', `/sessions/${id}/output`)).to);
}
await new Promise((r) => setTimeout(r, 1000));
clearInterval(sampler);
peak = Math.max(peak, rssKiB(server.pid));

let failures = 0;
let delivered = 0;
let expected = 0;
clients.forEach((c, i) => {
  const id = ids[i % SESSIONS];
  const why = check(c, produced.get(id));
  delivered += c.text.length;
  expected += produced.get(id);
  if (why) {
    failures++;
    if (failures <= 10) console.log(`client ${i} (session ${id}): ${why}`);
  }
});
const producedTotal = [...produced.values()].reduce((a, b) => a + b, 0);
console.log(`server memory: ${(startRss / 1024).toFixed(1)} MiB at start, ${(peak / 1024).toFixed(1)} MiB peak (RSS; the daemons and programs are separate processes)`);
console.log(`daemons: ${daemons.n} at the peak, ${(daemons.total / 1024).toFixed(1)} MiB RSS in all (${(daemons.total / 1024 / Math.max(1, daemons.n)).toFixed(1)} MiB each; shared pages counted in each)`);
console.log(`output produced: ${producedTotal} bytes over ${SESSIONS} sessions; each client's share: ${expected} bytes expected, ${delivered} delivered`);
console.log(`${CLIENTS - failures}/${CLIENTS} clients got every byte of their session, in order, once`);
for (const c of clients) c.ws.close();
await Promise.all(ids.map((id) => api(url, 'DELETE', `/sessions/${id}`).catch(() => undefined)));
server.kill('SIGTERM');
process.exit(failures === 0 ? 0 : 1);
