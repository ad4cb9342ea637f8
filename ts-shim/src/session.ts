import { spawn as spawnProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { daemonEnv, findBinary } from './binary';
import { TuiDriverError, toKind, type TuiDriverErrorKind } from './errors';
import { SessionPseudoterminal, type PseudoterminalOptions, type Disposable } from './pseudoterminal';

export interface SpawnOptions {
  /** Working directory of the program (default: this process's). */
  cwd?: string;
  /** Environment of the daemon and the program, as in `child_process.spawn` (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Terminal size (default 120x40). */
  cols?: number;
  rows?: number;
  /** `agent` appends the engine's agent arguments and answers its first-run dialogs. */
  mode?: 'exec' | 'agent';
  /** Appended to the program's arguments. */
  extraArgs?: string[];
  /** Use this binary instead of looking for one (see `findBinary`). */
  binaryPath?: string;
  /** Give up (kind `timeout`) when the program has not shown its prompt in time. Default: the engine's own limit. */
  readyTimeoutMs?: number;
  /** Load the engine from this file instead of `engines/NAME.json`. */
  engineFile?: string;
  /** Lines of history to keep (daemon default: 10000). */
  scrollback?: number;
  /** Records the session from its start to this file, asciicast v2 (see `record()`). */
  record?: string;
  /** Continue an earlier conversation by its session id (`sessionId`; engines with a transcript, e.g. `claude`). */
  resume?: string;
}

export interface AskOptions {
  /** Fail with kind `timeout` after this long (default: the engine's `timeouts.ask_ms`). */
  timeoutMs?: number;
  /** Aborting cancels the ask through the protocol's `cancel`; it then rejects with kind `cancelled`. */
  signal?: AbortSignal;
  /**
   * Answers questions the program asks inside the turn (a tool's permission dialog): the ask is
   * sent with `on_input: "wait"`, and each question is passed here; return a choice's `index`
   * (a number) or free text (a string). A rejection cancels the ask. Without it, a question
   * ends the ask with kind `needs_input`.
   */
  onInput?: (question: NeedsInputEvent) => number | string | Promise<number | string>;
  /**
   * `askTurn` only: called with each delta of the reply as it grows (the ask is sent as
   * `ask_stream`); the deltas, concatenated, equal the result's `text`.
   */
  onChunk?: (delta: string) => void;
}

/** A question inside a turn (asks with `onInput`): the `needsInput` event, and `onInput`'s argument. */
export interface NeedsInputEvent {
  /** The ask's request id, for `answer`. */
  askId: number;
  question: string;
  /** The choices, as the dialog numbers them; empty for a free-text question. */
  options: { index: number; label: string }[];
}

/** status.explain: which engine rule decides the screen's state (see docs/protocol.md). */
export interface StateExplanation {
  verdict: 'dialog' | 'needs_input' | 'busy' | 'ready' | 'unknown';
  rule: RuleMatch | null;
  note: string;
  also: RuleMatch[];
}

export interface RuleMatch {
  rule: string;
  index?: number;
  name?: string;
  pattern: string;
  row: number | null;
  text: string;
}

/** One tool call of an agent's turn, as the CLI recorded it. */
export interface TurnTool {
  name: string;
  /** The tool's input, as the model sent it. */
  input: unknown;
  output: string;
  ok: boolean;
}

/** An agent turn as the CLI recorded it in its transcript. */
export interface Turn {
  sessionId: string;
  tools: TurnTool[];
  usage: { inputTokens: number; outputTokens: number };
  model: string | null;
}

/** One past turn of a resumed session, as the CLI's transcript recorded it (`history`). */
export interface HistoryTurn {
  /** The user's prompt. */
  prompt: string;
  /** The model's final answer of the turn, byte-exact markdown. */
  markdown: string;
  tools: TurnTool[];
}

/** `askTurn`'s result: the screen's text, and the model's own answer when the transcript had it. */
export interface TurnResult {
  /** The reply as the screen shows it (what `ask` resolves with). */
  text: string;
  /** The model's final answer of the turn, byte-exact markdown; null when the transcript could not be read. */
  markdown: string | null;
  /** Tool calls, usage, model and session id; null without a transcript. */
  turn: Turn | null;
  /** Why `markdown` is null, when the engine has a transcript. */
  transcriptError?: string;
}

export interface ExitInfo {
  /** The program's exit code, or null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it (`SIGKILL`, ...), or null. */
  signal: string | null;
}

export interface ScreenState {
  lines: string[];
  cursor: { row: number; col: number; visible: boolean };
  cols: number;
  rows: number;
  altScreen: boolean;
  title: string;
}

/**
 * Cells of one row with the same attributes (`screen({ styles: true })`); cells with none set
 * are in no run. Colours are a palette index 0–255 or `'#rrggbb'`; only set attributes appear.
 */
export interface StyleRun {
  col: number;
  /** Columns (a wide character counts two). */
  len: number;
  fg?: number | string;
  bg?: number | string;
  bold?: true;
  dim?: true;
  italic?: true;
  underline?: true;
  blink?: true;
  reverse?: true;
  invisible?: true;
  strike?: true;
}

/** The screen with its styles: `styles[i]` holds the runs of `lines[i]`, left to right. */
export interface StyledScreenState extends ScreenState {
  styles: StyleRun[][];
}

export interface SessionStatus {
  /** `needs_input`: engines that decide questions from the process (bash, python), between asks. */
  state: 'starting' | 'ready' | 'busy' | 'needs_input' | 'exited';
  pid: number | null;
  foregroundPid: number | null;
  /** The foreground process waits reading the terminal; null when that cannot be observed. */
  readsTerminal: boolean | null;
  cwd: string | null;
  cols: number;
  rows: number;
  engine: string | null;
  mode: string;
  queued: number;
  exitCode: number | null;
  signal: string | null;
  /** Which engine rule decides what the screen shows now: the first thing to read when busy or done is judged wrong. */
  explain: StateExplanation;
  /** The agent CLI's session id (engines with a transcript), for `resume`. */
  sessionId: string | null;
}

/** Rows of history and screen, numbered from the session's start (see `scrollbackRows`). */
export interface ScrollbackRows {
  lines: string[];
  firstRow: number;
  /** With `{ wrapped: true }`: per line, whether the terminal wrapped it onto the next. */
  wrapped?: boolean[];
  /** With `{ wrapped: true }`: the number of the row the cursor is on. */
  cursorRow?: number;
  /** With `{ wrapped: true }`: the screen rows are the alternate screen's. */
  altScreen?: boolean;
}

export interface ExpectResult {
  match: string;
  groups: string[];
}

export interface DialogEvent {
  name: string;
  keys: string[];
}

export interface OutputDroppedEvent {
  bytes: number;
  events: number;
  reason?: string;
}

/**
 * Events: `output` (raw program output, string), `exit` (ExitInfo, once), `dialog`, `needsInput`,
 * `outputDropped`, `stderr` (the daemon's diagnostics, as they come after the spawn; what came
 * before is in `stderrTail`), `close` (the daemon is gone).
 */
export interface SessionEvents {
  output: [data: string];
  stderr: [chunk: string];
  exit: [info: ExitInfo];
  dialog: [event: DialogEvent];
  needsInput: [event: NeedsInputEvent];
  outputDropped: [event: OutputDroppedEvent];
  close: [];
}

type Json = Record<string, unknown>;

interface Pending {
  resolve(reply: Json): void;
  reject(err: TuiDriverError): void;
  onChunk?: (delta: string) => void;
  onNeedsInput?: (event: NeedsInputEvent) => void;
  /** Runs while the reply line is handled, before any later line. */
  onReplySync?: () => void;
}

interface RequestHandle {
  id: number;
  promise: Promise<Json>;
}

const STDERR_TAIL = 8192;

/**
 * One program on a pseudo-terminal, driven through one tuidriver daemon process.
 * Create it with `Session.spawn` (an engine) or `Session.spawnCommand` (any program);
 * end it with `close()` or `await using`. The daemon dies with this process, and when
 * it dies every pending call rejects at once.
 */
export class Session extends EventEmitter<SessionEvents> {
  /** The engine's name, or null for a raw session. */
  readonly engine: string | null;
  /** The program's pid. */
  readonly pid: number;
  /** The daemon's pid. */
  readonly daemonPid: number;
  /** The agent CLI's session id, when the engine has a transcript (pass it as `resume` to continue later). */
  readonly sessionId: string | null;

  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail_ = '';
  private exitInfo_: ExitInfo | null = null;
  private daemonGone_ = false;
  private daemonGoneWaiters: Array<() => void> = [];
  private subscribed: Promise<unknown> | null = null;
  private closing: Promise<ExitInfo> | null = null;

  private constructor(child: ChildProcessWithoutNullStreams, ready: Json, stderrTail: string) {
    super();
    this.child = child;
    this.engine = typeof ready.engine === 'string' ? ready.engine : null;
    this.pid = Number(ready.pid);
    this.daemonPid = child.pid ?? -1;
    this.sessionId = typeof ready.session_id === 'string' ? ready.session_id : null;
    this.stderrTail_ = stderrTail;
    (this as EventEmitter).on('newListener', (event: string | symbol) => {
      if (event === 'output') this.ensureSubscribed();
    });
  }

  /** Starts `engine` (a name from engines/, e.g. `python`, `claude`) and resolves once its prompt shows. */
  static spawn(engine: string, opts: SpawnOptions = {}): Promise<Session> {
    const args = [engine, ...commonArgs(opts)];
    if (opts.mode !== undefined) args.push('--mode', opts.mode);
    for (const a of opts.extraArgs ?? []) args.push(`--extra-arg=${a}`);
    if (opts.engineFile !== undefined) args.push('--engine-file', opts.engineFile);
    if (opts.resume !== undefined) args.push('--resume', opts.resume);
    return Session.start(args, opts);
  }

  /** Starts any program (a raw session: everything but `ask`). `argv[0]` is looked up on PATH. */
  static spawnCommand(argv: string[], opts: Omit<SpawnOptions, 'mode' | 'extraArgs' | 'engineFile'> = {}): Promise<Session> {
    if (argv.length === 0) return Promise.reject(new TuiDriverError('spawn', 'spawnCommand needs a command'));
    return Session.start([...commonArgs(opts), '--', ...argv], opts);
  }

  private static start(args: string[], opts: SpawnOptions): Promise<Session> {
    let bin: string;
    try {
      bin = findBinary({ ...(opts.binaryPath !== undefined ? { binaryPath: opts.binaryPath } : {}), ...(opts.env ? { env: opts.env } : {}) });
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<Session>((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawnProcess(bin, args, { env: daemonEnv(bin, opts.env ?? process.env), stdio: 'pipe' });
      } catch (e) {
        reject(new TuiDriverError('spawn', `cannot start ${bin}: ${(e as Error).message}`, { cause: e }));
        return;
      }
      let stderr = '';
      let startupError: Json | null = null;
      let exitedBeforeReady = false;
      let session: Session | null = null;
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const fail = (err: TuiDriverError) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        reject(err);
      };
      child.stdin.on('error', () => { /* EPIPE: the exit handler reports it */ });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (s: string) => {
        if (session) session.appendStderr(s);
        else stderr = (stderr + s).slice(-STDERR_TAIL);
      });
      const decoder = new StringDecoder('utf8');
      let buf = '';
      const onLine = (line: string) => {
        if (line === '') return;
        let msg: Json;
        try {
          msg = JSON.parse(line) as Json;
        } catch {
          if (session) session.appendStderr(`[unreadable stdout line] ${line.slice(0, 200)}\n`);
          return;
        }
        if (session) {
          session.handleMessage(msg);
          return;
        }
        if (msg.type === 'ready') {
          session = new Session(child, msg, stderr);
          settled = true;
          if (timer) clearTimeout(timer);
          resolve(session);
        } else if (msg.type === 'error' && msg.id === undefined) {
          startupError = msg;
        } else if (msg.type === 'exit' && !startupError) {
          // (After a not_ready timeout the daemon ends the program: that exit
          // comes after the error and does not make it an `exited` failure.)
          exitedBeforeReady = true;
        }
      };
      child.stdout.on('data', (data: Buffer) => {
        buf += decoder.write(data);
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          onLine(line);
        }
      });
      child.on('error', (e) => {
        fail(new TuiDriverError('spawn', `cannot start ${bin}: ${e.message}`, { cause: e, stderr }));
      });
      child.on('close', (code, signal) => {
        if (buf !== '') onLine(buf + decoder.end());
        if (session) {
          session.onDaemonGone(code, signal);
          return;
        }
        if (startupError) {
          const dk = startupError.kind;
          const kind: TuiDriverErrorKind =
            dk === 'engine' ? 'engine' : dk !== 'not_ready' ? 'spawn' : exitedBeforeReady ? 'exited' : 'timeout';
          fail(new TuiDriverError(kind, String(startupError.error), { stderr, reply: startupError }));
        } else {
          fail(new TuiDriverError('spawn', `tuidriver exited before the program was ready (${describeExit(code, signal)})`, { stderr }));
        }
      });
      if (opts.readyTimeoutMs !== undefined) {
        timer = setTimeout(() => {
          fail(new TuiDriverError('timeout', `the program was not ready within ${opts.readyTimeoutMs} ms`, { stderr }));
          child.kill('SIGTERM');
        }, opts.readyTimeoutMs);
      }
    });
  }

  /** The last few KiB of the daemon's stderr. */
  get stderrTail(): string {
    return this.stderrTail_;
  }

  /** How the program ended, once it has. */
  get exitInfo(): ExitInfo | null {
    return this.exitInfo_;
  }

  /** True once the program has ended or the daemon is gone. */
  get exited(): boolean {
    return this.exitInfo_ !== null || this.daemonGone_;
  }

  /** Sends `prompt` and resolves with the program's reply, without the echo, the prompt or escape codes. Asks run one at a time, in call order. */
  async ask(prompt: string, opts: AskOptions = {}): Promise<string> {
    const reply = await this.askRequest('ask', prompt, opts).promise;
    return String(reply.text ?? '');
  }

  /**
   * Like `ask`, and also the model's own markdown, its tool calls, usage, model and the
   * session id, read from the agent CLI's transcript (engines that declare one, e.g. `claude`).
   * With `onChunk`, the reply also streams as `askStream`'s does.
   */
  async askTurn(prompt: string, opts: AskOptions = {}): Promise<TurnResult> {
    const { onChunk } = opts;
    const reply = await (onChunk ? this.askRequest('ask_stream', prompt, opts, onChunk) : this.askRequest('ask', prompt, opts)).promise;
    const t = reply.turn as Record<string, unknown> | undefined;
    const usage = (t?.usage ?? {}) as Record<string, number>;
    const result: TurnResult = {
      text: String(reply.text ?? ''),
      markdown: typeof reply.markdown === 'string' ? reply.markdown : null,
      turn: t ? {
        sessionId: String(t.session_id),
        tools: (t.tools as TurnTool[] | undefined) ?? [],
        usage: { inputTokens: Number(usage.input_tokens ?? 0), outputTokens: Number(usage.output_tokens ?? 0) },
        model: (t.model as string | null) ?? null,
      } : null,
    };
    if (typeof reply.transcript_error === 'string') result.transcriptError = reply.transcript_error;
    return result;
  }

  /**
   * Like `ask`, but yields the reply in deltas as it arrives; the generator's return value is
   * the final text (authoritative should the program have rewritten streamed lines). Leaving
   * a `for await` loop early cancels the ask.
   */
  async *askStream(prompt: string, opts: AskOptions = {}): AsyncGenerator<string, string, undefined> {
    const deltas: string[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    let reply: Json | null = null;
    let error: unknown = null;
    const handle = this.askRequest('ask_stream', prompt, opts, (d) => {
      deltas.push(d);
      wake?.();
    });
    handle.promise.then(
      (r) => { reply = r; done = true; wake?.(); },
      (e: unknown) => { error = e; done = true; wake?.(); },
    );
    try {
      for (;;) {
        const d = deltas.shift();
        if (d !== undefined) {
          yield d;
          continue;
        }
        if (done) break;
        await new Promise<void>((r) => { wake = r; });
        wake = null;
      }
      if (error !== null) throw error;
      return String((reply as Json | null)?.text ?? '');
    } finally {
      if (!done) {
        this.cancelRequest(handle.id);
        await handle.promise.catch(() => undefined);
      }
    }
  }

  /** Writes `data` to the program as it is (`\r` is Enter). */
  async send(data: string): Promise<void> {
    await this.call({ type: 'send', data });
  }

  /** Like `send`, but the daemon never echoes `data` in any reply, event, error or log. */
  async sendSecret(data: string): Promise<void> {
    await this.call({ type: 'send_secret', data });
  }

  /** Sends tmux-style keys: `Enter`, `Escape`, `C-c`, `Up`, `F1`, ...; anything else is typed as text. */
  async keys(keys: string | string[]): Promise<void> {
    await this.call({ type: 'keys', keys: Array.isArray(keys) ? keys : [keys] });
  }

  /** Pastes `text`, as bracketed paste when the program enabled it. */
  async paste(text: string): Promise<{ bracketed: boolean }> {
    const r = await this.call({ type: 'paste', text });
    return { bracketed: r.bracketed === true };
  }

  /**
   * Resizes the terminal; the program gets SIGWINCH. A new width re-wraps the rows and so
   * renumbers them: `followRow` (a row number from `scrollbackRows`) comes back as the
   * number of the row its first character went to.
   */
  async resize(cols: number, rows: number, opts: { followRow?: number } = {}): Promise<{ cols: number; rows: number; followRow?: number }> {
    const r = await this.call({ type: 'resize', cols, rows, ...(opts.followRow !== undefined ? { follow_row: opts.followRow } : {}) });
    const size = { cols: Number(r.cols), rows: Number(r.rows) };
    return opts.followRow !== undefined ? { ...size, followRow: Number(r.follow_row) } : size;
  }

  /**
   * The rendered screen: one string per row, trailing blanks trimmed. With `{ styles: true }`,
   * also each row's styled runs (colours, bold, reverse...).
   */
  async screen(): Promise<ScreenState>;
  async screen(opts: { styles: true }): Promise<StyledScreenState>;
  async screen(opts: { styles?: boolean }): Promise<ScreenState | StyledScreenState>;
  async screen(opts: { styles?: boolean } = {}): Promise<ScreenState | StyledScreenState> {
    if (!opts.styles) return toScreen(await this.call({ type: 'screen' }));
    const r = await this.call({ type: 'screen', styles: true });
    return { ...toScreen(r), styles: r.styles as StyleRun[][] };
  }

  /**
   * Records the session to an asciicast v2 file (asciinema): `{ path }` starts (the file is
   * replaced), `{ stop: true }` stops. Input sent with `sendSecret` is recorded as a marker only.
   */
  async record(opts: { path: string } | { stop: true }): Promise<void> {
    await this.call('path' in opts ? { type: 'record', path: opts.path } : { type: 'record', stop: true });
  }

  /** History followed by the screen, oldest first; `lines` keeps the newest N. */
  async scrollback(opts: { lines?: number } = {}): Promise<string[]> {
    return (await this.scrollbackRows(opts)).lines;
  }

  /**
   * The scrollback with `firstRow`, the number of its first line counted from the session's
   * start: rows from N on in a later answer are the ones after row N-1 of this one (until a
   * resize to another width renumbers them). `{ wrapped: true }` adds each line's wrap flag,
   * the cursor's row and whether the alternate screen shows: enough to tell the lines a
   * program finished from the one it is still writing.
   */
  async scrollbackRows(opts: { lines?: number; wrapped?: boolean } = {}): Promise<ScrollbackRows> {
    const r = await this.call({
      type: 'scrollback',
      ...(opts.lines !== undefined ? { lines: opts.lines } : {}),
      ...(opts.wrapped ? { wrapped: true } : {}),
    });
    const rows: ScrollbackRows = { lines: r.lines as string[], firstRow: Number(r.first_row ?? 0) };
    if (opts.wrapped) {
      rows.wrapped = r.wrapped as boolean[];
      rows.cursorRow = Number(r.cursor_row);
      rows.altScreen = r.alt_screen === true;
    }
    return rows;
  }

  /**
   * Waits until an RE2 pattern matches the screen or the output since this call. A RegExp's
   * `i`, `m` and `s` flags are honoured. Rejects with kind `timeout` (default 30 s).
   */
  async expect(pattern: string | RegExp, opts: { timeoutMs?: number; outputOnly?: boolean; signal?: AbortSignal } = {}): Promise<ExpectResult> {
    const r = await this.abortable({
      type: 'expect',
      pattern: toRe2(pattern),
      ...timeoutField(opts.timeoutMs),
      ...(opts.outputOnly ? { output_only: true } : {}),
    }, opts.signal).promise;
    return { match: String(r.match), groups: (r.groups as string[] | undefined) ?? [] };
  }

  /**
   * Resolves once the program has printed nothing for `idleMs` (default 500). Aborting
   * `signal` ends the wait with kind `cancelled`.
   */
  async waitIdle(opts: { idleMs?: number; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<void> {
    await this.abortable({
      type: 'wait_idle',
      ...(opts.idleMs !== undefined ? { idle_ms: opts.idleMs } : {}),
      ...timeoutField(opts.timeoutMs),
    }, opts.signal).promise;
  }

  /** Sends a signal (`INT`, `SIGTERM`, `9`, ...) to the terminal's foreground process group; resolves with its name. */
  async signal(signal: string | number): Promise<string> {
    const r = await this.call({ type: 'signal', signal: String(signal) });
    return String(r.signal);
  }

  async status(): Promise<SessionStatus> {
    const r = await this.call({ type: 'status' });
    return {
      state: r.state as SessionStatus['state'],
      pid: (r.pid as number | null) ?? null,
      foregroundPid: (r.foreground_pid as number | null) ?? null,
      readsTerminal: typeof r.reads_terminal === 'boolean' ? r.reads_terminal : null,
      cwd: (r.cwd as string | null) ?? null,
      cols: Number(r.cols),
      rows: Number(r.rows),
      engine: (r.engine as string | null) ?? null,
      mode: String(r.mode),
      queued: Number(r.queued),
      exitCode: (r.exit_code as number | null) ?? null,
      signal: (r.signal as string | null) ?? null,
      explain: r.explain as StateExplanation,
      sessionId: (r.session_id as string | null) ?? null,
    };
  }

  /**
   * The session's past turns, oldest first, read from the agent CLI's transcript: what a
   * session resumed with `resume` said before (a client replays them). Rejects with kind
   * `history` for an engine without a transcript, none written yet, or a format that cannot
   * split it into turns.
   */
  async history(): Promise<{ sessionId: string; turns: HistoryTurn[] }> {
    const r = await this.call({ type: 'history' });
    const turns = (r.turns as Record<string, unknown>[]).map((t) => ({
      prompt: String(t.prompt),
      markdown: String(t.markdown),
      tools: t.tools as TurnTool[],
    }));
    return { sessionId: String(r.session_id), turns };
  }

  /** Answers the question an ask reported (the `needsInput` event): a choice's index, or free text. */
  async answer(askId: number, answer: number | string): Promise<void> {
    await this.call({ type: 'answer', target: askId, ...(typeof answer === 'number' ? { option: answer } : { text: answer }) });
  }

  /** Asks the daemon for events (`output`). Adding an `output` listener does this for you. */
  async subscribe(events: string[] = ['output']): Promise<string[]> {
    const r = await this.call({ type: 'subscribe', events });
    return r.events as string[];
  }

  /** Calls `listener` with each chunk of raw output; returns a Disposable. */
  onOutput(listener: (data: string) => void): Disposable {
    this.on('output', listener);
    return { dispose: () => { this.off('output', listener); } };
  }

  /** Calls `listener` once the program has ended; returns a Disposable. */
  onExit(listener: (info: ExitInfo) => void): Disposable {
    this.on('exit', listener);
    return { dispose: () => { this.off('exit', listener); } };
  }

  /**
   * Ends the program (its quit keys, then SIGTERM, then SIGKILL, in bounded time) and the
   * daemon; cancels running and queued asks. Resolves with how the program ended. Safe to
   * call more than once and after the program has exited.
   */
  close(): Promise<ExitInfo> {
    if (this.closing) return this.closing;
    this.closing = (async () => {
      if (!this.daemonGone_) {
        const handle = this.request({ type: 'close' });
        try {
          const r = await handle.promise;
          this.setExit({ exitCode: (r.exit_code as number | null) ?? null, signal: (r.signal as string | null) ?? null });
        } catch {
          /* the daemon died meanwhile: report what is known */
        }
        this.child.stdin.end();
        // The daemon exits right after its close reply; never wait on a wedged one forever.
        const kill = setTimeout(() => this.child.kill('SIGKILL'), 5000);
        await this.daemonGone();
        clearTimeout(kill);
      }
      return this.exitInfo_ ?? { exitCode: null, signal: null };
    })();
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * An object with the shape of VS Code's `Pseudoterminal`: pass it as `pty` to
   * `vscode.window.createTerminal` to show the live program in a terminal panel while
   * you keep calling `ask`. Closing the panel closes the session unless `closeSession` is false.
   */
  toPseudoterminal(opts: PseudoterminalOptions = {}): SessionPseudoterminal {
    return new SessionPseudoterminal(this, opts);
  }

  /**
   * @internal Used by the pseudoterminal and tuidriver-server: subscribes to output, then
   * calls `onSnapshot` with the screen and `onData` with every later chunk, none twice and
   * none missed. With `history`, the snapshot's `history` holds the lines that scrolled off
   * above the screen, oldest first (the scrollback is asked for in the same breath as the
   * screen; `history` is null when output came between the two replies).
   */
  mirror(
    onSnapshot: (screen: ScreenState & { history?: string[] | null }) => void,
    onData: (data: string) => void,
    opts: { history?: boolean } = {},
  ): { dispose(): void; ready: Promise<void> } {
    let live = false;
    let between = false;
    const listener = (d: string) => { if (live) onData(d); else between = true; };
    this.on('output', listener);
    const ready = (async () => {
      await this.ensureSubscribed();
      const sb = opts.history ? this.request({ type: 'scrollback' }, { onReplySync: () => { between = false; } }) : null;
      const handle = this.request({ type: 'screen' }, {
        onReplySync: () => { live = true; },
      });
      const screen: ScreenState & { history?: string[] | null } = toScreen(await handle.promise);
      if (sb) screen.history = historyAbove((await sb.promise).lines as string[], screen.lines, between);
      onSnapshot(screen);
    })();
    return { dispose: () => { this.off('output', listener); }, ready };
  }

  // --- protocol plumbing ---

  /** A request that `signal` cancels through the protocol's `cancel`. */
  private abortable(req: Json, signal: AbortSignal | undefined, hooks: Pick<Pending, 'onChunk' | 'onNeedsInput'> = {}): RequestHandle {
    if (signal?.aborted) {
      const err = this.error('cancelled', `the ${String(req.type)} was aborted before it was sent`, { cause: signal.reason });
      return { id: -1, promise: Promise.reject(err) };
    }
    const handle = this.request(req, hooks);
    if (signal) {
      const onAbort = () => this.cancelRequest(handle.id);
      signal.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => signal.removeEventListener('abort', onAbort);
      handle.promise.then(cleanup, cleanup);
    }
    return handle;
  }

  private askRequest(type: 'ask' | 'ask_stream', prompt: string, opts: AskOptions, onChunk?: (d: string) => void): RequestHandle {
    const hooks: Pick<Pending, 'onChunk' | 'onNeedsInput'> = onChunk ? { onChunk } : {};
    const { onInput } = opts;
    if (onInput) {
      hooks.onNeedsInput = (q) => {
        Promise.resolve()
          .then(() => onInput(q))
          .then((a) => this.answer(q.askId, a))
          .catch(() => this.cancelRequest(q.askId));
      };
    }
    return this.abortable({ type, prompt, ...timeoutField(opts.timeoutMs), ...(onInput ? { on_input: 'wait' } : {}) }, opts.signal, hooks);
  }

  private cancelRequest(target: number): void {
    if (!this.pending.has(target) || this.daemonGone_) return;
    // Its reply is an error when the ask finished meanwhile; the ask's own reply tells.
    this.request({ type: 'cancel', target }).promise.catch(() => undefined);
  }

  private async call(req: Json): Promise<Json> {
    return this.request(req).promise;
  }

  private request(req: Json, hooks: Pick<Pending, 'onChunk' | 'onNeedsInput' | 'onReplySync'> = {}): RequestHandle {
    const id = this.nextId++;
    if (this.daemonGone_) {
      return { id, promise: Promise.reject(this.goneError()) };
    }
    const promise = new Promise<Json>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...hooks });
    });
    this.child.stdin.write(JSON.stringify({ id, ...req }, wellFormed) + '\n');
    return { id, promise };
  }

  private handleMessage(msg: Json): void {
    if (msg.id !== undefined && msg.id !== null) {
      const p = this.pending.get(msg.id as number);
      if (!p) return;
      if (msg.type === 'chunk') {
        p.onChunk?.(String(msg.delta ?? ''));
        return;
      }
      if (msg.type === 'needs_input') {
        const event: NeedsInputEvent = {
          askId: msg.id as number,
          question: String(msg.question ?? ''),
          options: Array.isArray(msg.options) ? (msg.options as { index: number; label: string }[]) : [],
        };
        this.emit('needsInput', event);
        p.onNeedsInput?.(event);
        return;
      }
      if (msg.type !== 'reply') return;
      this.pending.delete(msg.id as number);
      p.onReplySync?.();
      if (msg.ok === true) {
        p.resolve(msg);
      } else {
        p.reject(this.error(toKind(msg.kind), String(msg.error ?? 'request failed'), {
          reply: msg,
          ...(typeof msg.text === 'string' ? { text: msg.text } : {}),
          ...(typeof msg.question === 'string' ? { question: msg.question } : {}),
        }));
      }
      return;
    }
    switch (msg.type) {
      case 'output':
        this.emit('output', String(msg.data ?? ''));
        break;
      case 'exit':
        this.setExit({ exitCode: (msg.exit_code as number | null) ?? null, signal: (msg.signal as string | null) ?? null });
        break;
      case 'dialog':
        this.emit('dialog', { name: String(msg.name), keys: (msg.keys as string[]) ?? [] });
        break;
      case 'output_dropped':
        this.emit('outputDropped', {
          bytes: Number(msg.bytes),
          events: Number(msg.events),
          ...(typeof msg.reason === 'string' ? { reason: msg.reason } : {}),
        });
        break;
      default:
        break;
    }
  }

  private setExit(info: ExitInfo): void {
    if (this.exitInfo_) return;
    this.exitInfo_ = info;
    this.emit('exit', info);
  }

  private appendStderr(s: string): void {
    this.stderrTail_ = (this.stderrTail_ + s).slice(-STDERR_TAIL);
    this.emit('stderr', s);
  }

  private daemonExit: string = '';

  private onDaemonGone(code: number | null, signal: NodeJS.Signals | null): void {
    this.daemonGone_ = true;
    this.daemonExit = describeExit(code, signal);
    const err = this.goneError();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(err);
    // A daemon that dies unexpectedly takes the program with it (SIGHUP from the PTY).
    this.setExit({ exitCode: null, signal: signal ?? null });
    for (const w of this.daemonGoneWaiters.splice(0)) w();
    this.emit('close');
  }

  private daemonGone(): Promise<void> {
    if (this.daemonGone_) return Promise.resolve();
    return new Promise((resolve) => this.daemonGoneWaiters.push(resolve));
  }

  private goneError(): TuiDriverError {
    const how = this.closing ? 'the session is closed' : `the tuidriver daemon exited (${this.daemonExit})`;
    return this.error('exited', how);
  }

  private error(kind: TuiDriverErrorKind, message: string, details: Omit<ConstructorParameters<typeof TuiDriverError>[2] & object, 'stderr'> = {}): TuiDriverError {
    return new TuiDriverError(kind, message, { ...details, stderr: this.stderrTail_ });
  }

  private ensureSubscribed(): Promise<unknown> {
    if (!this.subscribed) {
      this.subscribed = this.subscribe(['output']).catch(() => undefined);
    }
    return this.subscribed;
  }
}

