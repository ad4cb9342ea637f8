/**
 * `tuidriver/kern-engines`: the public interface of kern-engines' TypeScript client
 * (`PtyCliSession`, `ClaudeCliSession`, `askClaudeOnce`, `PtySessionError`, ...), running on
 * tuidriver, so that a kern-engines user changes one import and nothing else. Written from
 * that interface alone; docs/kern-engines.md says what maps to what, and where it differs.
 */
import { Session } from './session';
import type { SpawnOptions as SessionSpawnOptions } from './types';
import { TuiDriverError, type TuiDriverErrorKind } from './errors';

/** The four kinds kern-engines' client knows. tuidriver's own kind is on `tuidriverKind`. */
export type PtySessionErrorKind = 'spawn' | 'protocol' | 'timeout' | 'engine';

export type SessionMode = 'exec' | 'agent';

export interface SpawnOptions {
  /** Terminal size. Above 1000 (the daemon's limit) it is clamped to 1000; see docs/kern-engines.md. */
  cols?: number;
  rows?: number;
  /** Accepted and ignored: tuidriver is one native binary, no Python runs it. */
  pythonBin?: string;
  /** Fail with kind `timeout` when the program has not shown its prompt in time (default 35 s). */
  daemonTimeoutMs?: number;
  /** `agent` adds the engine's agent arguments and answers its agent-mode first-run dialogs. */
  mode?: SessionMode;
  /** Working directory of the program (default: this process's). */
  cwd?: string;
  /** Variables merged over `process.env` for the daemon and the program. */
  env?: Record<string, string>;
  /** Appended to the program's arguments (tuidriver's `--extra-arg`). */
  extraArgv?: string[];
}

/** As in kern-engines: nothing Claude-specific. */
export interface ClaudeSpawnOptions extends SpawnOptions {}

/** The daemon refuses a larger terminal (daemon/options.cc). */
export const MAX_COLS = 1000;
export const MAX_ROWS = 1000;

/**
 * kern-engines' own default size for an engine given no `cols`/`rows`: its Claude config
 * asks for 8000 x 2000 so that Claude never wraps a reply. Clamped like any other size.
 */
const SEED_SIZES: Readonly<Record<string, { cols: number; rows: number }>> = {
  claude: { cols: 8000, rows: 2000 },
};

const DEFAULT_READY_MS = 35_000;
const DEFAULT_ASK_MS = 60_000;

/** Every tuidriver kind, onto the four; a Record so that a new kind cannot be forgotten. */
const SEED_KIND: Readonly<Record<TuiDriverErrorKind, PtySessionErrorKind>> = {
  spawn: 'spawn',
  timeout: 'timeout',
  protocol: 'protocol',
  unknown_type: 'protocol',
  bad_request: 'protocol',
  engine: 'engine',
  exited: 'engine',
  cancelled: 'engine',
  busy: 'engine',
  needs_input: 'engine',
  unfinished_input: 'engine',
  history: 'engine',
  not_ready: 'timeout',
  record: 'engine',
  usage: 'spawn',
  error: 'engine',
};

export interface PtySessionErrorOptions {
  /** tuidriver's precise kind (default: the same name as `kind`). */
  tuidriverKind?: TuiDriverErrorKind;
  cause?: unknown;
}

/**
 * The one error class, as in kern-engines: switch on `kind`. `tuidriverKind` says precisely
 * what happened (`exited`, `needs_input`, `cancelled`, `busy`, ...), and `cause` is the
 * TuiDriverError, with the daemon's stderr tail and the partial reply `text`.
 */
export class PtySessionError extends Error {
  override readonly name: string = 'PtySessionError';
  readonly kind: PtySessionErrorKind;
  readonly tuidriverKind: TuiDriverErrorKind;

  constructor(kind: PtySessionErrorKind, message: string, opts: PtySessionErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = kind;
    this.tuidriverKind = opts.tuidriverKind ?? kind;
  }
}

/** The same class under kern-engines' Claude name. */
export { PtySessionError as ClaudeSessionError };

/** What a Claude session throws when an ask or the start times out (`kind` is `timeout`). */
export class ClaudeSessionTimeout extends PtySessionError {
  override readonly name: string = 'ClaudeSessionTimeout';
}

/** Any failure from the layer below, as a PtySessionError. */
function toSeedError(e: unknown, claude = false): PtySessionError {
  if (e instanceof PtySessionError) return e;
  if (!(e instanceof TuiDriverError)) {
    return new PtySessionError('engine', e instanceof Error ? e.message : String(e), { tuidriverKind: 'error', cause: e });
  }
  const kind = SEED_KIND[e.kind] ?? 'engine';
  if (claude && kind === 'timeout') return new ClaudeSessionTimeout(kind, e.message, { tuidriverKind: e.kind, cause: e });
  return new PtySessionError(kind, e.message, { tuidriverKind: e.kind, cause: e });
}

function clamp(value: number | undefined, max: number): number | undefined {
  // kern-engines passes a size only when it is truthy; 0 means "the engine's own".
  if (!value) return undefined;
  return value > max ? max : value;
}

