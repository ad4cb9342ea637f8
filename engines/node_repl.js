// Start-up code of tuidriver's node engine (node node_repl.js TOKEN).
//
// The standard REPL (no colours, no preview, no `undefined` after statements,
// interruptible with C-c), with its own prompts (`> `, `... `), each after
// an invisible mark unique to the session (OSC 7704 with TOKEN, the
// engine's prompt_osc; a terminal shows nothing of it, and readline counts
// it as no width), so that no program output can look like the prompt,
// and one command: `.td N` (the engine's
// submit.wrap), which takes prompt number N from the daemon's prompt pipe
// ($TUIDRIVER_PROMPT_FD; typed, each character of the code would cost the
// REPL a write of its echo; the daemon types nothing, and the helper runs
// `.td N` itself when the prompt arrives) or `.td "<source>"` (what the
// history keeps, for a person's up-arrow), and evaluates the whole
// submission as one REPL input (multi-line functions and classes,
// top-level await, `let` that lasts; run by the helper itself when it
// needs nothing the REPL's evaluator adds),
// then waits as a script would for what the code left pending (promises,
// immediates, timers, I/O; up to DRAIN_MS), and only then shows the value of
// its last expression (of a promise, the value it is fulfilled with, as a
// notebook shows it) and the prompt. So output of `Promise.resolve(1).then(
// console.log)` or of a timer belongs to the ask that caused it.
//
// Output that still comes later (a timer due after DRAIN_MS, an interval, a
// server's log) is late: an AsyncLocalStorage run around each evaluation
// tells which submission caused the code that writes. Late output is never
// part of a reply: it is printed while no submission runs, on rows of its
// own above a fresh prompt (as readline does for a person, so the prompt
// stays on the cursor's row), or, held while one runs, above that one's
// code as typed; so it is on screen, in the scrollback and in `output`
// events (docs/engines.md).
'use strict';
const fs = require('fs');
const repl = require('repl');
const { types } = require('util');
const { AsyncLocalStorage, createHook } = require('async_hooks');

// The wait for pending output; $TUIDRIVER_REPL_WAIT_MS shortens it (tests).
const DRAIN_MS = Number(process.env.TUIDRIVER_REPL_WAIT_MS) || 5000;
// How long late output waits after a prompt: an ask that follows at once
// shows it above its code, with no redraw of the prompt in between. (The
// reply's end is the end mark, below, not this wait.)
const LATE_MS = 200;
const token = process.argv[2] || 'td';
// What ends the marks' OSC sequences: BEL, or on Windows ST (ESC \), which
// the console passes on to the daemon (Wine's conhost drops the BEL, and the
// prompt's `> ` became part of an unended mark: docs/windows.md).
const ST = process.platform === 'win32' ? '\x1b\\' : '\x07';
// Whether code runs with raw mode off, so that a C-c raises SIGINT (the
// REPL's breakEvalOnSigint too). Not on Windows: there, raw mode off and on
// again made libuv cancel its console line read by typing an Enter into the
// console and putting the cursor back, and under Wine it went back to the
// wrong column (an error's report drawn from column 19). So C-c does not
// interrupt running code there (docs/windows.md).
const RAW_OFF_WHILE_RUNNING = process.platform !== 'win32';
const writeStdout = process.stdout.write.bind(process.stdout);

// The REPL's own output (echo, prompt, values, marks) is gathered and goes
// out as one write when this turn of the event loop ends, or before anything
// else is written or evaluated: readline writes each echoed character and
// each part of the prompt on its own, and every write costs the terminal a
// read (14 writes an ask instead of 2).
let gathered = '';
function flushGathered() {
  if (gathered === '') return;
  const text = gathered;
  gathered = '';
  writeStdout(text);
}
function write(text) {
  if (gathered === '') process.nextTick(flushGathered);
  gathered += text;
  return true;
}
process.on('exit', flushGathered);

