import { TuiDriverError } from './errors';
import { Session } from './session';
import type { SpawnOptions } from './types';

export interface SessionPoolOptions extends SpawnOptions {
  /** How many sessions to keep started and ready (default 1). */
  size?: number;
  /**
   * Called when a session the pool started in the background failed to
   * start (an unknown engine, a ready timeout), as soon as it fails: the
   * `acquire()` that reaches it reports it too.
   */
  onStartError?: (error: unknown) => void;
}

/**
 * Keeps `size` sessions of one engine started, so that a caller gets a ready
 * one at once instead of paying the program's start (seconds for an agent
 * CLI). `acquire()` hands out the oldest warm session and starts its
 * replacement; the session is then the caller's to close. `close()` stops
 * the refilling and closes the warm sessions nobody took.
 *
 * A warm session whose program or daemon ended while it waited (before or
 * after its prompt showed) is skipped, never handed out; the `acquire()` that
 * reaches it takes the next one. A start that failed otherwise (an unknown
 * engine, a ready timeout) is reported by that `acquire()`. The pool never
 * retries in the background, so a broken engine costs a bounded number of
 * starts per `acquire()`, not a loop.
 */
export class SessionPool {
  readonly engine: string;
  readonly size: number;
  private readonly spawnOptions: SpawnOptions;
  private readonly onStartError: (error: unknown) => void;
  // Oldest first. Each start's promise has a no-op catch attached so that a
  // failure nobody has asked for yet is not an unhandled rejection.
  private readonly warm: Promise<Session>[] = [];
  private closed = false;

  constructor(engine: string, opts: SessionPoolOptions = {}) {
    const { size = 1, onStartError = () => undefined, ...spawnOptions } = opts;
    if (!Number.isInteger(size) || size < 1) {
      throw new TuiDriverError('error', `SessionPool: size must be a whole number of at least 1, got ${String(size)}`);
    }
    this.engine = engine;
    this.size = size;
    this.spawnOptions = spawnOptions;
    this.onStartError = onStartError;
    for (let i = 0; i < size; i++) this.startOne();
  }

  /** How many sessions are started (ready or still starting) and not yet handed out. */
  get available(): number {
    return this.warm.length;
  }

  /**
   * Resolves with a ready session, taken from the pool, and starts one in its
   * place. Waits only when the oldest session is still starting. Rejects with
   * that start's error when it failed, and with kind `cancelled` after `close()`.
   */
  async acquire(): Promise<Session> {
    // Every warm session may have died while it waited (before or after its
    // prompt showed); after those, one replacement is tried before giving up.
    let lastError: unknown = null;
    for (let tries = this.size + 1; tries > 0; tries--) {
      if (this.closed) throw this.closedError();
      const next = this.warm.shift()!;
      this.startOne();
      let session: Session;
      try {
        session = await next;
      } catch (e) {
        // An unknown engine, a bad option or a slow start fails the same way
        // again: report it. A program or daemon that died may not.
        if (!(e instanceof TuiDriverError) || (e.kind !== 'exited' && e.kind !== 'spawn')) throw e;
        lastError = e;
        continue;
      }
      if (this.closed) {
        await session.close().catch(() => undefined);
        throw this.closedError();
      }
      // A daemon killed while it waited may not have been noticed yet (its
      // stdout's end is an event still to come): one round trip tells.
      if (!session.exited && (await session.status().then(() => true, () => false))) return session;
      await session.close().catch(() => undefined);
    }
    throw lastError ?? new TuiDriverError('exited', `SessionPool(${this.engine}): every warm session had ended before it was taken`);
  }

  /** Stops starting sessions and closes the ones nobody took. Sessions already handed out stay open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const left = this.warm.splice(0);
    await Promise.all(left.map((p) => p.then((s) => s.close(), () => undefined).catch(() => undefined)));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private startOne(): void {
    if (this.closed) return;
    const started = Session.spawn(this.engine, this.spawnOptions);
    started.catch((e) => {
      if (!this.closed) this.onStartError(e);
    });
    this.warm.push(started);
  }

  private closedError(): TuiDriverError {
    return new TuiDriverError('cancelled', `SessionPool(${this.engine}) is closed`);
  }
}
