// tuidriver-mcp: terminal sessions as MCP tools. The tool and argument names are
// fixed (docs/server.md): clients are written against them.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Transform } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { makeAuth, sameOrigin } from './auth.mjs';
import { noOAuth, readJson, unauthorized } from './http.mjs';
import { misdirected } from './instance.mjs';
import { ClientError, MAX_CHARS, RUN_TIMEOUT_MS, capTail, screenText } from './sessions.mjs';

const VERSION = '0.1.0';

const sessionId = z.string().describe('The session id that session_start returned');
const timeoutMs = z.number().int().positive().max(3_600_000).optional();
const maxChars = z.number().int().min(100).max(1_000_000).optional()
  .describe(`Cap on the text returned (default ${MAX_CHARS}); the tail is kept and truncated is true`);
const STATES = ['starting', 'ready', 'running', 'needs_input', 'fullscreen', 'exited', 'unknown'];
// Output schemas use plain types only (no unions, no nullable): a missing value is an
// empty string or -1, which every client's schema reader takes.
const state = z.enum(STATES).describe('What the session does now: ready at its prompt, running a command or turn, needs_input (a question waits), fullscreen (an editor or pager), exited');
const cursorShape = z.object({ row: z.number(), col: z.number(), visible: z.boolean() });
const styleRun = z.object({
  col: z.number(), len: z.number(), fg: z.string().optional(), bg: z.string().optional(),
  bold: z.boolean().optional(), dim: z.boolean().optional(), italic: z.boolean().optional(), underline: z.boolean().optional(),
  blink: z.boolean().optional(), reverse: z.boolean().optional(), invisible: z.boolean().optional(), strike: z.boolean().optional(),
});

const screenShape = {
  session_id: z.string(),
  lines: z.array(z.string()),
  cursor: cursorShape,
  cols: z.number(),
  rows: z.number(),
  alt_screen: z.boolean(),
  title: z.string(),
  styles: z.array(z.array(styleRun)).optional(),
  state,
};

const sessionShape = {
  session_id: z.string(),
  engine: z.string(),
  command: z.array(z.string()),
  pid: z.number(),
  created_at: z.string(),
  exited: z.boolean(),
  exit_code: z.number(),
  signal: z.string(),
};

