// The transport to one tuidriver daemon: spawns the binary, frames its stdout into JSON
// lines, numbers requests and matches each reply (and each chunk or question on the way)
// to its request. Knows nothing of what a request means; session.ts does.
import { spawn as spawnProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { daemonEnv, findBinary } from './binary';
import { TuiDriverError, toKind, type TuiDriverErrorDetails, type TuiDriverErrorKind } from './errors';

export type Json = Record<string, unknown>;

/** What a request is told besides its reply. */
export interface RequestHooks {
  /** A message with the request's id that is not its reply (`chunk`, `needs_input`). */
  onProgress?: (msg: Json) => void;
  /** Runs while the reply line is handled, before any later line. */
  onReplySync?: () => void;
}

export interface RequestHandle {
  id: number;
  promise: Promise<Json>;
}

/** Where the daemon's lines without an id (events), its stderr and its end go. */
export interface DaemonListener {
  event(msg: Json): void;
  stderr(chunk: string): void;
  gone(signal: NodeJS.Signals | null): void;
}

export interface DaemonStartOptions {
  binaryPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Give up (kind `not_ready`) when no `ready` line came in time, and end the daemon. */
  readyTimeoutMs?: number;
}

interface Pending extends RequestHooks {
  resolve(reply: Json): void;
  reject(err: TuiDriverError): void;
}

const STDERR_TAIL = 8192;

/**
 * One running daemon after its `ready` line. Every request gets one promise, settled by its
 * reply; when the daemon dies every pending one rejects at once with kind `exited`.
 */
export class Daemon {
  readonly pid: number;
  /** Set by the session's `close()`: later requests fail with "the session is closed". */
  closing = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private listener: DaemonListener | null = null;
  // What came between `ready` and `attach` (the same stdout chunk can hold an exit): replayed.
  private early: Array<(l: DaemonListener) => void> = [];
  private stderrTail_ = '';
  private gone_ = false;
  private goneWhy = '';
  private goneWaiters: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];

  private constructor(private readonly child: ChildProcessWithoutNullStreams, stderrTail: string) {
    this.pid = child.pid ?? -1;
    this.stderrTail_ = stderrTail;
  }

  /**
   * Starts the binary with `args` and resolves with the daemon and its `ready` line. Fails
   * with the daemon's startup error (kind `engine`, `not_ready`, `exited` or `spawn`).
   */
  static start(args: string[], opts: DaemonStartOptions): Promise<{ daemon: Daemon; ready: Json }> {
    let bin: string;
    try {
      bin = findBinary({ ...(opts.binaryPath !== undefined ? { binaryPath: opts.binaryPath } : {}), ...(opts.env ? { env: opts.env } : {}) });
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawnProcess(bin, args, { env: daemonEnv(bin, opts.env ?? process.env), stdio: 'pipe' });
      } catch (e) {
        reject(new TuiDriverError('spawn', `cannot start ${bin}: ${(e as Error).message}`, { cause: e }));
        return;
      }
      const startup = new Startup(child, bin, resolve, reject);
      startup.listen(opts.readyTimeoutMs);
    });
  }

  /** The last few KiB of the daemon's stderr. */
  get stderrTail(): string {
    return this.stderrTail_;
  }

  /** True once the daemon process has ended. */
  get gone(): boolean {
    return this.gone_;
  }

  /** Sends the lines that follow `ready` to `listener`, starting with any that came already. */
  attach(listener: DaemonListener): void {
    this.listener = listener;
    for (const f of this.early.splice(0)) f(listener);
  }

  /** Sends `req` with the next id. */
  request(req: Json, hooks: RequestHooks = {}): RequestHandle {
    const id = this.nextId++;
    if (this.gone_) return { id, promise: Promise.reject(this.goneError()) };
    const promise = new Promise<Json>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...hooks });
    });
    this.child.stdin.write(JSON.stringify({ id, ...req }, wellFormed) + '\n');
    return { id, promise };
  }

  /** Calls `f` once no request waits for its reply (at once if none does), unless the daemon is gone first. */
  whenIdle(f: () => void): void {
    if (this.gone_) return;
    if (this.pending.size === 0) f();
    else this.idleWaiters.push(f);
  }

  /** True while request `id` waits for its reply. */
  isPending(id: number): boolean {
    return this.pending.has(id);
  }

  /** An error of this daemon, carrying its stderr tail. */
  error(kind: TuiDriverErrorKind, message: string, details: Omit<TuiDriverErrorDetails, 'stderr'> = {}): TuiDriverError {
    return new TuiDriverError(kind, message, { ...details, stderr: this.stderrTail_ });
  }

  /** Ends the daemon's input and resolves once it is gone (SIGKILL after 5 s: never wait on a wedged one forever). */
  async end(): Promise<void> {
    if (this.gone_) return;
    this.child.stdin.end();
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await new Promise<void>((resolve) => this.goneWaiters.push(resolve));
    clearTimeout(kill);
  }

  // --- called by Startup, which reads the daemon's pipes ---

  /** One stdout line after `ready`. */
  handleLine(msg: Json): void {
    if (msg.id === undefined || msg.id === null) {
      this.tell((l) => l.event(msg));
      return;
    }
    const p = this.pending.get(msg.id as number);
    if (!p) return;
    if (msg.type !== 'reply') {
      p.onProgress?.(msg);
      return;
    }
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
    if (this.pending.size === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  appendStderr(s: string): void {
    this.stderrTail_ = (this.stderrTail_ + s).slice(-STDERR_TAIL);
    this.listener?.stderr(s);
  }

  onClose(code: number | null, signal: NodeJS.Signals | null): void {
    this.gone_ = true;
    this.goneWhy = describeExit(code, signal);
    const err = this.goneError();
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.idleWaiters = [];
    for (const p of pending) p.reject(err);
    this.tell((l) => l.gone(signal));
    for (const w of this.goneWaiters.splice(0)) w();
  }

  private tell(f: (l: DaemonListener) => void): void {
    if (this.listener) f(this.listener);
    else this.early.push(f);
  }

  private goneError(): TuiDriverError {
    return this.error('exited', this.closing ? 'the session is closed' : `the tuidriver daemon exited (${this.goneWhy})`);
  }

  /** Used by Startup once the `ready` line came. */
  static afterReady(child: ChildProcessWithoutNullStreams, stderrTail: string): Daemon {
    return new Daemon(child, stderrTail);
  }
}

/** The daemon's first lines, up to `ready` or its startup error; then hands the lines to the Daemon. */
class Startup {
  private stderr = '';
  private startupError: Json | null = null;
  private exitedBeforeReady = false;
  private daemon: Daemon | null = null;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly bin: string,
    private readonly resolve: (r: { daemon: Daemon; ready: Json }) => void,
    private readonly reject: (e: TuiDriverError) => void,
  ) {}

  listen(readyTimeoutMs: number | undefined): void {
    const { child } = this;
    child.stdin.on('error', () => { /* EPIPE: the exit handler reports it */ });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s: string) => {
      if (this.daemon) this.daemon.appendStderr(s);
      else this.stderr = (this.stderr + s).slice(-STDERR_TAIL);
    });
    const decoder = new StringDecoder('utf8');
    let buf = '';
    child.stdout.on('data', (data: Buffer) => {
      buf += decoder.write(data);
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        this.onLine(line);
      }
    });
    child.on('error', (e) => {
      this.fail(new TuiDriverError('spawn', `cannot start ${this.bin}: ${e.message}`, { cause: e, stderr: this.stderr }));
    });
    child.on('close', (code, signal) => {
      if (buf !== '') this.onLine(buf + decoder.end());
      if (this.daemon) this.daemon.onClose(code, signal);
      else this.failStartup(code, signal);
    });
    if (readyTimeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        // not_ready, not timeout: there is no session that could stay usable.
        this.fail(new TuiDriverError('not_ready', `the program was not ready within ${readyTimeoutMs} ms`, { stderr: this.stderr }));
        child.kill('SIGTERM');
      }, readyTimeoutMs);
    }
  }

  private onLine(line: string): void {
    if (line === '') return;
    let msg: Json;
    try {
      msg = JSON.parse(line) as Json;
    } catch {
      if (this.daemon) this.daemon.appendStderr(`[unreadable stdout line] ${line.slice(0, 200)}\n`);
      return;
    }
    if (this.daemon) {
      this.daemon.handleLine(msg);
    } else if (msg.type === 'ready') {
      this.daemon = Daemon.afterReady(this.child, this.stderr);
      this.settled = true;
      if (this.timer) clearTimeout(this.timer);
      this.resolve({ daemon: this.daemon, ready: msg });
    } else if (msg.type === 'error' && msg.id === undefined) {
      this.startupError = msg;
    } else if (msg.type === 'exit' && !this.startupError) {
      // (After a not_ready timeout the daemon ends the program: that exit
      // comes after the error and does not make it an `exited` failure.)
      this.exitedBeforeReady = true;
    }
  }

  private failStartup(code: number | null, signal: NodeJS.Signals | null): void {
    const { startupError, stderr } = this;
    if (!startupError) {
      this.fail(new TuiDriverError('spawn', `tuidriver exited before the program was ready (${describeExit(code, signal)})`, { stderr }));
      return;
    }
    const dk = startupError.kind;
    const kind: TuiDriverErrorKind =
      dk === 'engine' ? 'engine' : dk !== 'not_ready' ? 'spawn' : this.exitedBeforeReady ? 'exited' : 'not_ready';
    this.fail(new TuiDriverError(kind, String(startupError.error), { stderr, reply: startupError }));
  }

  private fail(err: TuiDriverError): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    this.reject(err);
  }
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
