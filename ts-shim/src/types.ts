// The shim's public types: what the API (session.ts) takes and gives. No code.

export interface SpawnOptions {
  /** Working directory of the program (default: this process's). */
  cwd?: string;
  /** Environment of the daemon and the program, as in `child_process.spawn` (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /**
   * Variables added to the program's environment (the daemon's `--env NAME=VALUE`), over the
   * engine's own and the defaults `TERM=xterm-256color`, `COLORTERM=truecolor`; e.g.
   * `{ TERM_PROGRAM: 'vscode' }`. Unlike `env`, they reach the program whatever the engine sets.
   */
  extraEnv?: Record<string, string>;
  /** Terminal size (default 120x40). */
  cols?: number;
  rows?: number;
  /** `agent` appends the engine's agent arguments and answers its first-run dialogs. */
  mode?: 'exec' | 'agent';
  /** Appended to the program's arguments. */
  extraArgs?: string[];
  /** Use this binary instead of looking for one (see `findBinary`). */
  binaryPath?: string;
  /** Give up (kind `not_ready`; the program is ended) when it has not shown its prompt in time. Default: the engine's own limit. */
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
  /**
   * What the program does, for every kind of session: at its prompt, running, asking
   * (`question` holds the question), a full-screen program, or ended. A raw session's is
   * judged by the daemon as the line engines' questions are (docs/protocol.md, `status`).
   */
  programState: ProgramStateName;
  /** With `programState` `needs_input`: the question (the cursor's row, or a full screen); else null. */
  question: string | null;
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
  /** The agent CLI's release, from the npm package that installed it; null when unknown. */
  cliVersion: string | null;
  /** What the user should know, such as a `cliVersion` nobody verified this tuidriver with. */
  warnings: string[];
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

/** What a raw session's `run` gave: the line's output once the program no longer runs. */
export interface RunResult {
  /** The rows printed after the line: its echo and the prompt that came back are left out. */
  output: string;
  /** `ready`, `needs_input` (a question ended the run), `fullscreen`, `exited`, or `running` (time ran out; the program runs on). */
  programState: ProgramStateName;
  /** With `needs_input`: the question; else null. */
  question: string | null;
  /** Time ran out before the program was done: it is left running. */
  running: boolean;
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
/** What a program does: `SessionStatus.programState` and the `programState` event. */
export type ProgramStateName = 'starting' | 'ready' | 'running' | 'needs_input' | 'fullscreen' | 'exited';

/** A raw session's program state changed (the daemon's `program_state` event). */
export interface ProgramStateEvent {
  state: ProgramStateName;
  /** With `needs_input`: the question; else null. */
  question: string | null;
}

export interface SessionEvents {
  output: [data: string];
  stderr: [chunk: string];
  exit: [info: ExitInfo];
  dialog: [event: DialogEvent];
  needsInput: [event: NeedsInputEvent];
  outputDropped: [event: OutputDroppedEvent];
  /** Raw sessions: each change of `status().programState` (listening subscribes). */
  programState: [event: ProgramStateEvent];
  close: [];
}

/** The screen a `mirror` starts from; `history` only when asked for (see `Session.mirror`). */
export interface MirrorSnapshot extends ScreenState {
  /** The lines that scrolled off above the screen, oldest first; null when output came between the two replies. */
  history?: string[] | null;
}

/** VS Code's `Disposable` shape. */
export interface Disposable {
  dispose(): void;
}