/** A tool result: `text` for the model, `data` as structuredContent. */
function result(text, data) {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** Portable summaries: '' for no engine or command, -1 for no exit code. */
function portableSummary(s) {
  return { ...s, engine: s.engine ?? '', command: s.command ?? [], exit_code: s.exit_code ?? -1, signal: s.signal ?? '' };
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/** A long call's timeout, with a default: `timeout_ms` or `fallback`. */
const orDefault = (v, fallback) => (v !== undefined ? v : fallback);

/** The tools, in the order `tools/list` shows them. Each: name, title, description, annotations, input, output, handler(args, ctx). */
function tools(mgr) {
  return [
    {
      name: 'session_start',
      title: 'Start a terminal session',
      annotations: WRITES,
      description: 'Start a terminal session: an engine (a REPL or agent CLI tuidriver knows: python, bash, node, claude, codex, gemini, ...) or any command (an argv array). Returns session_id, which every other tool takes.',
      input: {
        engine: z.string().optional().describe('Engine name, e.g. "python" or "bash"; completion of run/ask is read from the screen'),
        command: z.array(z.string()).min(1).optional().describe('Any program, as an argv array, e.g. ["bash", "--norc"]; run waits for quiet output with the program back in the foreground'),
        cols: z.number().int().min(2).max(1000).optional().describe('Terminal width (default 120)'),
        rows: z.number().int().min(2).max(1000).optional().describe('Terminal height (default 40)'),
        cwd: z.string().optional().describe('Working directory'),
      },
      output: { session_id: z.string(), engine: z.string(), command: z.array(z.string()), pid: z.number(), cols: z.number(), rows: z.number(), state },
      handler: async (a) => {
        const e = await mgr.start(a);
        const scr = await mgr.call(e, 'session_start', (s) => s.screen());
        const data = { session_id: e.id, engine: e.engine ?? '', command: e.command ?? [], pid: e.session.pid, cols: scr.cols, rows: scr.rows, state: await mgr.state(e) };
        return result(`session_id: ${e.id} (${e.engine ? `engine ${e.engine}` : e.command.join(' ')}, pid ${data.pid}, ${scr.cols}x${scr.rows}, ${data.state})`, data);
      },
    },
    {
      name: 'run',
      title: 'Run a line',
      annotations: WRITES,
      description: `Type a line and Enter, then return what the program printed once it is ready again: for engine sessions the engine's own completion (its prompt is back), for command sessions idle_ms without output with the program back in the foreground. A question (a y/N prompt, a password) ends the wait with state needs_input: answer it with another run (the answer as line), send or keys. On timeout (default ${RUN_TIMEOUT_MS} ms) it returns what was printed so far with running: true and leaves the program running (interrupt it with signal). Output is the screen's text, capped at max_chars.`,
      input: {
        session_id: sessionId,
        line: z.string().describe('The line to type (Enter is added)'),
        timeout_ms: timeoutMs.describe(`Stop waiting after this long (default ${RUN_TIMEOUT_MS}); the program keeps running`),
        idle_ms: z.number().int().min(50).max(600_000).optional().describe('Command sessions: this long without output counts as done (default 500)'),
        max_chars: maxChars,
      },
      output: { session_id: z.string(), output: z.string(), markdown: z.string(), exited: z.boolean(), running: z.boolean(), truncated: z.boolean(), state },
      handler: async (a, ctx) => {
        const e = mgr.get(a.session_id);
        const r = await ctx.progress(() => mgr.run(e, a.line, {
          timeoutMs: orDefault(a.timeout_ms, RUN_TIMEOUT_MS), idleMs: orDefault(a.idle_ms, 500), maxChars: orDefault(a.max_chars, MAX_CHARS), signal: ctx.signal,
        }));
        const note = [r.truncated ? '[output truncated: the tail is shown]' : '', r.note ? `[${r.note}]` : '', runNote(r, orDefault(a.timeout_ms, RUN_TIMEOUT_MS)), r.exited ? '[the program exited]' : '']
          .filter((x) => x !== '').join('\n');
        return result(`${r.output}\n${note}`, { session_id: e.id, output: r.output, markdown: r.markdown ?? '', exited: r.exited, running: r.running, truncated: r.truncated, state: r.state });
      },
    },
    {
      name: 'read',
      title: 'Read new output',
      // Not read-only: it moves the session's one read cursor, which every client shares.
      annotations: { ...READ_ONLY, readOnlyHint: false, idempotentHint: false },
      description: 'The terminal rows the program finished since the last read (or from row cursor), as the screen showed them, each row once, without waiting. Pages at max_chars: has_more says to read again from next_cursor. The line the cursor is on (a prompt, a question, a partial line) may still change: it is in pending, not in output, and comes in output once finished. Row numbers stay valid across resizes.',
      input: {
        session_id: sessionId,
        cursor: z.number().int().min(0).optional().describe('Read from this row (next_cursor of an earlier read); default: where the last read stopped, or the oldest row kept'),
        max_chars: maxChars,
      },
      output: { session_id: z.string(), output: z.string(), cursor: z.number(), next_cursor: z.number(), has_more: z.boolean(), dropped_rows: z.number(), pending: z.string().describe('The unfinished rows (the cursor\'s line, a prompt or question), not read yet; "" when none'), state },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const r = await mgr.read(e, { cursor: a.cursor, maxChars: orDefault(a.max_chars, MAX_CHARS) });
        const pending = r.pending ? `; unfinished, not read yet: ${JSON.stringify(r.pending)}` : '';
        return result(`${r.output}\n[rows ${r.cursor}..${r.next_cursor}${r.has_more ? '; more: read again' : ''}${r.dropped_rows ? `; ${r.dropped_rows} rows left the history unread` : ''}${pending}; state ${r.state}]`, { session_id: e.id, ...r });
      },
    },
    {
      name: 'send',
      title: 'Send text',
      annotations: WRITES,
      description: 'Write data to the program as it is: no Enter is added ("\\r" is Enter). Returns once the program has drawn the echo of the last line typed (at most 2 s), so an expect right after it never matches that echo; read the result with read, screen or expect.',
      input: { session_id: sessionId, data: z.string().describe('Characters to write') },
      output: { session_id: z.string(), sent: z.number(), state },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        await mgr.send(e, a.data);
        return withState(mgr, e, `sent ${a.data.length} characters`, { sent: a.data.length });
      },
    },
    {
      name: 'keys',
      title: 'Press keys',
      annotations: WRITES,
      description: 'Press keys by name: Enter, Escape, Tab, BSpace, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1..F12, or one character, with modifiers C-, M-, S- (C-c, M-x, S-Tab; also ctrl-c, Control+c and ^C). The names xdotool and Playwright use work too (Return, Esc, BackSpace, ArrowUp, Page_Down). Anything else (a word, a misspelt name) is an error and nothing is sent: text goes through send.',
      input: { session_id: sessionId, keys: z.array(z.string()).min(1).describe('Key names, in order, e.g. ["C-c"] or ["Escape", ":", "w", "q", "Enter"]') },
      output: { session_id: z.string(), keys: z.array(z.string()), state },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        await mgr.keys(e, a.keys);
        return withState(mgr, e, `sent keys ${a.keys.join(' ')}`, { keys: a.keys });
      },
    },
    {
      name: 'send_secret',
      title: 'Send a secret',
      annotations: WRITES,
      description: 'Write a secret (a password, a token) to the program. It never appears in any result, error or log, here or in the daemon. No Enter is added: end it with "\\r" to submit.',
      input: { session_id: sessionId, secret: z.string().describe('The secret; never echoed back') },
      output: { session_id: z.string(), sent: z.boolean(), state },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        await mgr.call(e, 'send_secret', (s) => s.sendSecret(a.secret));
        return withState(mgr, e, 'secret sent', { sent: true });
      },
    },
    {
      name: 'signal',
      title: 'Send a signal',
      annotations: DESTRUCTIVE,
      description: 'Send a signal (INT, TERM, KILL, HUP, QUIT, TSTP, CONT, or a number) to the terminal\'s foreground process group: what ^C would reach. The way to interrupt a run that is still running.',
      input: { session_id: sessionId, signal: z.string().regex(/^(SIG)?[A-Z0-9]{1,10}$/i).describe('e.g. "INT" or "SIGTERM" or "9"') },
      output: { session_id: z.string(), signal: z.string(), state },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const name = await mgr.call(e, 'signal', (s) => s.signal(a.signal));
        return withState(mgr, e, `sent ${name}`, { signal: name });
      },
    },
    {
      name: 'resize',
      title: 'Resize the terminal',
      annotations: { ...WRITES, idempotentHint: true },
      description: 'Resize the terminal; the program gets SIGWINCH.',
      input: { session_id: sessionId, cols: z.number().int().min(2).max(1000), rows: z.number().int().min(2).max(1000) },
      output: { session_id: z.string(), cols: z.number(), rows: z.number(), state },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const r = await mgr.resize(e, a.cols, a.rows);
        return withState(mgr, e, `resized to ${r.cols}x${r.rows}`, { cols: r.cols, rows: r.rows });
      },
    },
    {
      name: 'wait_idle',
      title: 'Wait for quiet',
      annotations: READ_ONLY,
      description: 'Wait until the program has printed nothing for idle_ms (default 500), or timeout_ms (default 30000): then it answers with idle false, not an error.',
      input: { session_id: sessionId, idle_ms: z.number().int().min(1).max(3_600_000).optional(), timeout_ms: timeoutMs },
      output: { session_id: z.string(), idle: z.boolean(), state },
      handler: async (a, ctx) => {
        const e = mgr.get(a.session_id);
        const idle = await ctx.progress(() => mgr.waitIdle(e, { idleMs: a.idle_ms, timeoutMs: orDefault(a.timeout_ms, 30_000), signal: ctx.signal }));
        return withState(mgr, e, idle ? 'idle' : 'still printing at the timeout', { idle });
      },
    },
    {
      name: 'screen',
      title: 'Read the screen',
      annotations: READ_ONLY,
      description: 'The rendered terminal screen, as a person sees it: one line per row and the cursor position (0-based). With styles: the colours and attributes, as runs per row.',
      input: { session_id: sessionId, styles: z.boolean().optional().describe('Add styles: per row, runs of cells with colours (fg/bg: palette index as a string, or #rrggbb) and attributes') },
      output: screenShape,
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const scr = await mgr.call(e, 'screen', (s) => s.screen({ styles: a.styles === true }));
        const data = { ...screenData(e.id, scr), state: await mgr.state(e) };
        if (a.styles) data.styles = scr.styles.map((row) => row.map((r) => portableRun(r)));
        return result(`${screenText(scr)}\n[state ${data.state}]`, data);
      },
    },
    {
      name: 'scrollback',
      title: 'Read the history',
      annotations: READ_ONLY,
      description: 'The history that scrolled off the top followed by the screen, oldest first, as text lines (capped at max_chars, newest kept).',
      input: { session_id: sessionId, lines: z.number().int().positive().max(1_000_000).optional().describe('Keep only the newest N lines'), max_chars: maxChars },
      output: { session_id: z.string(), lines: z.array(z.string()), truncated: z.boolean(), state },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const all = await mgr.call(e, 'scrollback', (s) => s.scrollback(a.lines !== undefined ? { lines: a.lines } : {}));
        const lines = newestWithin(all, orDefault(a.max_chars, MAX_CHARS));
        return withState(mgr, e, lines.join('\n'), { lines, truncated: lines.length < all.length });
      },
    },
    {
      name: 'expect',
      title: 'Wait for a pattern',
      annotations: READ_ONLY,
      description: 'Wait until an RE2 regular expression matches output that appears after the call (escape codes removed); right after a send, that is the output after the echo of the line sent (never the echo). screen_wide also matches what the screen shows already. Returns the match and its groups; on timeout, an error with the screen.',
      input: {
        session_id: sessionId,
        pattern: z.string().min(1).describe('RE2 pattern, e.g. "\\\\$ $" or "(\\\\d+) passed"'),
        timeout_ms: timeoutMs.describe('Default 30000'),
        screen_wide: z.boolean().optional().describe('Also match the whole screen as it is now (text printed before the call counts)'),
      },
      output: { session_id: z.string(), match: z.string(), groups: z.array(z.string()), state },
      handler: async (a, ctx) => {
        const e = mgr.get(a.session_id);
        const r = await ctx.progress(() => mgr.expect(e, a.pattern, { timeoutMs: a.timeout_ms, screenWide: a.screen_wide === true, signal: ctx.signal }));
        return withState(mgr, e, `matched: ${r.match}${r.groups.length ? `\ngroups: ${JSON.stringify(r.groups)}` : ''}`, r);
      },
    },
    {
      name: 'ask',
      title: 'Ask an engine',
      annotations: WRITES,
      description: `Engine sessions: send a prompt the engine's way and return the reply without echo, prompt or escape codes; for agent CLIs with a transcript also the model's exact markdown. As run: a question inside the turn ends the wait with state needs_input (answer it with run, send or keys); on timeout (default ${RUN_TIMEOUT_MS} ms) it returns the reply so far with running: true and the turn goes on (interrupt it with signal).`,
      input: { session_id: sessionId, prompt: z.string().describe('The prompt or code'), timeout_ms: timeoutMs.describe(`Stop waiting after this long (default ${RUN_TIMEOUT_MS}); the turn goes on`), max_chars: maxChars },
      output: { session_id: z.string(), text: z.string(), markdown: z.string(), running: z.boolean(), truncated: z.boolean(), state },
      handler: async (a, ctx) => {
        const e = mgr.get(a.session_id);
        const max = orDefault(a.max_chars, MAX_CHARS);
        const timeout = orDefault(a.timeout_ms, RUN_TIMEOUT_MS);
        const r = await ctx.progress(() => mgr.askRun(e, a.prompt, { timeoutMs: timeout, maxChars: max, signal: ctx.signal }));
        const md = capTail(r.markdown ?? '', max);
        const shown = r.markdown ? md.text : r.output;
        const note = [r.note ? `[${r.note}]` : '', runNote(r, timeout)].filter((x) => x !== '').join('\n');
        return result(`${shown}\n${note}`, { session_id: e.id, text: r.output, markdown: md.text, running: r.running, truncated: r.truncated || md.truncated, state: r.state });
      },
    },
    {
      name: 'record',
      title: 'Record the terminal',
      annotations: DESTRUCTIVE,
      description: 'Start recording the session to an asciicast v2 file (path; relative to the program\'s working directory), or stop (stop: true). An existing file is refused unless overwrite is true. Secrets sent with send_secret are never recorded.',
      input: {
        session_id: sessionId,
        path: z.string().min(1).optional().describe('The .cast file to write, relative to the program\'s working directory'),
        overwrite: z.boolean().optional().describe('Replace the file if it exists (default false: an existing file is an error)'),
        stop: z.boolean().optional(),
      },
      output: { session_id: z.string(), recording: z.boolean(), path: z.string(), state },
      handler: async (a) => {
        if ((a.path === undefined) === (a.stop !== true)) throw new ClientError('bad_request', 'give exactly one of path (a file to record to) and stop: true');
        if (a.overwrite !== undefined && a.path === undefined) throw new ClientError('bad_request', 'overwrite goes with path');
        const e = mgr.get(a.session_id);
        const full = await mgr.record(e, a.path, { overwrite: a.overwrite === true });
        return withState(mgr, e, a.path !== undefined ? `recording to ${full}` : 'recording stopped', { recording: a.path !== undefined, path: full });
      },
    },
    {
      name: 'status',
      title: 'Session status',
      annotations: READ_ONLY,
      description: 'The session\'s state (starting, ready, running, needs_input, fullscreen, exited), pids, working directory, size, engine, exit code, and which engine rule decides the state.',
      input: { session_id: sessionId },
      output: {
        session_id: z.string(), state, daemon_state: z.string(), pid: z.number(), foreground_pid: z.number(),
        cwd: z.string(), cols: z.number(), rows: z.number(), engine: z.string(),
        exit_code: z.number(), signal: z.string(), explain: z.string(),
      },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const st = await mgr.call(e, 'status', (s) => s.status());
        const data = {
          session_id: e.id, state: await mgr.state(e), daemon_state: st.state, pid: st.pid ?? -1, foreground_pid: st.foregroundPid ?? -1, cwd: st.cwd ?? '',
          cols: st.cols, rows: st.rows, engine: st.engine ?? '', exit_code: st.exitCode ?? -1, signal: st.signal ?? '', explain: st.explain?.note ?? '',
        };
        return result(JSON.stringify(data, null, 1), data);
      },
    },
    {
      name: 'list',
      title: 'List sessions',
      annotations: READ_ONLY,
      description: 'The open sessions: id, engine or command, pid, start time, and whether the program has exited.',
      input: {},
      output: { sessions: z.array(z.object(sessionShape)) },
      handler: async () => {
        const sessions = mgr.list().map(portableSummary);
        const text = sessions.length === 0 ? 'no sessions' : sessions.map((s) => `${s.session_id}  ${s.engine || s.command.join(' ')}  pid ${s.pid}${s.exited ? `  exited (${s.signal || s.exit_code})` : ''}`).join('\n');
        return result(text, { sessions });
      },
    },
    {
      name: 'terminate',
      title: 'End a session',
      annotations: DESTRUCTIVE,
      description: 'End the session: the program (its quit keys, then SIGTERM, then SIGKILL, in bounded time) and its daemon. The session_id is then unknown.',
      input: { session_id: sessionId },
      output: { session_id: z.string(), exit_code: z.number(), signal: z.string(), state },
      handler: async (a) => {
        const info = await mgr.terminate(a.session_id);
        return result(`terminated ${a.session_id} (${info.signal ?? `exit code ${info.exitCode}`})`, { session_id: a.session_id, exit_code: info.exitCode ?? -1, signal: info.signal ?? '', state: 'exited' });
      },
    },
  ];
}

