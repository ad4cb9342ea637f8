#!/usr/bin/env node
// tuidriver-serve: terminal sessions over REST, SSE and WebSocket, and a live web page.
import { randomBytes } from 'node:crypto';
import { SessionManager } from '../src/sessions.mjs';
import { startServe } from '../src/serve.mjs';
import { parseCli, intOption, warmOption, instanceOption, fail } from '../src/cli.mjs';

const USAGE = `usage: tuidriver-serve [--port PORT] [--host ADDR] [--token TOKEN] [--mcp] [--max-sessions N]
                       [--idle-timeout SECONDS] [--max-body BYTES] [--replay-chars N]
                       [--warm ENGINE=N ...] [--instance NAME]

Serves terminal sessions over HTTP (docs/server.md): REST under /sessions, SSE at
/sessions/ID/events, a WebSocket at /ws, and the live page at /.
  --port PORT            default 7681 (0: any free port)
  --host ADDR            address to listen on (default 127.0.0.1: this machine only)
  --token TOKEN          the bearer token every request needs (also: $TUIDRIVER_TOKEN);
                         without one, a random token is made and printed once
  --mcp                  also serve MCP (streamable HTTP) at /mcp, same token, same sessions:
                         the page shows what agents do and lets you type into it
  --max-sessions N       most sessions at once (default 16; more: 429)
  --idle-timeout SECONDS close a session nobody used or watched for this long (default 0: never)
  --max-body BYTES       largest request body or WebSocket message (default 1048576)
  --replay-chars N       output kept per session for replay and /output (default 1048576)
  --warm ENGINE=N        keep N sessions of ENGINE started (1-16; repeat for more engines), so that
                         starting one with no cols, rows, cwd or env is ready at once
  --instance NAME        this instance's name, the first part of every session id (NAME.hex), by
                         which a router in front of several instances finds it (docs/scaling.md;
                         also: $TUIDRIVER_INSTANCE; default: this host's name)`;

const o = parseCli(process.argv.slice(2), {
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  mcp: { type: 'boolean' },
  'max-sessions': { type: 'string' },
  'idle-timeout': { type: 'string' },
  warm: { type: 'string', multiple: true },
  instance: { type: 'string' },
  'max-body': { type: 'string' },
  'replay-chars': { type: 'string' },
}, USAGE);

const token = o.token ?? process.env.TUIDRIVER_TOKEN ?? randomBytes(24).toString('base64url');
if (token.length < 8) fail('--token must be at least 8 characters');
const log = (msg) => process.stderr.write(`tuidriver-serve: ${msg}\n`);
const mgr = new SessionManager({
  maxSessions: intOption('max-sessions', o['max-sessions'], 1, 10000) ?? 16,
  idleTimeoutMs: (intOption('idle-timeout', o['idle-timeout'], 0, 31_536_000) ?? 0) * 1000,
  logChars: intOption('replay-chars', o['replay-chars'], 1024, 1 << 30) ?? 1 << 20,
  warm: warmOption(o.warm),
  instance: instanceOption(o.instance),
  log,
});
let srv;
try {
  srv = await startServe(mgr, {
    port: intOption('port', o.port, 0, 65535) ?? 7681,
    host: o.host ?? '127.0.0.1',
    token,
    maxBody: intOption('max-body', o['max-body'], 1024, 1 << 30) ?? 1 << 20,
    mcp: o.mcp === true,
    log,
  });
} catch (e) {
  fail(`tuidriver-serve: cannot listen: ${e.message}`);
}
// The one place the token is shown (unless it came from the command line or the environment).
const shown = o.token === undefined && process.env.TUIDRIVER_TOKEN === undefined;
process.stdout.write(`tuidriver-serve: instance ${mgr.instance} listening on ${srv.url}\n`);
if (o.mcp) process.stdout.write(`tuidriver-serve: mcp ${srv.url}/mcp\n`);
if (shown) process.stdout.write(`tuidriver-serve: token ${token}\ntuidriver-serve: page ${srv.url}/?token=${token}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await srv.close();
  await mgr.closeAll();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