function commonArgs(opts: SpawnOptions): string[] {
  const args: string[] = [];
  if (opts.cols !== undefined) args.push('--cols', String(opts.cols));
  if (opts.rows !== undefined) args.push('--rows', String(opts.rows));
  if (opts.scrollback !== undefined) args.push('--scrollback', String(opts.scrollback));
  if (opts.record !== undefined) args.push('--record', opts.record);
  if (opts.cwd !== undefined) args.push('--cwd', opts.cwd);
  return args;
}

function timeoutField(ms: number | undefined): Json {
  return ms === undefined ? {} : { timeout: ms / 1000 };
}

function toRe2(pattern: string | RegExp): string {
  if (typeof pattern === 'string') return pattern;
  const flags = [...pattern.flags].filter((f) => f === 'i' || f === 'm' || f === 's').join('');
  return flags ? `(?${flags})${pattern.source}` : pattern.source;
}

function toScreen(r: Json): ScreenState {
  const c = (r.cursor ?? {}) as Json;
  return {
    lines: r.lines as string[],
    cursor: { row: Number(c.row), col: Number(c.col), visible: c.visible !== false },
    cols: Number(r.cols),
    rows: Number(r.rows),
    altScreen: r.alt_screen === true,
    title: String(r.title ?? ''),
  };
}

/**
 * The scrollback's lines above the screen: it ends with the screen's rows down to the last
 * non-blank one. Null when output came between the two replies or they do not line up.
 */
function historyAbove(scrollback: string[], screen: string[], changed: boolean): string[] | null {
  if (changed) return null;
  let n = screen.length;
  while (n > 0 && screen[n - 1] === '') n--;
  const start = scrollback.length - n;
  if (start < 0) return null;
  for (let i = 0; i < n; i++) if (scrollback[start + i] !== screen[i]) return null;
  return scrollback.slice(0, start);
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/**
 * Strings with a lone UTF-16 surrogate (half an emoji cut by `slice`) have U+FFFD in its
 * place, as they would after any UTF-8 round trip: the daemon reads UTF-8.
 */
function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? (value as string & { toWellFormed(): string }).toWellFormed() : value;
}