/** How a run ended, for the model: a question to answer, still running, or the state. */
function runNote(r, timeoutMs) {
  if (r.state === 'needs_input') return '[state needs_input: a question waits; answer it with run (the answer line), send or keys]';
  if (r.running) return `[still running after ${timeoutMs} ms; state ${r.state}]`;
  return `[state ${r.state}]`;
}

/** A result with the session's id and state added to `fields`. */
async function withState(mgr, e, text, fields) {
  const st = await mgr.state(e);
  return result(`${text}\n[state ${st}]`, { session_id: e.id, ...fields, state: st });
}

/** A style run with colours as strings ("1" or "#rrggbb"): one type per field. */
function portableRun(r) {
  const out = { ...r };
  if (r.fg !== undefined) out.fg = String(r.fg);
  if (r.bg !== undefined) out.bg = String(r.bg);
  return out;
}

/** The newest lines whose text fits in `max` characters. */
function newestWithin(lines, max) {
  let chars = 0;
  let i = lines.length;
  while (i > 0 && chars + lines[i - 1].length + 1 <= max) chars += lines[--i].length + 1;
  return lines.slice(i);
}

function errorText(e) {
  let text = e instanceof Error ? e.message : String(e);
  const extra = e?.extra ?? {};
  if (typeof extra.question === 'string') text += `\nquestion on screen: ${extra.question}`;
  if (Array.isArray(extra.screen)) {
    const rows = extra.screen.slice();
    while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
    text += `\nscreen:\n${rows.join('\n')}`;
  }
  return text;
}

