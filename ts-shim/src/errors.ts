/**
 * What went wrong, as one string union:
 * - `spawn`: the daemon or the program could not be started (also: no binary found);
 * - `timeout`: a condition was not met in time (the session stays usable);
 * - `cancelled`: an AbortSignal, a `cancel`, or `close` ended the ask;
 * - `exited`: the program or the daemon is gone;
 * - `protocol`: the daemon refused a request or sent something unreadable;
 * - `engine`: an unknown engine or an invalid engine file;
 * - `needs_input`: the program asks a question no dialog rule answers (`question` holds it);
 * - `unfinished_input`: a person left input unfinished in the terminal (a line typed without
 *   Enter, a block begun): the ask failed at once; it runs once the input is finished or cleared;
 * - `history`: `history` found no past turns to read (no transcript, or none written yet);
 * - `not_ready`: the program never showed its prompt, so the request could not run (also
 *   `Session.spawn`'s error when the prompt did not show within `readyTimeoutMs` or the
 *   engine's own limit: there is no session, the program is ended);
 * - `record`: the asciicast recording could not be started or written;
 * - `usage`: the daemon refused its command line;
 * - `busy`, `error`, `unknown_type`, `bad_request`: passed through from the daemon.
 *
 * Every kind the daemon sends is here (`tuidriver --list-error-kinds`; errors.test.ts compares).
 */
export type TuiDriverErrorKind =
  | 'spawn'
  | 'timeout'
  | 'cancelled'
  | 'exited'
  | 'protocol'
  | 'engine'
  | 'needs_input'
  | 'unfinished_input'
  | 'busy'
  | 'unknown_type'
  | 'bad_request'
  | 'history'
  | 'not_ready'
  | 'record'
  | 'usage'
  | 'error';

export interface TuiDriverErrorDetails {
  /** The last few KiB the daemon wrote to stderr. */
  stderr?: string;
  /** For a failed ask: the part of the reply seen so far. */
  text?: string;
  /** For `needs_input`: the question on screen. */
  question?: string;
  /** The daemon's reply or error line, as it was sent. */
  reply?: Record<string, unknown>;
  cause?: unknown;
}

/** Every kind, as a value: a Record so that the compiler checks it against the type. */
const KIND_NAMES: Readonly<Record<TuiDriverErrorKind, true>> = {
  spawn: true, timeout: true, cancelled: true, exited: true, protocol: true, engine: true, needs_input: true, unfinished_input: true,
  busy: true, unknown_type: true, bad_request: true, history: true, not_ready: true, record: true, usage: true,
  error: true,
};

const KINDS: ReadonlySet<string> = new Set(Object.keys(KIND_NAMES));

/** The one error class the package throws. Switch on `kind`. */
export class TuiDriverError extends Error {
  override readonly name = 'TuiDriverError';
  readonly kind: TuiDriverErrorKind;
  readonly stderr: string;
  readonly text?: string;
  readonly question?: string;
  readonly reply?: Record<string, unknown>;

  constructor(kind: TuiDriverErrorKind, message: string, details: TuiDriverErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.stderr = details.stderr ?? '';
    if (details.text !== undefined) this.text = details.text;
    if (details.question !== undefined) this.question = details.question;
    if (details.reply !== undefined) this.reply = details.reply;
  }
}

/** Maps a daemon error kind to ours; unknown kinds become `error`. */
export function toKind(daemonKind: unknown): TuiDriverErrorKind {
  return typeof daemonKind === 'string' && KINDS.has(daemonKind) ? (daemonKind as TuiDriverErrorKind) : 'error';
}
