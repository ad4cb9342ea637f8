// The API: the Session class, one program on a pseudo-terminal. Each method is one request
// of docs/protocol.md; daemon.ts carries it, types.ts holds what goes in and out.
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { TextDecoder } from 'node:util';
import { Daemon, type Json, type RequestHandle, type RequestHooks } from './daemon';
import type { TuiDriverErrorDetails, TuiDriverErrorKind } from './errors';
import { TuiDriverError } from './errors';
import type {
  AskOptions, Disposable, ExitInfo, ExpectResult, HistoryTurn, MirrorSnapshot, NeedsInputEvent, ProgramStateName, RunResult, ScreenState,
  ScrollbackRows, SessionEvents, SessionStatus, SpawnOptions, StateExplanation, StyledScreenState, StyleRun,
  TurnResult, TurnTool,
} from './types';

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

  private readonly daemon: Daemon;
  private exitInfo_: ExitInfo | null = null;
  private subscribed: Promise<unknown> | null = null;
  private subscribedState: Promise<unknown> | null = null;
  /** `output` comes as base64 bytes; a character split between events waits here for its end. */
  private readonly outputDecoder = new TextDecoder();
  private closing: Promise<ExitInfo> | null = null;
  private closeOnExit_ = false;

  private constructor(daemon: Daemon, ready: Json) {
    super();
    this.daemon = daemon;
    this.engine = typeof ready.engine === 'string' ? ready.engine : null;
    this.pid = Number(ready.pid);
    this.daemonPid = daemon.pid;
    this.sessionId = typeof ready.session_id === 'string' ? ready.session_id : null;
    daemon.attach({
      event: (msg) => this.handleEvent(msg),
      stderr: (chunk) => this.emit('stderr', chunk),
      // A daemon that dies unexpectedly takes the program with it (SIGHUP from the PTY).
      gone: (signal) => {
        this.setExit({ exitCode: null, signal: signal ?? null });
        this.emit('close');
      },
    });
    (this as EventEmitter).on('newListener', (event: string | symbol) => {
      if (event === 'output') this.ensureSubscribed();
      if (event === 'programState' && !this.subscribedState) {
        this.subscribedState = this.subscribe(['program_state']).catch(() => undefined);
      }
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

  private static async start(args: string[], opts: SpawnOptions): Promise<Session> {
    const { daemon, ready } = await Daemon.start(args, {
      ...(opts.binaryPath !== undefined ? { binaryPath: opts.binaryPath } : {}),
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.readyTimeoutMs !== undefined ? { readyTimeoutMs: opts.readyTimeoutMs } : {}),
    });
    return new Session(daemon, ready);
  }

  /** The last few KiB of the daemon's stderr. */
  get stderrTail(): string {
    return this.daemon.stderrTail;
  }

  /** How the program ended, once it has. */
  get exitInfo(): ExitInfo | null {
    return this.exitInfo_;
  }

  /** True once the program has ended or the daemon is gone. */
  get exited(): boolean {
    return this.exitInfo_ !== null || this.daemon.gone;
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

  /**
   * A raw session (spawnCommand) types `line` with Enter once the program is done with
   * what came before, and resolves when the output has been quiet `idleMs` (default 500)
   * and the program no longer runs: back at its prompt, asking a question, full screen,
   * or exited. When `timeoutMs` (default 30000) runs out first it resolves with what was
   * printed so far and `running: true`, the program left running; a command before that
   * never ends fails it with kind `busy`, the line not typed. Aborting `signal` interrupts
   * the line (C-c) and fails with kind `cancelled`.
   */
  async run(line: string, opts: { timeoutMs?: number; idleMs?: number; signal?: AbortSignal } = {}): Promise<RunResult> {
    const r = await this.abortable({
      type: 'run',
      line,
      ...(opts.idleMs !== undefined ? { idle_ms: opts.idleMs } : {}),
      ...timeoutField(opts.timeoutMs),
    }, opts.signal).promise;
    return {
      output: String(r.output),
      programState: r.program_state as ProgramStateName,
      question: typeof r.question === 'string' ? r.question : null,
      running: r.running === true,
    };
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
      programState: r.program_state as ProgramStateName,
      question: typeof r.question === 'string' ? r.question : null,
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
      cliVersion: (r.cli_version as string | null) ?? null,
      warnings: Array.isArray(r.warnings) ? (r.warnings as string[]) : [],
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

  /**
   * Asks the daemon for events (`output`, `program_state`). Adding an `output` or a
   * `programState` listener does this for you.
   */
  async subscribe(events: string[] = ['output']): Promise<string[]> {
    // base64: the bytes exactly, cheaper for the daemon than a JSON string (docs/protocol.md).
    const r = await this.call({ type: 'subscribe', events, encoding: 'base64' });
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
      this.daemon.closing = true;
      if (!this.daemon.gone) {
        const handle = this.request({ type: 'close' });
        try {
          const r = await handle.promise;
          this.setExit({ exitCode: (r.exit_code as number | null) ?? null, signal: (r.signal as string | null) ?? null });
        } catch {
          /* the daemon died meanwhile: report what is known */
        }
        // The daemon exits right after its close reply.
        await this.daemon.end();
      }
      return this.exitInfo_ ?? { exitCode: null, signal: null };
    })();
    return this.closing;
  }

  /**
   * Closes the session by itself once the program has exited and no call waits for its
   * answer, so that nothing of it stays running (the daemon ends; later calls reject with
   * `exited`). Without it the daemon stays after the exit until `close()`, so that `screen`,
   * `scrollback` and `status` can still read the final screen. `toPseudoterminal` calls it
   * unless `closeSession` is false. Safe to call at any time, also after the exit.
   */
  closeOnExit(): void {
    this.closeOnExit_ = true;
    this.closeIfExited();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Mirrors the terminal elsewhere (a terminal panel, a web page): subscribes to output, then
   * calls `onSnapshot` with the screen and `onData` with every later chunk, none twice and
   * none missed, so that painting the snapshot and then writing the chunks shows what the
   * program shows. With `history`, the snapshot's `history` holds the lines that scrolled off
   * above the screen, oldest first (the scrollback is asked for in the same breath as the
   * screen; `history` is null when output came between the two replies). `ready` resolves
   * once the snapshot was delivered; `dispose()` stops the chunks.
   */
  mirror(
    onSnapshot: (screen: MirrorSnapshot) => void,
    onData: (data: string) => void,
    opts: { history?: boolean } = {},
  ): { dispose(): void; ready: Promise<void> } {
    // Output before the screen reply is in the snapshot; output after it may arrive in the
    // same read as the reply, before the snapshot is delivered, so it waits in `held`.
    let held: string[] | null = null;
    let live = false;
    let between = false;
    const listener = (d: string) => {
      if (live) onData(d);
      else if (held) held.push(d);
      else between = true;
    };
    this.on('output', listener);
    const ready = (async () => {
      await this.ensureSubscribed();
      const sb = opts.history ? this.request({ type: 'scrollback' }, { onReplySync: () => { between = false; } }) : null;
      const handle = this.request({ type: 'screen' }, {
        onReplySync: () => { held = []; },
      });
      let screen: MirrorSnapshot;
      try {
        screen = toScreen(await handle.promise);
        if (sb) screen.history = historyAbove((await sb.promise).lines as string[], screen.lines, between);
      } catch (e) {
        this.off('output', listener);  // no snapshot: nothing is held for one
        throw e;
      }
      onSnapshot(screen);
      live = true;
      for (const d of held ?? []) onData(d);
      held = null;
    })();
    return { dispose: () => { this.off('output', listener); }, ready };
  }

  // --- protocol plumbing ---

  /** A request that `signal` cancels through the protocol's `cancel`. */
  private abortable(req: Json, signal: AbortSignal | undefined, hooks: RequestHooks = {}): RequestHandle {
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
    const { onInput } = opts;
    const onQuestion = (q: NeedsInputEvent) => {
      this.emit('needsInput', q);
      if (!onInput) return;
      Promise.resolve()
        .then(() => onInput(q))
        .then((a) => this.answer(q.askId, a))
        .catch(() => this.cancelRequest(q.askId));
    };
    const onProgress = (msg: Json) => {
      if (msg.type === 'chunk') onChunk?.(String(msg.delta ?? ''));
      else if (msg.type === 'needs_input') onQuestion(toQuestion(msg));
    };
    return this.abortable({ type, prompt, ...timeoutField(opts.timeoutMs), ...(onInput ? { on_input: 'wait' } : {}) }, opts.signal, { onProgress });
  }

  private cancelRequest(target: number): void {
    if (!this.daemon.isPending(target) || this.daemon.gone) return;
    // Its reply is an error when the ask finished meanwhile; the ask's own reply tells.
    this.request({ type: 'cancel', target }).promise.catch(() => undefined);
  }

  private async call(req: Json): Promise<Json> {
    return this.request(req).promise;
  }

  private request(req: Json, hooks: RequestHooks = {}): RequestHandle {
    return this.daemon.request(req, hooks);
  }

  /** A daemon line without an id. */
  private handleEvent(msg: Json): void {
    switch (msg.type) {
      case 'output': {
        const text = typeof msg.data_base64 === 'string'
          ? this.outputDecoder.decode(Buffer.from(msg.data_base64, 'base64'), { stream: true })
          : String(msg.data ?? '');
        if (text) this.emit('output', text);
        break;
      }
      case 'program_state':
        this.emit('programState', {
          state: msg.state as ProgramStateName,
          question: typeof msg.question === 'string' ? msg.question : null,
        });
        break;
      case 'exit': {
        const tail = this.outputDecoder.decode();  // an unfinished character, as U+FFFD
        if (tail) this.emit('output', tail);
        this.setExit({ exitCode: (msg.exit_code as number | null) ?? null, signal: (msg.signal as string | null) ?? null });
        break;
      }
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
    this.closeIfExited();
  }

  /**
   * closeOnExit's work: after the exit event, the daemon still answers the calls that were
   * waiting (with `exited`, or `expect`'s match on the final screen); the close waits for them.
   */
  private closeIfExited(): void {
    if (!this.closeOnExit_ || !this.exited || this.closing) return;
    this.daemon.whenIdle(() => { this.close().catch(() => undefined); });
  }

  private error(kind: TuiDriverErrorKind, message: string, details: Omit<TuiDriverErrorDetails, 'stderr'> = {}): TuiDriverError {
    return this.daemon.error(kind, message, details);
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
  for (const [name, value] of Object.entries(opts.extraEnv ?? {})) args.push(`--env=${name}=${value}`);
  return args;
}

/** The wire's time limit is whole milliseconds: a fraction is rounded up, never cut short. */
function timeoutField(ms: number | undefined): Json {
  return ms === undefined ? {} : { timeout_ms: Math.ceil(ms) };
}

function toQuestion(msg: Json): NeedsInputEvent {
  return {
    askId: msg.id as number,
    question: String(msg.question ?? ''),
    options: Array.isArray(msg.options) ? (msg.options as { index: number; label: string }[]) : [],
  };
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