function screenData(id, scr) {
  return { session_id: id, lines: scr.lines, cursor: scr.cursor, cols: scr.cols, rows: scr.rows, alt_screen: scr.altScreen, title: scr.title };
}

/** How often a long call reports progress, when the client asked for it. */
const PROGRESS_EVERY_MS = 1000;

/**
 * The call's context: `signal` (aborted when the client cancels or goes away) and
 * `progress(fn)`, which runs fn while sending notifications/progress every second if the
 * request carried a progressToken.
 */
function callContext(extra) {
  const token = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    progress: async (fn) => {
      if (token === undefined) return fn();
      const t0 = Date.now();
      const timer = setInterval(() => {
        const ms = Date.now() - t0;
        extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ms, message: `waiting, ${Math.round(ms / 1000)} s` } })
          .catch(() => undefined);
      }, PROGRESS_EVERY_MS);
      try {
        return await fn();
      } finally {
        clearInterval(timer);
      }
    },
  };
}

/** A JSON-RPC -32602 error whose message is `message` alone (McpError would prefix it). */
function invalidParams(message) {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

/** Zod issues as one line a model can act on: "line: expected string; timeout_ms: ...". */
function issuesText(error) {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ');
}

/** An McpServer with every tool, over the sessions of `mgr`. */
export function buildMcpServer(mgr) {
  const server = new McpServer({ name: 'tuidriver-mcp', version: VERSION });
  const table = new Map();
  for (const t of tools(mgr)) {
    // Strict: a misspelt argument name is an error, not silently ignored.
    const input = z.strictObject(t.input);
    table.set(t.name, { ...t, schema: input });
    server.registerTool(t.name, {
      title: t.title,
      description: t.description,
      inputSchema: input,
      outputSchema: z.object(t.output),
      annotations: { title: t.title, ...t.annotations },
    }, async () => undefined); // listed by the SDK; called through the handler below
  }
  // The tool list never changes: no listChanged (the SDK would advertise it).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  // Bad arguments are the caller's JSON-RPC error (-32602, one readable line), not a
  // tool result; failures while running are tool results with isError. The request is
  // checked here: the SDK's own check of tools/call answers a bad one with a multi-line
  // zod dump (-32603 for missing params), so its wrapper is left out (Protocol's).
  Protocol.prototype.setRequestHandler.call(server.server, LOOSE_CALL, async (request, extra) => {
    const { name, args } = callParams(request.params);
    const t = table.get(name);
    if (!t) throw invalidParams(`unknown tool "${name}" (tools/list shows them: ${[...table.keys()].join(', ')})`);
    const parsed = t.schema.safeParse(args);
    if (!parsed.success) throw invalidParams(`invalid arguments for ${t.name}: ${issuesText(parsed.error)}`);
    try {
      return await t.handler(parsed.data, callContext(extra));
    } catch (e) {
      if (e instanceof ClientError && e.code === 'bad_request') throw invalidParams(e.message);
      // Never the arguments (send_secret's secret): the message, and what the daemon
      // said about the screen or a question on it.
      return { content: [{ type: 'text', text: errorText(e) }], isError: true };
    }
  });
  return server;
}

/** Any tools/call request: its params are checked by callParams. */
const LOOSE_CALL = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });

