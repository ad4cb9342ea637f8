#!/usr/bin/env node
// tuidriver-mcp: terminal sessions as MCP tools, over stdio or streamable HTTP.
import { SessionManager } from '../src/sessions.mjs';
import { serveStdio, serveHttp } from '../src/mcp.mjs';
import { parseCli, intOption, warmOption, instanceOption, fail } from '../src/cli.mjs';

const USAGE = `usage: tuidriver-mcp [--http PORT [--host ADDR] [--token TOKEN]] [--max-sessions N] [--idle-timeout SECONDS]
                     [--warm ENGINE=N ...] [--instance NAME]

An MCP server whose tools drive terminal sessions (docs/server.md).
  --http PORT            serve streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --host ADDR            address to listen on with --http (default 127.0.0.1; any other
                         address needs a token)
  --token TOKEN          with --http, require Authorization: Bearer TOKEN (also: $TUIDRIVER_TOKEN)
  --max-sessions N       most sessions open at once (default 16)
  --idle-timeout SECONDS close a session nobody used for this long (default 1800; 0: never)
  --warm ENGINE=N        keep N sessions of ENGINE started (1-16; repeat for more engines), so that
                         session_start with no cols, rows, cwd or env is ready at once
  --instance NAME        the first part of every session id (NAME.hex; also: $TUIDRIVER_INSTANCE;
                         default: this host's name): docs/scaling.md
The daemon is found as the tuidriver package finds it (TUIDRIVER_BIN, the bundled binary, PATH).`;

const o = parseCli(process.argv.slice(2), {
  http: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  'max-sessions': { type: 'string' },
  'idle-timeout': { type: 'string' },
  warm: { type: 'string', multiple: true },
  instance: { type: 'string' },
}, USAGE);

// stdout is the MCP channel over stdio: every log line goes to stderr.
const log = (msg) => process.stderr.write(`tuidriver-mcp: ${msg}\n`);
const mgr = new SessionManager({
  maxSessions: intOption('max-sessions', o['max-sessions'], 1, 10000) ?? 16,
  idleTimeoutMs: (intOption('idle-timeout', o['idle-timeout'], 0, 31_536_000) ?? 1800) * 1000,
  warm: warmOption(o.warm),
  instance: instanceOption(o.instance),
  log,
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await mgr.closeAll();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

if (o.http !== undefined) {
  const port = intOption('http', o.http, 0, 65535);
  const host = o.host ?? '127.0.0.1';
  const token = o.token ?? (process.env.TUIDRIVER_TOKEN || undefined); // an empty variable is none
  if (token !== undefined && token.length < 8) fail('--token must be at least 8 characters'); // as tuidriver-serve's
  // Anyone who reaches this port can run programs as this user.
  if (!['127.0.0.1', 'localhost', '::1'].includes(host) && !token) fail(`--host ${host} is not loopback: give a --token too`);
  let server;
  try {
    server = await serveHttp(mgr, { port, host, token, log });
  } catch (e) {
    fail(`tuidriver-mcp: cannot listen: ${e.message}`);
  }
  const addr = server.address();
  log(`listening on http://${addr.address}:${addr.port}/mcp`);
} else {
  if (o.host !== undefined || o.token !== undefined) fail('--host and --token go with --http');
  await serveStdio(mgr);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
}
