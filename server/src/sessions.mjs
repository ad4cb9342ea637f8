// The sessions both servers hold: one tuidriver daemon (one Session of the shim)
// per session, isolated from the others, capped in number, closed when idle.
// Everything a client can do to a session goes through here, so the MCP tools,
// the REST routes and the WebSocket share one behaviour and one set of errors.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Session, SessionPool, TuiDriverError, paint } from 'tuidriver';
import { defaultInstance, instanceOf } from './instance.mjs';
import { OutputLog } from './output_log.mjs';
import { RowLog } from './row_log.mjs';
import { keyNames } from './keys.mjs';

/**
 * An error a client caused or can act on. `code` maps to HTTP statuses:
 * bad_request 400, not_found 404, conflict 409, cap 429; `failed` (the program or
 * the daemon said no: a timeout, an exited program) is 422 over HTTP.
 */
export class ClientError extends Error {
  constructor(code, message, extra = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}

/** A shim error as a ClientError, with the daemon's kind in the message. */
function fromShim(e, what) {
  if (e instanceof ClientError) return e;
  if (e instanceof TuiDriverError) {
    const extra = { kind: e.kind };
    if (typeof e.text === 'string') extra.text = e.text;
    if (typeof e.question === 'string') extra.question = e.question;
    if (Array.isArray(e.reply?.lines)) extra.screen = e.reply.lines;
    return new ClientError('failed', `${what} failed (${e.kind}): ${e.message}`, extra);
  }
  return new ClientError('failed', `${what} failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** A terminal dimension: an integer from 2 to 1000. */
export function size(b, field) {
  const v = b[field];
  if (!Number.isInteger(v) || v < 2 || v > 1000) throw new ClientError('bad_request', `${field} must be an integer from 2 to 1000`);
  return v;
}

// `INSTANCE.hex` (src/instance.mjs); plain hex ids, from before instances, are still taken.
const ID_RE = /^[A-Za-z0-9_.-]{1,64}$/;
/** The events a chat pane shows, and how many of them a session keeps. */
const CHAT_EVENTS = new Set(['ask', 'needs_input', 'reply']);
const CHAT_KEPT = 300;

/** One held session: the shim's Session, its output log and its listeners. */
export class Entry extends EventEmitter {
  constructor(id, session, spec, logChars) {
    super();
    this.setMaxListeners(0);
    this.id = id;
    this.session = session;
    this.engine = session.engine;
    this.command = spec.command ?? null;
    this.createdAt = new Date().toISOString();
    this.lastUsed = Date.now();
    /** Calls to the daemon under way (a long ask is not idleness). */
    this.inFlight = 0;
    this.log = new OutputLog(logChars);
    /** Where GET /output last stopped reading. */
    this.drainOffset = 0;
    /** Event sequence number, for SSE ids and ordering. */
    this.seq = 0;
    this.exit = null;
    this.nextAskId = 1;
    /** Questions waiting for an answer: ask_id -> { resolve, question }. */
    this.questions = new Map();
    /** Serialises `run`: one command at a time, its output read from the rows after it. */
    this.runChain = Promise.resolve();
    /** An engine session's turn under way (SessionManager.startTurn): outlived a run, or waits for an answer. */
    this.turn = null;
    /** The finished rows `read` hands out, numbered by the server (survives re-wraps). */
    this.rowLog = new RowLog(ROW_LOG_ROWS);
    /** Serialises taking rows and resizing: the log's place in the daemon's rows moves on a re-wrap. */
    this.rowChain = Promise.resolve();
    /** Where `read` goes on from: a row number of rowLog. */
    this.readCursor = undefined;
    /** The ask, needs_input and reply events so far (the newest CHAT_KEPT), for a page that attaches later. */
    this.chat = [];
  }

  /** Emits `event` (type, fields) to every listener, numbered; asks and replies are kept for later viewers. */
  publish(fields) {
    const ev = { seq: ++this.seq, session_id: this.id, ...fields };
    if (CHAT_EVENTS.has(ev.type)) {
      this.chat.push(ev);
      if (this.chat.length > CHAT_KEPT) this.chat.splice(0, this.chat.length - CHAT_KEPT);
    }
    this.emit('event', ev);
    return ev;
  }

  summary() {
    return {
      session_id: this.id,
      engine: this.engine,
      command: this.command,
      pid: this.session.pid,
      created_at: this.createdAt,
      exited: this.exit !== null,
      exit_code: this.exit?.exitCode ?? null,
      signal: this.exit?.signal ?? null,
    };
  }
}

export class SessionManager {
  /**
   * @param {{maxSessions?: number, idleTimeoutMs?: number, logChars?: number,
   *   binaryPath?: string, baseEnv?: NodeJS.ProcessEnv, log?: (msg: string) => void,
   *   warm?: [string, number][], instance?: string}} opts
   */
  constructor(opts = {}) {
    /** This server's name, the first part of every session id (src/instance.mjs). */
    this.instance = opts.instance ?? defaultInstance();
    this.maxSessions = opts.maxSessions ?? 16;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 0;
    this.logChars = opts.logChars ?? 1 << 20;
    this.binaryPath = opts.binaryPath;
    this.baseEnv = opts.baseEnv ?? process.env;
    this.logLine = opts.log ?? (() => {});
    /** @type {Map<string, Entry>} */
    this.entries = new Map();
    this.starting = 0;
    /** --warm: engine -> a SessionPool that keeps sessions started for session_start. */
    this.pools = new Map();
    for (const [engine, size] of opts.warm ?? []) {
      const onStartError = (e) => this.logLine(`--warm ${engine}: a session failed to start: ${e instanceof Error ? e.message : String(e)}`);
      this.pools.set(engine, new SessionPool(engine, { size, onStartError, env: this.baseEnv, ...(this.binaryPath ? { binaryPath: this.binaryPath } : {}) }));
    }
    this.sweeper = null;
    if (this.idleTimeoutMs > 0) {
      this.sweeper = setInterval(() => this.sweepIdle(), Math.max(50, Math.min(this.idleTimeoutMs / 4, 30_000)));
      this.sweeper.unref();
    }
  }

  /**
   * Starts a session: `engine` (a name from engines/) or `command` (an argv array).
   * @returns {Promise<Entry>}
   */
  async start(spec) {
    const { engine, command, cols, rows, cwd, env } = spec;
    if ((engine === undefined) === (command === undefined)) {
      throw new ClientError('bad_request', 'give exactly one of engine (a name, e.g. "python") or command (an argv array, e.g. ["bash"])');
    }
    if (engine !== undefined && (typeof engine !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(engine))) {
      throw new ClientError('bad_request', 'engine must be an engine name such as "python", "bash" or "claude"');
    }
    if (command !== undefined && (!Array.isArray(command) || command.length === 0 || !command.every((a) => typeof a === 'string'))) {
      throw new ClientError('bad_request', 'command must be a non-empty array of strings, e.g. ["bash", "-i"]');
    }
    for (const [k, v] of [['cols', cols], ['rows', rows]]) {
      if (v !== undefined && (!Number.isInteger(v) || v < 2 || v > 1000)) throw new ClientError('bad_request', `${k} must be an integer from 2 to 1000`);
    }
    if (cwd !== undefined && typeof cwd !== 'string') throw new ClientError('bad_request', 'cwd must be a string');
    if (env !== undefined && (typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((v) => typeof v === 'string'))) {
      throw new ClientError('bad_request', 'env must be an object of strings');
    }
    if (this.entries.size + this.starting >= this.maxSessions) {
      throw new ClientError('cap', `the session cap (${this.maxSessions}) is reached; terminate a session first`);
    }
    this.starting++;
    let session;
    try {
      const opts = {
        ...(cols !== undefined ? { cols } : {}),
        ...(rows !== undefined ? { rows } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...(this.binaryPath ? { binaryPath: this.binaryPath } : {}),
        env: env ? { ...this.baseEnv, ...env } : this.baseEnv,
      };
      const pool = cols === undefined && rows === undefined && cwd === undefined && env === undefined ? this.pools.get(engine) : undefined;
      session = pool ? await this.takeWarm(pool) : null;
      session ??= engine !== undefined ? await Session.spawn(engine, opts) : await Session.spawnCommand(command, opts);
    } catch (e) {
      throw fromShim(e, 'session_start');
    } finally {
      this.starting--;
    }
    let id;
    do id = `${this.instance}.${randomBytes(6).toString('hex')}`; while (this.entries.has(id));
    const entry = new Entry(id, session, { command }, this.logChars);
    this.entries.set(id, entry);
    this.logLine(`session ${id} started: ${engine ?? command[0]} (pid ${session.pid})`);
    await this.wire(entry);
    if (engine === undefined) {
      // A raw program is "ready" at once; give it a quiet moment to show its prompt, since
      // input typed before it sets up its terminal can be discarded (readline flushes it).
      await session.waitIdle({ idleMs: 300, timeoutMs: 1500 }).catch(() => undefined);
    }
    return entry;
  }

  /** A warm session of the pool, or null (the caller starts one cold) when the pool could not give one. */
  async takeWarm(pool) {
    try {
      return await pool.acquire();
    } catch (e) {
      this.logLine(`--warm ${pool.engine}: no warm session (${e instanceof Error ? e.message : String(e)}); starting one`);
      return null;
    }
  }

  /**
   * Logs and publishes the session's output from its start: the screen as it was when
   * the log began (the prompt printed before anyone listened), then every chunk, none
   * missed and none twice (the shim's mirror).
   */
  async wire(entry) {
    const s = entry.session;
    const onData = (data) => {
      const offset = entry.log.append(data);
      entry.publish({ type: 'output', data, offset });
    };
    const onExit = (info) => {
      if (entry.exit) return;
      entry.exit = info;
      entry.publish({ type: 'exit', exit_code: info.exitCode, signal: info.signal });
      this.logLine(`session ${entry.id} exited (${info.signal ?? `code ${info.exitCode}`})`);
    };
    s.on('exit', onExit);
    s.on('outputDropped', (ev) => entry.publish({ type: 'output_dropped', bytes: ev.bytes, events: ev.events }));
    await this.startLog(entry, onData);
    if (s.exitInfo) onExit(s.exitInfo);
  }

  /**
   * Starts the log with a snapshot holding the history above the screen and the screen,
   * then every later chunk. When output came between the scrollback and the screen
   * replies (a busy program), the snapshot is taken again, up to five times; after that
   * the screen alone starts the log, and the log says so.
   */
  async startLog(entry, onData) {
    const s = entry.session;
    for (let attempt = 1; ; attempt++) {
      let snap = null;
      const held = [];
      let sink = (d) => held.push(d);
      const m = s.mirror((scr) => { snap = scr; }, (d) => sink(d), { history: true });
      try {
        await m.ready;
      } catch {
        m.dispose();
        return; // the daemon is gone: the exit event says so
      }
      if (snap.history === null && attempt < 5) {
        m.dispose();
        continue;
      }
      if (snap.history === null) this.logLine(`session ${entry.id}: output kept coming; its replay starts at the screen, without the lines above it`);
      entry.stopMirror = () => m.dispose();
      onData(paint(snap));
      for (const d of held) onData(d);
      sink = onData;
      return;
    }
  }

  /** The session `id`, or a not_found error naming it. */
  get(id) {
    if (typeof id !== 'string' || !ID_RE.test(id)) throw new ClientError('bad_request', 'session_id must be a session id string from session_start or list');
    const e = this.entries.get(id);
    const holder = instanceOf(id);
    if (!e && holder !== null && holder !== this.instance) throw new ClientError('not_found', `session_id "${id}" is held by instance ${holder}, not by this one (${this.instance}): reach it through the router, or that instance itself`);
    if (!e) throw new ClientError('not_found', `unknown session_id "${id}" (terminated, idle-closed, or never started; list shows the open ones)`);
    e.lastUsed = Date.now();
    return e;
  }

  list() {
    return [...this.entries.values()].map((e) => e.summary());
  }

  /** Closes the session and forgets it; resolves with how the program ended. */
  async terminate(id) {
    const e = this.get(id);
    this.entries.delete(id);
    const info = await e.session.close();
    for (const q of e.questions.values()) q.reject(new Error('session terminated'));
    e.questions.clear();
    e.publish({ type: 'closed', exit_code: info.exitCode, signal: info.signal });
    e.removeAllListeners();
    this.logLine(`session ${id} terminated`);
    return info;
  }

  async closeAll() {
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    await Promise.all([...this.entries.keys()].map((id) => this.terminate(id).catch(() => undefined)));
  }

  sweepIdle() {
    const now = Date.now();
    for (const e of this.entries.values()) {
      // A long ask or expect is use, and so is anyone watching.
      if (now - e.lastUsed >= this.idleTimeoutMs && e.inFlight === 0 && e.listenerCount('event') === 0) {
        this.logLine(`session ${e.id} idle for ${this.idleTimeoutMs} ms: closing`);
        this.terminate(e.id).catch(() => undefined);
      }
    }
  }

  /** Calls the shim, turning its errors into ClientErrors that name the operation. */
  async call(entry, what, fn) {
    // Typed input answers a turn's question itself (the daemon sees it): nothing waits for run's answer.
    if (ANSWERING.has(what) && entry.turn?.question) entry.turn.question = null;
    if (ANSWERING.has(what) && what !== 'send') entry.afterSend = null; // other input came after that echo
    entry.inFlight++;
    try {
      return await fn(entry.session);
    } catch (e) {
      throw fromShim(e, what);
    } finally {
      entry.inFlight--;
      entry.lastUsed = Date.now();
    }
  }

  /**
   * What the session is doing, for every result: `starting`, `ready` (at its prompt),
   * `running` (a command or turn goes on), `needs_input` (a question waits for an answer),
   * `fullscreen` (an editor or pager on the alternate screen) or `exited`.
   */
  async state(entry) {
    if (entry.exit) return 'exited';
    if (entry.turn?.question) return 'needs_input'; // the daemon reported it (on_input: wait)
    try {
      return (await entry.session.status()).programState; // the daemon's judgement (docs/protocol.md, status)
    } catch {
      return entry.exit || entry.session.exited ? 'exited' : 'unknown';
    }
  }

  /**
   * Types `line` and returns what the program printed once it is ready again: the
   * engine's own completion for engine sessions, else quiet output (`idleMs`) with the
   * program itself back in the foreground. On timeout, what was printed so far with
   * `running: true`; the program is left running. Output is the emulator's rendering.
   */
  async run(entry, line, { timeoutMs = RUN_TIMEOUT_MS, idleMs = 500, maxChars = MAX_CHARS, signal } = {}) {
    this.alive(entry, 'run');
    const job = entry.runChain.then(() => (entry.engine
      ? this.runEngine(entry, line, { timeoutMs, signal })
      : this.runRaw(entry, line, { timeoutMs, idleMs, signal })));
    entry.runChain = job.catch(() => undefined);
    const r = await job;
    const cut = capTail(r.output, maxChars);
    return { ...r, output: cut.text, truncated: cut.truncated, state: r.state ?? await this.state(entry) };
  }

  /**
   * Engine sessions run one turn at a time (entry.turn). A question inside the turn ends
   * the wait with needs_input and keeps the turn waiting for its answer (the daemon's
   * `on_input: wait`): the next run's line is that answer (the daemon's `answer`), and
   * that run waits on for the turn's end. A turn that outlives a run's timeout goes on:
   * the next run waits for it within its own timeout, then says it still runs.
   */
  async runEngine(entry, line, { timeoutMs, signal }) {
    let turn = entry.turn;
    if (turn?.question) {
      turn.answerWith(line);
      return this.awaitTurn(entry, turn, { timeoutMs, signal });
    }
    if (turn) {
      // A cancel of this run ends its wait, not the earlier command.
      const r = await this.awaitTurn(entry, turn, { timeoutMs, signal, interrupt: false }).catch(() => null);
      if (signal?.aborted) throw new ClientError('failed', 'run cancelled', { kind: 'cancelled' });
      // The running turn asked a question meanwhile: that comes first, the line is not typed.
      if (r?.state === 'needs_input') return { ...r, note: `the previous run asks a question: "${line}" was not typed; answer it with run, send or keys first` };
      if (entry.turn === turn) {
        throw new ClientError('conflict', `the previous run on session ${entry.id} is still running after ${timeoutMs} ms: read its output with read, or interrupt it with signal`);
      }
    }
    turn = this.startTurn(entry, line);
    return this.awaitTurn(entry, turn, { timeoutMs, signal });
  }

  /** Starts an engine turn (an ask whose questions wait for an answer) as entry.turn. */
  startTurn(entry, line) {
    const abort = new AbortController();
    const turn = { partial: '', shown: '', question: null, done: false, result: null, error: null, abort, wake: [] };
    const poke = () => { for (const w of turn.wake.splice(0)) w(); };
    turn.changed = () => new Promise((resolve) => { turn.wake.push(resolve); });
    turn.answerWith = (text) => {
      const q = turn.question;
      turn.question = null;
      q?.resolve(text);
    };
    const onInput = (q) => new Promise((resolve, reject) => {
      turn.question = { text: q.question, options: q.options, resolve, reject };
      turn.asked = turn.question;
      poke();
    });
    // The daemon's own limit would interrupt the program; a run only stops waiting.
    turn.promise = this.call(entry, 'run', (s) => s.askTurn(line, {
      timeoutMs: 7 * 24 * 3600_000, onChunk: (d) => { turn.partial += d; }, onInput, signal: abort.signal,
    })).then((t) => { turn.result = t; }, (e) => { turn.error = e; }).finally(() => {
      turn.done = true;
      turn.question = null;
      turn.asked?.reject(new Error('the turn ended')); // a question answered by keys: nothing more waits
      if (entry.turn === turn) entry.turn = null;
      poke();
    });
    entry.turn = turn;
    return turn;
  }

  /**
   * Waits for `turn` to end, ask a question, or `timeoutMs` to pass. Output is what the
   * turn printed that no earlier run of it returned. A cancelled call interrupts the turn
   * (with `interrupt`), or only stops waiting.
   */
  async awaitTurn(entry, turn, { timeoutMs, signal, interrupt = true }) {
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(resolve, timeoutMs, 'late'); });
    let cancelled;
    const stop = new Promise((resolve) => { cancelled = resolve; });
    const onAbort = () => (interrupt ? turn.abort.abort() : cancelled('late'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (turn.done) {
          if (turn.error) throw turn.error;
          const text = unshown(turn.shown, turn.result.text);
          return { output: text, markdown: turn.result.markdown, exited: false, running: false };
        }
        if (turn.question) {
          const question = turn.question.text ?? '';
          // The question row may be in the streamed text already: show it once.
          const all = turn.partial.includes(question.trim()) ? turn.partial : [turn.partial, question].filter((x) => x !== '').join('\n');
          const output = unshown(turn.shown, all);
          turn.shown = all;
          return { output, markdown: null, exited: false, running: false, state: 'needs_input' };
        }
        if ((await Promise.race([turn.changed(), late, stop])) === 'late') {
          const output = unshown(turn.shown, turn.partial);
          turn.shown = turn.partial;
          return { output, markdown: null, exited: false, running: true };
        }
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Throws a clear `exited` error when the session's program has ended. */
  alive(entry, what) {
    if (!entry.exit && !entry.session.exited) return;
    const how = entry.exit ? (entry.exit.signal ? `killed by ${entry.exit.signal}` : `exit code ${entry.exit.exitCode}`) : 'its daemon is gone';
    throw new ClientError('failed', `${what} failed (exited): the program of session ${entry.id} has exited (${how}); start a new session`, { kind: 'exited' });
  }

  /**
   * A command session's run is the daemon's (`run`, docs/protocol.md): it types the line
   * once the program is done with what came before, judges when it is done again, and
   * gives the output without the line's echo and the prompt that came back. A cancelled
   * run is interrupted there (C-c), so the next run starts at a prompt.
   */
  async runRaw(entry, line, { timeoutMs, idleMs, signal }) {
    try {
      const r = await this.call(entry, 'run', (s) => s.run(line, { timeoutMs, idleMs, signal }));
      const exited = r.programState === 'exited' || entry.session.exited;
      return { output: r.output, markdown: null, exited, running: r.running, state: r.programState };
    } catch (e) {
      // The command before never ended: the line was not typed.
      if (e.extra?.kind === 'busy') {
        throw new ClientError('conflict', `the previous command on session ${entry.id} is still running after ${timeoutMs} ms: read its output with read, or interrupt it with signal`);
      }
      throw e;
    }
  }

  /** Waits for `idleMs` without output: true, or false at the timeout (not an error). */
  async waitIdle(entry, { idleMs, timeoutMs, signal }) {
    try {
      await this.call(entry, 'wait_idle', (s) => s.waitIdle({ ...(idleMs !== undefined ? { idleMs } : {}), timeoutMs, signal }));
      return true;
    } catch (e) {
      if (e.extra?.kind === 'timeout') return false;
      throw e;
    }
  }

  /** Runs `fn` after every earlier take of rows and resize of `entry` (see RowLog). */
  rowsLocked(entry, fn) {
    const job = entry.rowChain.then(fn);
    entry.rowChain = job.catch(() => undefined);
    return job;
  }

  /**
   * The finished rows after the last read (or from row `cursor`), as the emulator rendered
   * them, each once; `pending` is the unfinished rest (the cursor's line: a prompt, a
   * question, a partial line), not read yet: it comes in `output` once finished.
   */
  async read(entry, { cursor, maxChars = MAX_CHARS } = {}) {
    const log = entry.rowLog;
    await this.rowsLocked(entry, async () => {
      const r = await this.call(entry, 'read', (s) => s.scrollbackRows({ wrapped: true }));
      log.take(r, entry.exit !== null);
    });
    // A first read starts at the session's first row: rows that left the log count as dropped.
    const from = cursor ?? entry.readCursor ?? 0;
    if (from > log.end) throw new ClientError('bad_request', `cursor ${from} is past the last finished row (${log.end}): give a next_cursor of an earlier read`);
    const p = log.read(from, maxChars);
    entry.readCursor = p.next;
    return {
      output: p.rows.join('\n'),
      cursor: p.next - p.rows.length,
      next_cursor: p.next,
      has_more: p.more,
      dropped_rows: p.dropped,
      pending: log.pending.join('\n'),
      state: await this.state(entry),
    };
  }

  /**
   * Resizes the terminal. A new width re-wraps the daemon's rows and renumbers them: the
   * daemon says where the row log's next row went, so no row is read twice or skipped.
   */
  resize(entry, cols, rows) {
    this.alive(entry, 'resize');
    return this.rowsLocked(entry, () => this.call(entry, 'resize', async (s) => {
      const log = entry.rowLog;
      const r = await s.resize(cols, rows, log.next !== undefined ? { followRow: log.next } : {});
      if (r.followRow !== undefined) log.moved(r.followRow);
      entry.publish({ type: 'resize', cols: r.cols, rows: r.rows }); // viewers follow the session's size
      return { cols: r.cols, rows: r.rows };
    }));
  }

  /**
   * MCP's ask: a run of `prompt` on an engine session (a question ends the wait with
   * needs_input, a timeout with the partial reply and running: nothing is interrupted),
   * shown in the page's chat as an ask and its reply.
   */
  async askRun(entry, prompt, opts) {
    this.requireEngine(entry);
    const askId = entry.nextAskId++;
    entry.publish({ type: 'ask', ask_id: askId, prompt });
    try {
      const r = await this.run(entry, prompt, opts);
      if (!r.running && r.state !== 'needs_input') entry.publish({ type: 'reply', ok: true, ask_id: askId, text: r.output, markdown: r.markdown });
      return r;
    } catch (e) {
      entry.publish({ type: 'reply', ok: false, ask_id: askId, error: e.message, kind: e.extra?.kind ?? 'error' });
      throw e;
    }
  }

  requireEngine(entry) {
    if (!entry.engine) {
      throw new ClientError('bad_request', `session ${entry.id} runs a command, not an engine: ask needs an engine session (use run, or send and expect)`);
    }
  }

  /**
   * An ask (engine sessions). `onChunk` streams the reply; with `interactive`, a question
   * inside the turn is published as `needs_input` and waits for `answer`.
   */
  async ask(entry, prompt, { timeoutMs, stream = false, interactive = false, signal } = {}) {
    this.requireEngine(entry);
    const askId = entry.nextAskId++;
    const opts = {};
    if (timeoutMs !== undefined) opts.timeoutMs = timeoutMs;
    if (signal) opts.signal = signal;
    if (stream) opts.onChunk = (delta) => entry.publish({ type: 'chunk', ask_id: askId, delta });
    if (interactive) {
      opts.onInput = (q) => new Promise((resolve, reject) => {
        entry.questions.set(askId, { resolve, reject, question: q.question, options: q.options });
        entry.publish({ type: 'needs_input', ask_id: askId, question: q.question, options: q.options });
      });
    }
    entry.publish({ type: 'ask', ask_id: askId, prompt });
    try {
      const turn = await this.call(entry, 'ask', (s) => s.askTurn(prompt, opts));
      const reply = { ask_id: askId, text: turn.text, markdown: turn.markdown };
      entry.publish({ type: 'reply', ok: true, ...reply });
      return reply;
    } catch (e) {
      entry.publish({ type: 'reply', ok: false, ask_id: askId, error: e.message, kind: e.extra?.kind ?? 'error' });
      throw e;
    } finally {
      entry.questions.delete(askId);
    }
  }

  /**
   * Starts recording to `file` (relative to the program's working directory; an existing
   * file only with `overwrite`), or stops (`file` undefined). Resolves with the full path.
   */
  async record(entry, file, { overwrite = false } = {}) {
    if (file === undefined) {
      await this.call(entry, 'record', (s) => s.record({ stop: true }));
      return '';
    }
    const st = await this.call(entry, 'record', (s) => s.status());
    const full = path.resolve(st.cwd ?? process.cwd(), file);
    if (!overwrite && fs.existsSync(full)) throw new ClientError('conflict', `record: ${full} exists; give overwrite: true to replace it`);
    await this.call(entry, 'record', (s) => s.record({ path: full }));
    return full;
  }

  /**
   * Types `data` and returns once the program has drawn its echo (the last line typed),
   * so that an `expect` right after it sees only what came after: never the echo of the
   * line just sent. A program that echoes nothing (a password prompt, raw input) costs
   * at most ECHO_WAIT_MS.
   */
  async send(entry, data) {
    const typed = echoOf(data);
    entry.afterSend = null;
    // Asked before the data goes out: the daemon takes requests in order, so the echo cannot slip past it.
    const echo = typed === '' ? null : entry.session.expect(re2Literal(typed), { outputOnly: true, timeoutMs: ECHO_WAIT_MS }).then(() => true, () => false);
    const from = typed === '' ? null : await this.call(entry, 'send', (s) => s.scrollbackRows({ wrapped: true }));
    await this.call(entry, 'send', (s) => s.send(data));
    if (!(await echo)) return;
    // The output after the echo starts below the echo's rows: an expect right after this
    // send looks there too, since the program may print before that expect reaches the daemon.
    const r = await this.call(entry, 'send', (s) => s.scrollbackRows({ wrapped: true }));
    const row = rowAfter(r, from.cursorRow, typed);
    if (row !== null) entry.afterSend = { row };
  }

  /**
   * Waits for `pattern` (RE2) in output that appears after the call, or with `screenWide`
   * on the screen too. Right after a send that saw its echo, output already printed below
   * the echo counts as after the call (never the echo itself).
   */
  async expect(entry, pattern, { timeoutMs, screenWide = false, signal } = {}) {
    const since = entry.afterSend;
    entry.afterSend = null;
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // Registered first: output from here on is the daemon's to match; the rows below
      // the echo, read after it, hold everything printed before.
      const live = this.call(entry, 'expect', (s) => s.expect(pattern, { ...(timeoutMs !== undefined ? { timeoutMs } : {}), outputOnly: !screenWide, signal: ac.signal }));
      live.catch(() => undefined);
      const re = since && !screenWide ? jsRegex(pattern) : null;
      if (re) {
        const r = await this.call(entry, 'expect', (s) => s.scrollbackRows());
        const m = re.exec(r.lines.slice(Math.max(0, since.row - r.firstRow)).join('\n'));
        if (m) {
          ac.abort();
          return { match: m[0], groups: m.slice(1).map((g) => g ?? '') };
        }
      }
      return await live;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Presses keys by name (tmux's, or an xdotool or Playwright alias); anything that is no
   * key name is refused, naming the accepted forms, and nothing is sent.
   */
  keys(entry, keys) {
    if (!Array.isArray(keys) || keys.length === 0) throw new ClientError('bad_request', 'keys must be a non-empty array of key names');
    const k = keyNames(keys);
    if (k.error) throw new ClientError('failed', k.error); // a tool failure (isError, 422), as the daemon's was
    return this.call(entry, 'keys', (s) => s.keys(k.names));
  }

  /** Answers the question ask `askId` is waiting on: a choice's index, or text. */
  answer(entry, askId, choice) {
    const q = entry.questions.get(askId);
    if (!q) throw new ClientError('conflict', `ask ${askId} of session ${entry.id} is not waiting for an answer`);
    if (typeof choice === 'number' && !q.options.some((o) => o.index === choice)) {
      throw new ClientError('bad_request', `option ${choice} is not one of the question's choices (${q.options.map((o) => o.index).join(', ') || 'none: answer with text'})`);
    }
    entry.questions.delete(askId);
    q.resolve(choice);
  }
}

