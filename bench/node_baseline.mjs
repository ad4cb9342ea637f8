// The TypeScript user's alternative to tuidriver: node-pty feeding @xterm/headless.
// Driven by bench/bench.py; every mode prints one JSON line per result.
//
//   node node_baseline.mjs throughput FILE MARKER
//       cat FILE on a PTY into a 120x40 xterm with 10,000 lines of scrollback;
//       done when the write() callback of the chunk holding MARKER has fired
//       (xterm has parsed everything). Prints {"seconds","bytes","user","sys"}.
//   node node_baseline.mjs hold FILE MARKER
//       Same, then prints {"done":true} and stays alive until stdin closes, so the
//       caller can read this process's VmHWM. With FILE "-" it runs an idle bash.
//   node node_baseline.mjs quiet COUNT
//       The quiescence design: python3 -i on a PTY; type "6*7", wait for 1 s of
//       silence, read the screen. Prints {"ms":[...], "ok":bool} over COUNT asks.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pty = require('node-pty');
const { Terminal } = require('@xterm/headless');

const COLS = 120;
const ROWS = 40;

function newTerminal() {
  return new Terminal({ cols: COLS, rows: ROWS, scrollback: 10000, allowProposedApi: true });
}

function spawn(cmd, args, env) {
  return pty.spawn(cmd, args, { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: process.cwd(), env: env || process.env });
}

function lastLines(term, n) {
  const buf = term.buffer.active;
  const out = [];
  for (let y = Math.max(0, buf.length - n); y < buf.length; y++) out.push(buf.getLine(y).translateToString(true));
  return out;
}

// Feeds everything the program prints into term; resolves once the chunk that
// completes `marker` has been parsed. Also reports the bytes seen (UTF-16 units
// re-encoded as UTF-8, which is what the PTY carried).
function feedUntil(term, proc, marker) {
  return new Promise((resolve) => {
    let tail = '';
    let bytes = 0;
    let done = false;
    proc.onData((d) => {
      bytes += Buffer.byteLength(d, 'utf8');
      const hay = tail + d;
      tail = hay.slice(-marker.length - 1);
      if (!done && hay.includes(marker)) {
        done = true;
        term.write(d, () => resolve(bytes));
      } else {
        term.write(d);
      }
    });
  });
}

async function throughput(file, marker, hold) {
  const term = newTerminal();
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  // The child stays alive after cat: node-pty drops the last chunks of output
  // when the program exits while the reader is still busy (it does not keep the
  // slave end open), so a bare `cat FILE` would never show the marker.
  const proc = spawn('sh', ['-c', 'cat "$1"; exec sleep 600', 'sh', file]);
  const bytes = await feedUntil(term, proc, marker);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const rendered = lastLines(term, ROWS).some((l) => l.includes(marker));
  console.log(JSON.stringify({ seconds, bytes, user: cpu.user / 1e6, sys: cpu.system / 1e6, rendered }));
  if (hold) await holdUntilStdinCloses(() => proc.kill());
  proc.kill();
}

async function idle() {
  const term = newTerminal();
  const env = { ...process.env, PS1: 'tuidriver$ ' };
  const proc = spawn('bash', ['--noprofile', '--norc'], env);
  await feedUntil(term, proc, 'tuidriver$ ');
  console.log(JSON.stringify({ done: true }));
  await holdUntilStdinCloses(() => proc.kill());
}

function holdUntilStdinCloses(cleanup) {
  return new Promise((resolve) => {
    process.stdin.on('data', () => {});
    process.stdin.on('end', () => { cleanup(); resolve(); process.exit(0); });
    process.stdin.resume();
  });
}

// Resolves after `ms` of silence from proc, counted from now.
function silence(proc, ms) {
  return new Promise((resolve) => {
    let timer = setTimeout(done, ms);
    const sub = proc.onData(() => { clearTimeout(timer); timer = setTimeout(done, ms); });
    function done() { sub.dispose(); resolve(); }
  });
}

async function quiet(count) {
  const term = newTerminal();
  const env = { ...process.env, PYTHON_BASIC_REPL: '1' };
  const proc = spawn('python3', ['-i', '-q'], env);
  proc.onData((d) => term.write(d));
  await silence(proc, 1000);
  const ms = [];
  let ok = true;
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    proc.write('6*7\r');
    await silence(proc, 1000);
    await new Promise((r) => term.write('', r)); // parser caught up
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    ok = ok && lastLines(term, ROWS).some((l) => l === '42');
  }
  console.log(JSON.stringify({ ms, ok }));
  proc.kill();
  process.exit(0);
}

const [mode, a, b] = process.argv.slice(2);
if (mode === 'throughput') await throughput(a, b, false);
else if (mode === 'hold' && a === '-') await idle();
else if (mode === 'hold') await throughput(a, b, true);
else if (mode === 'quiet') await quiet(Number(a));
else { console.error('usage: node_baseline.mjs throughput|hold|quiet ...'); process.exit(2); }
if (mode === 'throughput') process.exit(0);