/** A tools/call's tool name and arguments (an object; {} when absent), or a -32602 error saying what is wrong. */
function callParams(params) {
  const usage = 'tools/call takes params {"name": a tool name, "arguments": an object}';
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalidParams(`${usage}; got ${params === undefined ? 'no params' : JSON.stringify(params)}`);
  if (typeof params.name !== 'string') throw invalidParams(`${usage}; name is ${params.name === undefined ? 'missing' : `not a string: ${JSON.stringify(params.name)}`}`);
  const args = params.arguments ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) throw invalidParams(`${usage}; arguments is not an object: ${JSON.stringify(args)}`);
  return { name: params.name, args };
}

/** Why a stdio line is not a JSON-RPC message (with the id to answer), or null. */
export function lineProblem(line) {
  if (line.trim() === '') return null;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    return { id: null, code: -32700, message: `Parse error: ${e.message}` };
  }
  const isObject = typeof msg === 'object' && msg !== null && !Array.isArray(msg);
  const id = isObject && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : null;
  if (!isObject || msg.jsonrpc !== '2.0' || (typeof msg.method !== 'string' && !('result' in msg) && !('error' in msg))) {
    return { id, code: -32600, message: 'Invalid Request: expected a JSON-RPC 2.0 object with "jsonrpc":"2.0" and a method' };
  }
  return null;
}