/** Calls whose input reaches the program, and so answer a question it asks. */
const ANSWERING = new Set(['send', 'keys', 'send_secret', 'paste', 'input']);

/**
 * `text` without its first rows that `shown` already gave (a turn returned in parts: up to
 * its question, then the rest); the question's row with the typed answer after it counts.
 */
export function unshown(shown, text) {
  if (shown.trim() === '') return text;
  const a = shown.replace(/\n+$/, '').split('\n');
  const b = text.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && b[i].trimEnd() === a[i].trimEnd()) i++;
  if (i === a.length - 1 && i < b.length && a[i].trim() !== '' && b[i].startsWith(a[i].trimEnd())) i++;
  return i === a.length ? b.slice(i).join('\n') : text;
}

/** The longest `send` waits for the echo of what it typed. */
const ECHO_WAIT_MS = 2_000;

/**
 * What a program echoes last of `data`: the last 16 characters of its last line with
 * text (an escape sequence or another control character: no echo is awaited).
 */
export function echoOf(data) {
  const lines = data.split(/[\r\n]/).filter((l) => l !== '');
  const last = lines.at(-1) ?? '';
  if (/[\x00-\x1f\x7f]/.test(last)) return '';
  return [...last].slice(-16).join('').trim();
}

/**
 * An RE2 pattern as a JavaScript RegExp, for the few rows an expect checks itself (see
 * SessionManager.expect): leading flags (?ims) and (?P<name>) translated; null for a
 * pattern JavaScript reads otherwise (the daemon alone matches it then).
 */
