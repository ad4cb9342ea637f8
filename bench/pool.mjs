// Time to first reply: a cold Session.spawn against SessionPool.acquire.
//   node bench/pool.mjs ENGINE ROUNDS PROMPT [CWD]
// Prints one JSON line {cold: [ms...], pool: [ms...], ready_wait_ms} on stdout.
// The environment (TUIDRIVER_BIN, an agent's HOME and API variables) is the
// caller's. Each round is one call, from the call to the first ask's reply:
// cold spawns a session and asks; pool acquires from a pool of one whose
// replacement had time to start (the cold median, twice) and asks.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Session, SessionPool } = require(join(root, 'dist', 'index.js'));

const [engine, roundsArg, prompt, cwd] = process.argv.slice(2);
const rounds = Number(roundsArg);
if (!engine || !(rounds > 0) || prompt === undefined) {
  console.error('usage: node bench/pool.mjs ENGINE ROUNDS PROMPT [CWD]');
  process.exit(2);
}
const spawnOptions = cwd ? { cwd } : {};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function firstReply(open) {
  const t0 = performance.now();
  const s = await open();
  await s.ask(prompt, { timeoutMs: 120_000 });
  const ms = performance.now() - t0;
  await s.close();
  return ms;
}

const cold = [];
for (let i = 0; i < rounds; i++) cold.push(await firstReply(() => Session.spawn(engine, spawnOptions)));

// The replacement starts when a session is taken: give it twice a cold
// start's time before the next round, so every round measures a warm take.
const readyWait = Math.ceil(2 * median(cold));
const pool = new SessionPool(engine, { size: 1, ...spawnOptions });
const warm = [];
try {
  for (let i = 0; i < rounds; i++) {
    await sleep(readyWait);
    warm.push(await firstReply(() => pool.acquire()));
  }
} finally {
  await pool.close();
}
console.log(JSON.stringify({ cold, pool: warm, ready_wait_ms: readyWait }));
