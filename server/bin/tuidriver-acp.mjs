#!/usr/bin/env node
// tuidriver-acp: one engine as an Agent Client Protocol agent over stdio (docs/acp.md).
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import * as acp from '@agentclientprotocol/sdk';
import { AcpAgent } from '../src/acp.mjs';
import { intOption, fail } from '../src/cli.mjs';

const USAGE = `usage: tuidriver-acp ENGINE [--cols N] [--rows N] [--mode exec|agent] [--extra-arg=VAL]...

Serves ENGINE (python, bash, claude, codex, gemini, ...) as an Agent Client Protocol
agent on stdin/stdout: each ACP session is one tuidriver daemon on the real program.
  --cols N, --rows N     the terminal's size (default: the engine's, else 120x40)
  --mode exec|agent      agent: the engine's agent arguments, and its first-run dialogs answered
  --extra-arg=VAL        appended to the program's arguments (repeatable)
The daemon is found as the tuidriver package finds it (TUIDRIVER_BIN, the bundled binary, PATH).`;

let parsed;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    options: {
      cols: { type: 'string' },
      rows: { type: 'string' },
      mode: { type: 'string' },
      'extra-arg': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
} catch (e) {
  fail(`${e.message}\n\n${USAGE}`);
}
const o = parsed.values;
if (o.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (parsed.positionals.length !== 1) fail(`give exactly one ENGINE\n\n${USAGE}`);
const engine = parsed.positionals[0];
if (!/^[A-Za-z0-9_.-]{1,64}$/.test(engine)) fail(`ENGINE must be an engine name such as python or claude, not "${engine}"`);
if (o.mode !== undefined && o.mode !== 'exec' && o.mode !== 'agent') fail(`--mode must be exec or agent, not "${o.mode}"`);

const agent = new AcpAgent({
  engine,
  cols: intOption('cols', o.cols, 2, 1000),
  rows: intOption('rows', o.rows, 2, 1000),
  mode: o.mode,
  extraArgs: o['extra-arg'] ?? [],
});
// stdout is the ACP channel: everything else goes to stderr.
const conn = agent.app().connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await agent.closeAll();
  process.exit(0);
}
conn.closed.then(stop, stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('SIGHUP', stop);