export function jsRegex(pattern) {
  const lead = /^\(\?([ims]+)\)/.exec(pattern);
  const source = (lead ? pattern.slice(lead[0].length) : pattern).replace(/\(\?P</g, '(?<');
  if (/\(\?[a-zA-Z-]+[):]|\\[Azpx]|\[\[:/.test(source)) return null; // inline flags, \A \z \pN \x{..}, [[:alpha:]]
  for (const flags of ['u', '']) {
    try {
      return new RegExp(source, (lead ? lead[1] : '') + flags);
    } catch {
      // not valid in this mode
    }
  }
  return null;
}

/**
 * The row after the first logical line (wrapped rows joined) from row `start` on that
 * holds `text`, in a scrollback reply with wrap flags; null when none does.
 */
export function rowAfter(r, start, text) {
  let line = '';
  for (let row = Math.max(start, r.firstRow); row < r.firstRow + r.lines.length; row++) {
    line += r.lines[row - r.firstRow];
    if (r.wrapped[row - r.firstRow]) continue;
    if (line.includes(text)) return row + 1;
    line = '';
  }
  return null;
}

/** `text` as an RE2 pattern that matches it literally. */
export function re2Literal(text) {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** The default and largest `max_chars` of a result (tail kept). */
export const MAX_CHARS = 20_000;
/** The most rows `read` keeps per session, as many as the daemon's default history. */
export const ROW_LOG_ROWS = 10_000;
/** How long `run` waits by default: within an MCP client's usual 60 s request limit. */
export const RUN_TIMEOUT_MS = 30_000;

/** `text` cut to its last `max` characters: { text, truncated }. */
export function capTail(text, max = MAX_CHARS) {
  if (text.length <= max) return { text, truncated: false };
  let cut = text.slice(text.length - max);
  if (/^[\udc00-\udfff]/.test(cut)) cut = cut.slice(1); // never half an emoji
  return { text: cut, truncated: true };
}

/** The screen as text for a model: the rows, then where the cursor is. */
export function screenText(scr) {
  const rows = scr.lines.slice();
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  return `${rows.join('\n')}\n[cursor row ${scr.cursor.row}, col ${scr.cursor.col}; ${scr.cols}x${scr.rows}${scr.altScreen ? '; alternate screen' : ''}${scr.title ? `; title "${scr.title}"` : ''}]`;
}