function sessionOptions(engineId: string, opts: SpawnOptions): SessionSpawnOptions {
  const seed = SEED_SIZES[engineId];
  const cols = clamp(opts.cols || seed?.cols, MAX_COLS);
  const rows = clamp(opts.rows || seed?.rows, MAX_ROWS);
  return {
    ...(cols !== undefined ? { cols } : {}),
    ...(rows !== undefined ? { rows } : {}),
    ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    env: { ...process.env, ...(opts.env ?? {}) },
    extraArgs: [...(opts.extraArgv ?? [])],
    readyTimeoutMs: opts.daemonTimeoutMs ?? DEFAULT_READY_MS,
  };
}

/**
 * One engine's program on a pseudo-terminal, driven through one tuidriver daemon: kern-engines'
 * `PtyCliSession`. One ask at a time, as there: a second one while the first runs fails with
 * kind `engine` (`tuidriverKind` `busy`).
 */
export class PtyCliSession {
  private asking = false;
  private closed = false;

  private constructor(
    private readonly engineId: string,
    private readonly inner: Session,
    private readonly claude: boolean,
  ) {}

  /** Starts `engineId` (any tuidriver engine: `claude`, `python`, `bash`, ...) and resolves once it is ready. */
  static async spawn(engineId: string, opts: SpawnOptions = {}): Promise<PtyCliSession> {
    return PtyCliSession.start(engineId, opts, false);
  }

  /** @internal */
  static async start(engineId: string, opts: SpawnOptions, claude: boolean): Promise<PtyCliSession> {
    try {
      return new PtyCliSession(engineId, await Session.spawn(engineId, sessionOptions(engineId, opts)), claude);
    } catch (e) {
      throw toSeedError(e, claude);
    }
  }

  /** Sends `prompt` and resolves with the reply's text. */
  async ask(prompt: string, timeoutMs = DEFAULT_ASK_MS): Promise<string> {
    this.begin();
    try {
      return await this.inner.ask(prompt, { timeoutMs });
    } catch (e) {
      throw toSeedError(e, this.claude);
    } finally {
      this.asking = false;
    }
  }

  /**
   * Yields the reply in deltas as the program draws it; the generator's return value is the
   * whole text (authoritative). Leaving the loop early cancels the ask.
   */
  async *askStream(prompt: string, timeoutMs = DEFAULT_ASK_MS): AsyncGenerator<string, string, void> {
    this.begin();
    const deltas = this.inner.askStream(prompt, { timeoutMs });
    let finished = false;
    try {
      for (;;) {
        let step: IteratorResult<string, string>;
        try {
          step = await deltas.next();
        } catch (e) {
          finished = true;
          throw toSeedError(e, this.claude);
        }
        if (step.done) {
          finished = true;
          return step.value;
        }
        yield step.value;
      }
    } finally {
      if (!finished) await deltas.return('').catch(() => undefined);
      this.asking = false;
    }
  }

  /** Ends the program (its quit keys, then signals, in bounded time) and the daemon. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.inner.close();
  }

  /** The engine's name. */
  get id(): string {
    return this.engineId;
  }

  /** The last few KiB of the daemon's stderr. */
  get stderrTail(): string {
    return this.inner.stderrTail;
  }

  /**
   * The tuidriver Session underneath, for what kern-engines' interface has no word for:
   * `askTurn` (Claude's exact markdown from its transcript), `screen`, `keys`, `status`, ...
   */
  get session(): Session {
    return this.inner;
  }

  private begin(): void {
    if (this.closed) throw new PtySessionError('engine', 'session is closed', { tuidriverKind: 'exited' });
    if (this.asking) {
      throw new PtySessionError('engine', 'session is busy (one ask at a time)', { tuidriverKind: 'busy' });
    }
    this.asking = true;
  }
}

/** Claude Code through the `claude` engine: kern-engines' `ClaudeCliSession`. Timeouts are `ClaudeSessionTimeout`s. */
export class ClaudeCliSession {
  private constructor(private readonly inner: PtyCliSession) {}

  static async spawn(opts: ClaudeSpawnOptions = {}): Promise<ClaudeCliSession> {
    return new ClaudeCliSession(await PtyCliSession.start('claude', opts, true));
  }

  ask(prompt: string, timeoutMs = DEFAULT_ASK_MS): Promise<string> {
    return this.inner.ask(prompt, timeoutMs);
  }

  askStream(prompt: string, timeoutMs = DEFAULT_ASK_MS): AsyncGenerator<string, string, void> {
    return this.inner.askStream(prompt, timeoutMs);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The tuidriver Session underneath (`askTurn` gives the model's exact markdown). */
  get session(): Session {
    return this.inner.session;
  }
}

/** Starts Claude, asks once, and closes it again, whatever happened. */
export async function askClaudeOnce(prompt: string, opts: ClaudeSpawnOptions & { timeoutMs?: number } = {}): Promise<string> {
  const session = await ClaudeCliSession.spawn(opts);
  try {
    return await session.ask(prompt, opts.timeoutMs ?? DEFAULT_ASK_MS);
  } finally {
    await session.close();
  }
}
