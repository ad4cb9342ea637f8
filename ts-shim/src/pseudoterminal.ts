import { Session } from './session';
import type { Disposable, MirrorSnapshot } from './types';

/** VS Code's `Event<T>` shape: subscribe with a listener, get a Disposable back. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

/** VS Code's `TerminalDimensions`. */
export interface TerminalDimensions {
  columns: number;
  rows: number;
}

export interface PseudoterminalOptions {
  /**
   * Close the session when the terminal panel is closed, and once the program has exited and
   * no call waits for its answer (`session.closeOnExit()`) (default true).
   */
  closeSession?: boolean;
}

/** A minimal `vscode.EventEmitter`: `event` to subscribe, `fire` to notify. */
export class EventSource<T> implements Disposable {
  private listeners = new Set<(e: T) => unknown>();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
    this.listeners.add(bound);
    const d: Disposable = { dispose: () => { this.listeners.delete(bound); } };
    disposables?.push(d);
    return d;
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/**
 * Mirrors a session in a VS Code terminal (`vscode.Pseudoterminal`). On `open` it paints
 * the current screen, then streams the program's output; keystrokes go to the program
 * and panel resizes resize the PTY. `onDidClose` fires with the exit code once the program ends;
 * then, unless `closeSession` is false, the daemon ends too (nothing of the program stays running).
 */
export class SessionPseudoterminal {
  private readonly writeSource = new EventSource<string>();
  private readonly closeSource = new EventSource<number | void>();
  readonly onDidWrite: Event<string> = this.writeSource.event;
  readonly onDidClose: Event<number | void> = this.closeSource.event;

  private readonly session: Session;
  private readonly closeSession: boolean;
  private mirror: { dispose(): void } | null = null;
  private closed = false;
  private readonly onExit = (info: { exitCode: number | null }) => {
    if (this.closed) return;
    this.closed = true;
    this.mirror?.dispose();
    this.closeSource.fire(info.exitCode ?? undefined);
  };

  constructor(session: Session, opts: PseudoterminalOptions = {}) {
    this.session = session;
    this.closeSession = opts.closeSession ?? true;
    if (this.closeSession) session.closeOnExit();
  }

  open(initialDimensions: TerminalDimensions | undefined): void {
    if (this.mirror || this.closed) return;
    if (this.session.exitInfo) {
      this.onExit(this.session.exitInfo);
      return;
    }
    this.session.on('exit', this.onExit);
    if (initialDimensions) this.setDimensions(initialDimensions);
    const m = this.session.mirror(
      (screen) => this.writeSource.fire(paint(screen)),
      (data) => this.writeSource.fire(data),
    );
    this.mirror = m;
    m.ready.catch(() => undefined);
  }

  close(): void {
    this.mirror?.dispose();
    this.session.off('exit', this.onExit);
    this.closed = true;
    if (this.closeSession) this.session.close().catch(() => undefined);
  }

  handleInput(data: string): void {
    this.session.send(data).catch(() => undefined);
  }

  setDimensions(dimensions: TerminalDimensions): void {
    const cols = Math.max(2, Math.min(1000, Math.floor(dimensions.columns)));
    const rows = Math.max(2, Math.min(1000, Math.floor(dimensions.rows)));
    this.session.resize(cols, rows).catch(() => undefined);
  }
}

/**
 * An object with the shape of VS Code's `Pseudoterminal`: pass it as `pty` to
 * `vscode.window.createTerminal` to show the live program in a terminal panel while
 * you keep calling `ask`. Closing the panel, or the program's exit, closes the session
 * unless `closeSession` is false.
 */
export function toPseudoterminal(session: Session, opts: PseudoterminalOptions = {}): SessionPseudoterminal {
  return new SessionPseudoterminal(session, opts);
}

// The method of earlier releases, kept for their callers; defined here so
// that session.ts need not import this file (one direction, no circle).
declare module './session' {
  interface Session {
    /** @deprecated Use `toPseudoterminal(session, opts)`. */
    toPseudoterminal(opts?: PseudoterminalOptions): SessionPseudoterminal;
  }
}
Session.prototype.toPseudoterminal = function toPseudoterminalMethod(this: Session, opts?: PseudoterminalOptions) {
  return toPseudoterminal(this, opts);
};

/**
 * Escape codes that draw `screen` (text only, no colours) on a fresh terminal; a snapshot's
 * `history` (see `Session.mirror`) first, printed and then scrolled up just off the screen, so
 * that it lands in the terminal's scrollback.
 */
export function paint(screen: MirrorSnapshot): string {
  const history = screen.history?.length ? `${screen.history.join('\r\n')}${'\r\n'.repeat(screen.rows)}` : '';
  const alt = screen.altScreen ? '\x1b[?1049h' : '';
  const cursor = `\x1b[${screen.cursor.row + 1};${screen.cursor.col + 1}H`;
  const visible = screen.cursor.visible ? '\x1b[?25h' : '\x1b[?25l';
  return `${history}${alt}\x1b[H\x1b[2J${screen.lines.join('\r\n')}${cursor}${visible}`;
}