// The daemon's prompt pipe, opened again: close-on-exec (programs the code
// starts do not get it) and non-blocking (a number whose prompt never comes
// must not hang the REPL).
function openPromptPipe() {
  const fd = Number(process.env.TUIDRIVER_PROMPT_FD);
  delete process.env.TUIDRIVER_PROMPT_FD;
  if (!Number.isInteger(fd) || fd < 0) return -1;
  try {
    const own = fs.openSync(`/dev/fd/${fd}`, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    fs.closeSync(fd);
    return own;
  } catch {
    return -1;
  }
}
const promptFd = openPromptPipe();
let piped = Buffer.alloc(0);  // read from the pipe, not a whole record yet
let taken = 0;  // the number of the last prompt taken from it
const pipeChunk = Buffer.allocUnsafe(1 << 16);
// Whole records read and not taken: { number, source, run }. A record is
// "<number> <size>\n" and the prompt's bytes; "<number> <size> run\n" (the
// engine's submit.pipe_only: nothing is typed, it runs as it arrives, see
// runArrived) or "<number> drop\n" (an ask that ended before it was taken:
// it is void).
const records = [];

function parseRecords() {
  for (;;) {
    const end = piped.indexOf(10);
    if (end < 0) return;
    const [number, size, flag] = piped.subarray(0, end).toString().split(' ');
    if (size === 'drop') {
      piped = piped.subarray(end + 1);
      const at = records.findIndex((r) => r.number === Number(number));
      if (at >= 0) records.splice(at, 1);
      continue;
    }
    if (piped.length < end + 1 + Number(size)) return;
    const source = piped.subarray(end + 1, end + 1 + Number(size)).toString();
    piped = piped.subarray(end + 1 + Number(size));
    records.push({ number: Number(number), source, run: flag === 'run' });
  }
}

// Reads what the pipe holds now: 1 if something, 0 if it is empty for
// now, -1 if it is gone.
function readPipe() {
  let got = 0;
  try {
    got = fs.readSync(promptFd, pipeChunk, 0, pipeChunk.length, null);
  } catch (e) {
    return e.code === 'EAGAIN' ? 0 : -1;
  }
  if (got === 0) return -1;  // the daemon's end is closed
  piped = Buffer.concat([piped, pipeChunk.subarray(0, got)]);
  parseRecords();
  return 1;
}

// Prompt `number` from the pipe, or undefined if it never comes. Earlier
// ones are skipped: their line never reached the REPL (an ask cancelled
// before it was read).
function fromPipe(number) {
  if (number <= taken || promptFd < 0) return undefined;  // taken already (a person typed an old number)
  const giveUp = Date.now() + 2000;
  for (;;) {
    while (records.length > 0 && records[0].number < number) records.shift();
    if (records.length > 0) {
      if (records[0].number > number) return undefined;  // gone: a later one is there
      taken = number;
      return records.shift().source;
    }
    // The daemon writes a prompt before its line: a wait here is only for
    // the rest of a large one, or for one that never comes.
    const read = readPipe();
    if (read > 0) continue;
    if (read < 0 || Date.now() > giveUp) return undefined;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  }
}

// The REPL writes its prompt and echo through an output of its own, so that
// process.stdout.write below sees only what the code prints.
const replOutput = Object.create(process.stdout);
// Set while the REPL's report of a SubmissionExit (below) is to be dropped;
// muted, the REPL writes nothing (its report and prompt after a late error).
let dropErrorReport = false;
let muted = false;
replOutput.write = (chunk, ...rest) => {
  if (!muted && !dropErrorReport) write(String(chunk));
  else if (!muted) dropErrorReport = false;
  const done = rest.find((r) => typeof r === 'function');
  if (done) process.nextTick(done);
  return true;
};

// The mark goes before every prompt this REPL shows, its continuation
// prompt too (displayPrompt sets that through readline's Interface), and
// not before the prompts of the code's own readline (rl.question()).
const MARK = `\x1b]7704;${token}${ST}`;
const PROMPT = `${MARK}> `;
let server;
const { Interface } = require('readline');
const setPrompt = Interface.prototype.setPrompt;
Interface.prototype.setPrompt = function setPromptMarked(prompt) {
  const marked = this === server && typeof prompt === 'string' && !prompt.startsWith(MARK);
  return setPrompt.call(this, marked ? MARK + prompt : prompt);
};
server = repl.start({
  prompt: PROMPT,
  input: process.stdin,
  output: replOutput,
  terminal: true,
  preview: false,
  useColors: false,
  ignoreUndefined: true,
  breakEvalOnSigint: RAW_OFF_WHILE_RUNNING,
});

// The REPL gives its context a console on its own output (replOutput, not
// routed below): the code's console writes where a script's does instead,
// to process.stdout and process.stderr, so that its late output is known.
function useGlobalConsole(context) {
  Object.defineProperty(context, 'console', { value: console, writable: true, configurable: true });
}
useGlobalConsole(server.context);
server.on('reset', useGlobalConsole);

// C-c interrupts running code through node's SIGINT watchdog, which the REPL
// starts and stops around each evaluation: a thread made and joined each
// time (a fifth of an ask). Started once here, it stays, and the REPL's
// starts only count. Through process.binding (node's own, not public): if it
// is gone, the REPL starts the watchdog itself as before.
const contextify = (() => {
  try {
    const binding = process.binding('contextify');
    return binding.startSigintWatchdog() === true ? binding : undefined;
  } catch {
    return undefined;
  }
})();

// Code runs with the REPL's output so far on the terminal, and without the
// code's own SIGINT listeners (process.on('SIGINT'), put back after it):
// with them, the REPL's C-c killed node (removing the last listener resets
// SIGINT to its default after the watchdog set its handler), and the session.
// (Every function between the code and the event loop has a name: the REPL
// cuts an error's stack at the last anonymous frame, the code's own.)
function interruptibly(run) {
  flushGathered();
  const listeners = process.rawListeners('SIGINT');
  if (listeners.length === 0) return run();
  process.removeAllListeners('SIGINT');
  if (contextify) {
    // The watchdog's handler again: a restart sets it.
    contextify.stopSigintWatchdog();
    contextify.startSigintWatchdog();
  }
  try {
    return run();
  } finally {
    for (const listener of listeners) process.on('SIGINT', listener);
  }
}
const evaluate = server.eval;
server.eval = function evalInterruptibly(...args) {
  const self = this;
  return interruptibly(function theREPLsEval() { return evaluate.apply(self, args); });
};

// The REPL's evaluator took an ask of `6*7` more time than the rest of the
// ask together (a file URL of the working directory, a loader for import(),
// RegExp.$1 saved and restored, for each input). Code that needs none of
// what it adds is compiled and run here as it runs it: in the REPL's
// context and domain (an error is reported by the REPL, now or from a
// callback later), with raw mode off and the SIGINT watchdog on, so that a
// C-c interrupts it. The REPL's evaluator keeps the rest: top-level
// `await` (rewritten), `import()`, a leading `{` (an object literal first),
// and strict mode.
const vm = require('vm');
// (The REPL's evaluator also runs everything when this node's REPL lacks
// what the helper uses of it: a domain, _setRawMode, the watchdog binding.)
const canEvaluateHere = Boolean(contextify && server._domain && typeof server._setRawMode === 'function');
function forTheREPL(source) {
  return !canEvaluateHere || server.replMode !== repl.REPL_MODE_SLOPPY || server.useGlobal ||
    /await|import|^\s*\{/.test(source);
}
function evaluateHere(source, file, done) {
  let script;
  try {
    script = new vm.Script(source, { filename: file });
  } catch (e) {
    done(e);  // a syntax error: as the REPL hands it over
    return;
  }
  const domain = server._domain;
  domain.enter();
  let value;
  try {
    value = interruptibly(function runTheCode() {
      contextify.startSigintWatchdog();
      const wasRaw = RAW_OFF_WHILE_RUNNING && server._setRawMode(false);  // C-c raises SIGINT
      try {
        return script.runInContext(server.context, { displayErrors: false, breakOnSigint: true });
      } finally {
        if (RAW_OFF_WHILE_RUNNING) server._setRawMode(wasRaw);
        if (contextify.stopSigintWatchdog()) server.emit('SIGINT');  // one that came after the code ended
      }
    });
  } catch (e) {
    domain.emit('error', e);  // the REPL reports it (Uncaught ...) and shows the prompt
    domain.exit();
    return;
  }
  done(null, value);
  domain.exit();
}

// Whether the program's output so far ends a line: the REPL redraws its prompt
// line from column 0, which would erase output with no final newline
// (process.stdout.write('x')), so such output gets its newline first.
let atLineStart = true;
// The running submission's number (0: none, the prompt shows), and the
// number of its echo mark.
let running = 0;
let runningEcho = 0;
let submissions = 0;
// The submission whose code runs now (callbacks of its promises, timers,
// I/O included); undefined for the REPL's own.
const asks = new AsyncLocalStorage();
// Late output not shown yet, and whether it waits (a submission runs, or
// its prompt is younger than LATE_MS).
let held = '';
let holding = false;

// Whether what runs now is the running submission's (its async context).
function runningOwns() {
  return running !== 0 && asks.getStore() === running;
}

// Where the submission's output ends (the engine's end_osc, with the number
// of its echo mark, 7703): written before its prompt, and after the REPL's
// report of an error that ended it. The daemon ends the reply there, so late
// output shown after it is never the reply's, however late it reads it.
let endMarkDue = 0;  // the echo mark's number whose end mark is due
function writeEndMark() {
  if (endMarkDue === 0) return;
  write(`\x1b]7705;${endMarkDue}${ST}`);
  endMarkDue = 0;
}

// Late: clear the prompt's row, print, and draw the prompt (with what was
// typed so far) again below.
function showLate() {
  writeEndMark();  // (written with the prompt already: this is for safety)
  const text = held;
  held = '';
  write('\r\x1b[K' + text + (text.endsWith('\n') ? '' : '\n'));
  server.displayPrompt(true);
}

// The running submission's own output goes out; any other is late.
function route(stream) {
  const original = stream.write.bind(stream);
  stream.write = (chunk, ...rest) => {
    const text = String(chunk);
    if (text.length === 0 || runningOwns()) {
      if (text.length !== 0) atLineStart = text.endsWith('\n');
      flushGathered();
      return original(chunk, ...rest);
    }
    held += text;
    if (running === 0 && !holding) showLate();
    const done = rest.find((r) => typeof r === 'function');
    if (done) process.nextTick(done);
    return true;
  };
}
route(process.stdout);
route(process.stderr);

// A submission ended and its prompt is drawn: late output waits LATE_MS
// (one timer, restarted by each submission's end).
const lateWait = setTimeout(function showHeldLate() {
  if (running !== 0) return;  // a later submission runs: its end restarts the wait
  holding = false;
  if (held) showLate();
}, LATE_MS);
lateWait.unref();
function ended() {
  giveTerminalBack();
  running = 0;
  holding = true;
  lateWait.refresh();
}

// Resources the running submission's code added and that are still pending
// (timers, immediates, sockets, file requests), by async id: those of
// earlier submissions (a server, a late timer) do not count, even when they
// end meanwhile. Promises are waited for through what they wait for.
const pending = new Map();
// How many async resources of any kind (a promise, a tick, a microtask too)
// the running submission made.
let started = 0;
createHook({
  init(id, type, trigger, resource) {
    if (!runningOwns()) return;
    started++;
    if (type === 'Timeout' || type === 'Immediate' || /WRAP|REQ/.test(type)) pending.set(id, resource);
  },
  destroy(id) {
    pending.delete(id);
  },
}).enable();
function pendingCount() {
  let count = 0;
  for (const r of pending.values()) if (typeof r.hasRef !== 'function' || r.hasRef()) count++;
  return count;
}

// process.exit() in a submission ends the submission, as it ends a script:
// its status goes to the daemon in an OSC (the engine's exit_osc), and the
// REPL with its variables goes on. Elsewhere (.exit, late code) it exits.
class SubmissionExit extends Error {}
const realExit = process.exit.bind(process);
let exits = 0;
process.exit = (code) => {
  if (running === 0 || asks.getStore() !== running) realExit(code);
  throw new SubmissionExit(String(code === undefined ? process.exitCode || 0 : code));
};

// An error thrown while the code runs goes to the REPL's domain, which
// prints "Uncaught …" and the prompt, without the evaluation's callback: the
// submission ends there, as a script ends at an uncaught error.
if (server._domain) {
  server._domain.prependListener('error', (e) => {
    const owner = asks.getStore();
    if (owner !== undefined && owner !== running) return lateError(e);
    if (running === 0) return;
    endMarkDue = runningEcho;  // after the REPL's report, before its prompt
    ended();  // before the REPL's report and prompt
    if (!atLineStart) write('\n');
    if (!(e instanceof SubmissionExit)) return;
    write(`\x1b]7702;${++exits};${Number(e.message) & 0xff}${ST}`);
    dropErrorReport = true;
  });
}

// An uncaught error of an earlier submission's late code: its report is late
// output like any other (held while a submission runs or just ended), and
// the REPL's own report and fresh prompt, which would end the running
// submission's reply early, are muted for this turn of the event loop.
function lateError(e) {
  if (running === 0 && !holding) return;  // the prompt shows: the REPL reports it
  held += `Uncaught ${e instanceof Error ? `${e.name}: ${e.message}` : server.writer(e)}\n`;
  muted = true;
  asks.exit(() => setImmediate(() => { muted = false; }));
}

// Columns a string takes on the terminal (East Asian wide characters and
// emoji two, combining marks none): enough to count the echo's rows.
function width(text) {
  let cols = 0;
  for (const ch of text.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')) {  // (a prompt's mark takes no room)
    if (/\p{Mn}|\p{Me}|\u200d/u.test(ch)) continue;
    cols += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}|[\u{20000}-\u{3fffd}]/u.test(ch) ? 2 : 1;
  }
  return cols;
}