/**
 * Over stdio: a line that is not a JSON-RPC message is answered here, as JSON-RPC says
 * (-32700 bad JSON, -32600 no request), where the SDK's transport would drop it unanswered.
 */
export async function serveStdio(mgr) {
  const server = buildMcpServer(mgr);
  const filter = new Transform({
    transform(chunk, _enc, done) {
      this.buf = (this.buf ?? '') + chunk.toString('utf8');
      const pass = [];
      let nl;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        const problem = lineProblem(line.replace(/\r$/, ''));
        if (problem) process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: problem.id, error: { code: problem.code, message: problem.message } })}\n`);
        else pass.push(`${line}\n`);
      }
      done(null, pass.join(''));
    },
  });
  process.stdin.pipe(filter);
  await server.connect(new StdioServerTransport(filter, process.stdout));
  return server;
}

/**
 * The MCP endpoint as an HTTP handler (/mcp). A client that initializes gets an MCP
 * session (the Mcp-Session-Id header, the SDK's stateful transport): its later POSTs,
 * a `notifications/cancelled` among them, reach the same McpServer, which aborts the
 * call they name. A request without that header is served statelessly: a fresh
 * McpServer for that POST alone. Either way the terminal sessions are the shared ones
 * of `mgr`, so session ids outlive any one MCP connection. Shared by tuidriver-mcp
 * --http and tuidriver-serve --mcp.
 */
export function mcpHandler(mgr, { maxBody = 1 << 20, log = () => {}, maxMcpSessions = 256 } = {}) {
  /** Mcp-Session-Id -> its transport, oldest first (the oldest is closed past the cap). */
  const open = new Map();
  return async (req, res) => {
    // A browser page sends its Origin: only this server's own pages may call (DNS
    // rebinding, cross-site requests); clients that are not browsers send none.
    if (!sameOrigin(req)) {
      jsonRpcError(res, 403, -32000, `Origin ${req.headers.origin} is not allowed: only pages served from http://${req.headers.host} may call /mcp`);
      return;
    }
    const wrong = misdirected(new URL(req.url ?? '/', 'http://x'), mgr.instance);
    if (wrong) {
      jsonRpcError(res, 421, -32000, wrong);
      return;
    }
    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? open.get(sid) : undefined;
    if (sid !== undefined && !known) {
      jsonRpcError(res, 404, -32001, 'Session not found: initialize again (the MCP session ended, or this server restarted)');
      return;
    }
    if (req.method === 'DELETE' && known) {
      await known.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: known ? 'POST, DELETE' : 'POST', 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'method not allowed: use POST (this server sends nothing unasked, so there is no GET stream)' }, id: null }));
      return;
    }
    let body;
    try {
      body = await readJson(req, maxBody);
    } catch (e) {
      jsonRpcError(res, e.status ?? 400, -32700, `Parse error: ${e.message}`);
      return;
    }
    if (Array.isArray(body)) {
      jsonRpcError(res, 400, -32600, 'Invalid Request: JSON-RPC batches are not accepted (MCP 2025-06-18 removed them): send one message per POST');
      return;
    }
    try {
      if (known) {
        // A client that goes away before the answer cancels its call, as in a stateless POST.
        if (body?.id !== undefined && typeof body.method === 'string') {
          res.on('close', () => {
            if (!res.writableFinished) known.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: body.id, reason: 'the client went away' } });
          });
        }
        await known.handleRequest(req, res, body);
      }
      else if (isInitializeRequest(body)) await startMcpSession(req, res, body);
      else await serveStateless(req, res, body);
    } catch (e) {
      log(`mcp http: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  };

  /** An initialize: a new MCP session, its answers streamed (SSE) so progress can travel. */
  async function startMcpSession(req, res, body) {
    const server = buildMcpServer(mgr);
    const transport = new StreamableHTTPServerTransport({
      // Named by the instance, as terminal session ids are: a router sends the MCP
      // session's later requests here by this header (docs/scaling.md).
      sessionIdGenerator: () => `${mgr.instance}.${randomUUID()}`,
      onsessioninitialized: (id) => {
        open.set(id, transport);
        if (open.size > maxMcpSessions) open.values().next().value.close().catch(() => undefined);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) open.delete(transport.sessionId);
      server.close().catch(() => undefined);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** A request outside any MCP session: a fresh server for this POST alone. */
  async function serveStateless(req, res, body) {
    const server = buildMcpServer(mgr);
    // Progress needs a stream; a plain call gets one JSON answer.
    const wantsProgress = body?.params?._meta?.progressToken !== undefined;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !wantsProgress });
    // A client that goes away cancels its calls (the SDK aborts their signals on close).
    res.on('close', () => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}

function jsonRpcError(res, status, code, message) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Streamable HTTP at POST /mcp (see mcpHandler). */
export function serveHttp(mgr, { port, host = '127.0.0.1', maxBody = 1 << 20, token, log = () => {} }) {
  const auth = token ? makeAuth(token) : null;
  const loopback = LOOPBACK.has(host);
  const handle = mcpHandler(mgr, { maxBody, log });
  const httpServer = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // On loopback, a page whose name was made to point here (DNS rebinding) sends its own
    // name as Host: only loopback names are served.
    if (loopback && !LOOPBACK.has(hostName(req.headers.host))) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `Host ${req.headers.host} is not a loopback name` }));
      return;
    }
    if (noOAuth(req, res, url)) return;
    if (auth && !auth(req, url)) {
      unauthorized(res);
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found: the MCP endpoint is POST /mcp' }));
      return;
    }
    await handle(req, res);
  });
  return new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => resolve(httpServer));
  });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** The name part of a Host header (`127.0.0.1:8808` -> `127.0.0.1`, `[::1]:80` -> `[::1]`). */
function hostName(h) {
  if (typeof h !== 'string') return '';
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0];
}
