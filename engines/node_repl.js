// Start-up code of tuidriver's node engine (node node_repl.js TOKEN).
//
// The standard REPL (no colours, no preview, no `undefined` after statements,
// interruptible with C-c), with a prompt unique to the session, so that no
// program output can look like it, and one command: `.td "<source>"` (the
// engine's submit.wrap), which evaluates a whole submission as one REPL input
// (multi-line functions and classes, top-level await, `let` that lasts),
// then waits as a script would for what the code left pending (promises,
// immediates, timers, I/O; up to DRAIN_MS), and only then shows the value of
// its last expression and the prompt. So output of `Promise.resolve(1).then(
// console.log)` or of a timer belongs to the ask that caused it.
//
// Output that still comes later, while the prompt shows (a timer due after
// DRAIN_MS, an interval, a server's log), is late: it is printed on rows of
// its own above a fresh prompt, as readline does for a person, so the prompt
// stays on the cursor's row; it is on screen, in the scrollback and in
// `output` events. Late output that comes while a later submission runs
// cannot be told from that one's (docs/engines.md).
'use strict';
const repl = require('repl');

// The wait for pending output; $TUIDRIVER_REPL_WAIT_MS shortens it (tests).
const DRAIN_MS = Number(process.env.TUIDRIVER_REPL_WAIT_MS) || 5000;
const token = process.argv[2] || 'td';
const write = process.stdout.write.bind(process.stdout);

// The REPL writes its prompt and echo through an output of its own, so that
// process.stdout.write below sees only what the code prints.
const replOutput = Object.create(process.stdout);
// Set while the REPL's report of a SubmissionExit (below) is to be dropped.
let dropErrorReport = false;
replOutput.write = (...args) => {
  if (!dropErrorReport) return write(...args);
  dropErrorReport = false;
  return true;
};

const server = repl.start({
  prompt: `td-${token}> `,
  input: process.stdin,
  output: replOutput,
  terminal: true,
  preview: false,
  useColors: false,
  ignoreUndefined: true,
  breakEvalOnSigint: true,
});

// Whether the program's output so far ends a line: the REPL redraws its prompt
// line from column 0, which would erase output with no final newline
// (process.stdout.write('x')), so such output gets its newline first.
let atLineStart = true;
// The running submission's number (0: none, the prompt shows).
let running = 0;
let submissions = 0;

// Late: clear the prompt's row, print, and draw the prompt (with what was
// typed so far) again below.
process.stdout.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (text.length === 0) return write(chunk, ...rest);
  if (running !== 0) {
    atLineStart = text.endsWith('\n');
    return write(chunk, ...rest);
  }
  const ok = write('\r\x1b[K' + text + (text.endsWith('\n') ? '' : '\n'), ...rest);
  server.displayPrompt(true);
  return ok;
};

// Resources the code added (timers, immediates, sockets, file requests):
// those present before the ask (a server started earlier) do not count.
function pendingCount() {
  return process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
}

// process.exit() in a submission ends the submission, as it ends a script:
// its status goes to the daemon in an OSC (the engine's exit_osc), and the
// REPL with its variables goes on. Elsewhere (.exit, late code) it exits.
class SubmissionExit extends Error {}
const realExit = process.exit.bind(process);
let exits = 0;
process.exit = (code) => {
  if (running === 0) realExit(code);
  throw new SubmissionExit(String(code === undefined ? process.exitCode || 0 : code));
};

// An error thrown while the code runs goes to the REPL's domain, which
// prints "Uncaught …" and the prompt, without the evaluation's callback: the
// submission ends there, as a script ends at an uncaught error.
if (server._domain) {
  server._domain.prependListener('error', (e) => {
    if (running === 0) return;
    running = 0;
    if (!atLineStart) write('\n');
    if (!(e instanceof SubmissionExit)) return;
    write(`\x1b]7702;${++exits};${Number(e.message) & 0xff}\x07`);
    dropErrorReport = true;
  });
}

// Columns a string takes on the terminal (East Asian wide characters and
// emoji two, combining marks none): enough to count the echo's rows.
function width(text) {
  let cols = 0;
  for (const ch of text) {
    if (/\p{Mn}|\p{Me}|\u200d/u.test(ch)) continue;
    cols += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}|[\u{20000}-\u{3fffd}]/u.test(ch) ? 2 : 1;
  }
  return cols;
}

// The terminal shows what the user typed, not `.td "..."`: the echo of the
// command is replaced by the code after the REPL's prompts, then OSC 7703
// (the engine's echo_osc) marks where the output begins. Output before the
// prompt always ended its line (see atLineStart). Skipped when the echo is
// taller than the screen.
let echoes = 0;
function showAsTyped(source, prompt) {
  const cols = process.stdout.columns || 80;
  const rows = process.stdout.rows || 24;
  const literal = JSON.stringify(source).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  const echoRows = Math.max(1, Math.ceil(width(`${prompt}.td ${literal}`) / cols));
  if (echoRows >= rows) return;
  const typed = prompt + source.split('\n').join('\n... ');
  write(`\x1b[${echoRows}A\r\x1b[J${typed}\n\x1b]7703;${++echoes}\x07`);
}

function drain(baseline, done) {
  const until = Date.now() + DRAIN_MS;
  const check = () => {
    if (pendingCount() <= baseline || Date.now() >= until) done();
    else setTimeout(check, 2).unref();  // (a referenced timer would count itself)
  };
  setImmediate(check);  // after the microtasks the code queued
}

server.defineCommand('td', {
  help: 'Evaluate a JSON string literal of source code as one input (tuidriver)',
  action(literal) {
    let source;
    try {
      source = JSON.parse(literal);
    } catch (e) {
      console.log(`tuidriver: .td needs a JSON string literal (${e.message})`);
      this.displayPrompt();
      return;
    }
    showAsTyped(source, this.getPrompt());
    running = ++submissions;
    atLineStart = true;
    const baseline = pendingCount();
    const evaluated = (err, value) => drain(baseline, () => {
      if (!atLineStart) write('\n');
      // A syntax error comes wrapped as "Recoverable" (the REPL would wait for more lines).
      const e = err && err.err instanceof Error ? err.err : err;
      if (err) write(`Uncaught ${e instanceof Error ? `${e.name}: ${e.message}` : this.writer(e)}\n`);
      else if (value !== undefined) write(`${this.writer(value)}\n`);
      running = 0;
      this.displayPrompt();
    });
    this.eval(source, this.context, 'REPL', evaluated);
  },
});
