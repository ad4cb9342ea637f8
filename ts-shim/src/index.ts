export { Session } from './session';
export { SessionPool } from './pool';
export type { SessionPoolOptions } from './pool';
export type {
  SpawnOptions, AskOptions, ExitInfo, ScreenState, StyledScreenState, StyleRun, SessionStatus, ExpectResult, DialogEvent,
  OutputDroppedEvent, SessionEvents, NeedsInputEvent, StateExplanation, RuleMatch, ScrollbackRows,
  Turn, TurnTool, TurnResult, HistoryTurn, MirrorSnapshot, Disposable, ProgramStateEvent, ProgramStateName, RunResult,
} from './types';
export { TuiDriverError } from './errors';
export type { TuiDriverErrorKind, TuiDriverErrorDetails } from './errors';
export { findBinary, platformKey } from './binary';
export type { FindBinaryOptions } from './binary';
export { SessionPseudoterminal, EventSource, paint, toPseudoterminal } from './pseudoterminal';
export type { Event, TerminalDimensions, PseudoterminalOptions } from './pseudoterminal';