// The terminal shows what the user typed, not `.td N`: the echo of the
// command (`typed`) is replaced by the code after the REPL's prompts, then OSC 7703
// (the engine's echo_osc) marks where the output begins. Output before the
// prompt always ended its line (see atLineStart). All in one synchronized
// update (mode 2026): the daemon never reads the code's continuation prompts
// half drawn. Skipped when the echo or the code is taller than the screen.
// An ask run from the pipe (`echoed` false) has no echo: the cursor is still
// on the prompt's last row.
let echoes = 0;
function literalOf(source) {
  return JSON.stringify(source).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
function showAsTyped(source, prompt, typed, echoed) {
  const cols = process.stdout.columns || 80;
  const rows = process.stdout.rows || 24;
  const echoRows = echoed ? Math.max(1, Math.ceil(width(`${prompt}${typed}`) / cols)) : 0;
  const mark = `\x1b]7703;${++echoes}${ST}`;  // sent in any case: the daemon waits for it
  if (echoRows >= rows || source.split('\n').length >= rows) {
    write(echoed ? mark : `${typed}\n${mark}`);
    return;
  }
  const shown = prompt + source.split('\n').join('\n... ');
  // Late output held so far goes above the code, out of this reply.
  const late = held && !held.endsWith('\n') ? held + '\n' : held;
  held = '';
  const promptRows = echoed ? 0 : Math.ceil(width(prompt) / cols) - 1;  // above the cursor's
  const up = echoRows + promptRows > 0 ? `\x1b[${echoRows + promptRows}A` : '';
  write(`\x1b[?2026h${up}\r\x1b[J${late}${shown}\n${mark}\x1b[?2026l`);
}

// The async hook above gives promises symbol fields of node's own
// (async_id_symbol, trigger_async_id_symbol, kResourceStore) that the REPL
// would print in `Promise { … }`, as a REPL without hooks does not: they are
// made non-enumerable (not removed: node still reads them).
function withoutHookFields(value) {
  if (!types.isPromise(value)) return value;
  for (const sym of Object.getOwnPropertySymbols(value)) {
    if (/^Symbol\((async_id_symbol|trigger_async_id_symbol|kResourceStore)\)$/.test(String(sym))) {
      Object.defineProperty(value, sym, { enumerable: false });
    }
  }
  return value;
}

// Code that reads the terminal (readline's question, a prompt library, a
// 'data' listener on stdin) is waited for as a script would be, however
// long, until it stops listening. Meanwhile it has the terminal alone (the
// REPL's readline would take the answer for a line of its own), and a C-c
// ends the submission, as it ends a script waiting there. The listeners
// on stdin when the submission began are not the code's.
const STDIN_READS = ['data', 'keypress', 'readable'];
let stdinBefore = new Map();  // event -> its listeners when the submission began
function codeListeners(event) {
  const before = stdinBefore.get(event) || [];
  return process.stdin.listeners(event).filter((fn) => fn !== forTheCode && !before.includes(fn));
}
function codeReadsStdin() {
  return STDIN_READS.some((event) => codeListeners(event).length > 0);
}
let replKeys = null;  // the REPL's keypress listeners, while the code has the terminal
function giveTerminalToCode() {
  if (replKeys !== null) return;
  replKeys = stdinBefore.get('keypress') || [];
  for (const fn of replKeys) process.stdin.removeListener('keypress', fn);
  process.stdin.prependListener('data', forTheCode);
}
function giveTerminalBack() {
  if (replKeys === null) return;
  process.stdin.removeListener('data', forTheCode);
  for (const fn of replKeys) process.stdin.on('keypress', fn);
  replKeys = null;
  // The code's readline, closed, paused stdin and left raw mode: node
  // would end with nothing left to read, and the REPL reads keys.
  if (process.stdin.isPaused()) process.stdin.resume();
  server._setRawMode(true);
}
// First to see each read while the code has the terminal: what the code
// does with it (echo, output, timers) is its submission's. (Raw mode stays
// on, as readline keeps it: C-c comes as a byte.)
function forTheCode(chunk) {
  asks.enterWith(running);
  if (!String(chunk).includes('\x03')) return;
  for (const event of [...STDIN_READS, 'end']) {
    for (const fn of codeListeners(event)) process.stdin.removeListener(event, fn);
  }
}

// `awaiting()`: a final promise is not fulfilled yet (waited for as the
// code's pending work is, even when none of that is left: what settles it
// may be nothing the hook counts).
function drain(done, awaiting) {
  // Code that started nothing asynchronous (most asks) has nothing left
  // that could run later: done now, not an event-loop turn later.
  if (started === 0 && !awaiting() && !codeReadsStdin()) {
    asks.exit(done);
    return;
  }
  let until = Date.now() + DRAIN_MS;
  const check = () => {
    if (codeReadsStdin()) {
      giveTerminalToCode();
      until = Date.now() + DRAIN_MS;  // what the answer starts gets its wait
      setTimeout(check, 20);
      return;
    }
    giveTerminalBack();
    if ((pendingCount() === 0 && !awaiting()) || Date.now() >= until) done();
    else setTimeout(check, 2);
  };
  // After the microtasks the code queued; outside the submission's context,
  // so that these timers are not counted as its own.
  asks.exit(() => setImmediate(check));
}

// What the REPL shows after a submission's output: its error, or the value
// of its last expression.
function showResult(err, value) {
  if (!atLineStart) write('\n');
  // A syntax error comes wrapped as "Recoverable" (the REPL would wait for more lines).
  const e = err && err.err instanceof Error ? err.err : err;
  if (err) write(`Uncaught ${e instanceof Error ? `${e.name}: ${e.message}` : server.writer(e)}\n`);
  else if (value !== undefined) write(`${server.writer(withoutHookFields(value))}\n`);
}

// The source of `.td N` (the pipe's prompt N) or `.td "<source>"`; a
// string that says what is wrong for anything else.
function submission(argument) {
  let value;
  try {
    value = JSON.parse(argument);
  } catch (e) {
    value = e;
  }
  if (typeof value === 'string') return { source: value };
  if (!Number.isInteger(value)) return { error: 'tuidriver: .td needs a prompt number or a JSON string literal' };
  const source = fromPipe(value);
  if (source === undefined) return { error: `tuidriver: prompt ${value} never came through the pipe` };
  return { source, piped: true };
}

// `.td ARGUMENT`: as a line readline read and echoed, or one run from the
// pipe (`echoed` false; runArrived below).
function submit(argument, echoed) {
  const typed = `.td ${argument}`;
  const { source, piped, error } = submission(argument);
  if (error) {
    write(`${echoed ? '' : `${typed}\n`}\x1b]7703;${++echoes}${ST}${error}\n`);
    endMarkDue = echoes;
    server.displayPrompt();
    return;
  }
  // The history holds the source, not its number: a person's up-arrow
  // brings back code that runs again.
  if (piped && server.history && server.history[0] === typed) server.history[0] = `.td ${literalOf(source)}`;
  showAsTyped(source, server.getPrompt(), typed, echoed);
  running = ++submissions;
  runningEcho = echoes;
  stdinBefore = new Map([...STDIN_READS, 'end'].map((event) => [event, process.stdin.listeners(event)]));
  pending.clear();
  started = 0;
  atLineStart = true;
  const mine = running;
  const evaluated = (err, value) => {
    // A final promise is awaited and its value shown, nothing for
    // undefined, as a notebook shows it (Deno's Jupyter kernel); node's REPL
    // shows `Promise { <pending> }`, a script nothing. Its rejection stays
    // unhandled: it ends the submission as an uncaught error does. Still
    // pending after the wait, it shows as the REPL shows it.
    const final = !err && types.isPromise(value);
    let fulfilled = null;
    if (final) value.then((v) => { fulfilled = { value: v }; });
    drain(() => {
      // An error its code threw later (a timer's, a rejected promise's) ended
      // it already, with the REPL's report and prompt, as it ends a script.
      if (running !== mine) return;
      showResult(err, fulfilled ? fulfilled.value : value);
      endMarkDue = runningEcho;
      server.displayPrompt();
      ended();
    }, () => final && fulfilled === null);
  };
  // (A named function: the REPL cuts an error's stack at the last
  // anonymous frame, which is to be the code's own. A file name of its
  // own, as node's REPL gives each line: V8's compile cache keeps every
  // script of the same source and name apart by a key that only a linear
  // search tells apart, so the same code asked again grew slower each time.)
  asks.run(running, function evaluateSubmission() {
    if (forTheREPL(source)) server.eval(source, server.context, `REPL${running}`, evaluated);
    else evaluateHere(source, `REPL${running}`, evaluated);
  });
}

server.defineCommand('td', {
  help: 'Evaluate a prompt from the pipe, or a JSON string literal of source code, as one input (tuidriver)',
  action(argument) {
    submit(argument, !takingAsk);
  },
});

// A line added to the history as readline adds one.
function remember(line) {
  const history = server.history;
  if (!Array.isArray(history)) return;
  if (history[0] !== line) history.unshift(line);
  if (history.length > server.historySize) history.pop();
  server.historyIndex = -1;
}

// The engine's submit.pipe_only: nothing is typed for an ask. Its record
// runs when it arrives, or, if the REPL is not at its empty prompt then (a
// person's line, code still running), the next time the REPL shows it: as
// the line `.td N` handed to the REPL as readline would hand it (history,
// then the REPL's 'line': it runs the `.td` command, and forgets a first
// C-c, as after any line). Typed, the line woke a kernel worker before node
// read it, and readline's decoding and echo of each key were most of the
// JavaScript an ask ran (docs/engines.md).
let takingAsk = false;
function runArrived() {
  if (records.length === 0 || !records[0].run || running !== 0 || server.line !== '' ||
      server.editorMode || server.getPrompt() !== PROMPT) return;
  const line = `.td ${records[0].number}`;
  remember(line);
  takingAsk = true;
  try {
    server.emit('line', line);
  } finally {
    takingAsk = false;
  }
}
if (promptFd >= 0) {
  try {
    const pipe = new (require('net').Socket)({ fd: promptFd, readable: true, writable: false });
    pipe.unref();  // the REPL's end still ends the process
    pipe.on('data', function fromThePipe(chunk) {
      piped = Buffer.concat([piped, chunk]);
      parseRecords();
      runArrived();
    });
    pipe.on('error', () => {});  // then fromPipe says the prompt never came
  } catch {
    // Not a pipe (a person's $TUIDRIVER_PROMPT_FD): read only for typed numbers.
  }
}
const displayPrompt = server.displayPrompt;
server.displayPrompt = function displayPromptThenRun(...args) {
  if (!muted) writeEndMark();  // (muted: a late error's prompt, while a submission runs)
  displayPrompt.apply(this, args);
  if (records.length > 0) process.nextTick(runArrived);
};
