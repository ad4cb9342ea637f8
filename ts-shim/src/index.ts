export { Session } from './session';
export { SessionPool } from './pool';
export type { SessionPoolOptions } from './pool';
export type {
  SpawnOptions, AskOptions, ExitInfo, ScreenState, StyledScreenState, StyleRun, SessionStatus, ExpectResult, DialogEvent,
  OutputDroppedEvent, SessionEvents, NeedsInputEvent, StateExplanation, RuleMatch, ScrollbackRows,
  Turn, TurnTool, TurnResult, HistoryTurn,
} from './session';
export { TuiDriverError } from './errors';
export type { TuiDriverErrorKind, TuiDriverErrorDetails } from './errors';
export { findBinary, platformKey } from './binary';
export type { FindBinaryOptions } from './binary';
export { SessionPseudoterminal, EventSource } from './pseudoterminal';
export type { Disposable, Event, TerminalDimensions, PseudoterminalOptions } from './pseudoterminal';
