// tuidriver-mcp: terminal sessions as MCP tools. The tool and argument names are
// fixed (docs/server.md): clients are written against them.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';
import { makeAuth } from './auth.mjs';
import { screenText } from './sessions.mjs';

const VERSION = '0.1.0';

const sessionId = z.string().describe('The session id that session_start returned');
const timeoutMs = z.number().int().positive().max(3_600_000).optional();

const screenShape = {
  session_id: z.string(),
  lines: z.array(z.string()),
  cursor: z.object({ row: z.number(), col: z.number(), visible: z.boolean() }),
  cols: z.number(),
  rows: z.number(),
  alt_screen: z.boolean(),
  title: z.string(),
};

const sessionShape = {
  session_id: z.string(),
  engine: z.string().nullable(),
  command: z.array(z.string()).nullable(),
  pid: z.number(),
  created_at: z.string(),
  exited: z.boolean(),
  exit_code: z.number().nullable(),
  signal: z.string().nullable(),
};

/** A tool result: `text` for the model, `data` as structuredContent. */
function result(text, data) {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** The tools, in the order `tools/list` shows them. Each: name, description, input, output, handler. */
function tools(mgr) {
  return [
    {
      name: 'session_start',
      description: 'Start a terminal session: an engine (a REPL or agent CLI tuidriver knows: python, bash, node, claude, codex, gemini, ...) or any command (an argv array). Returns session_id, which every other tool takes.',
      input: {
        engine: z.string().optional().describe('Engine name, e.g. "python" or "bash"; completion of run/ask is read from the screen'),
        command: z.array(z.string()).min(1).optional().describe('Any program, as an argv array, e.g. ["bash", "--norc"]; run waits for quiet output'),
        cols: z.number().int().min(2).max(1000).optional().describe('Terminal width (default 120)'),
        rows: z.number().int().min(2).max(1000).optional().describe('Terminal height (default 40)'),
        cwd: z.string().optional().describe('Working directory'),
      },
      output: { session_id: z.string(), engine: z.string().nullable(), command: z.array(z.string()).nullable(), pid: z.number(), cols: z.number(), rows: z.number() },
      handler: async (a) => {
        const e = await mgr.start(a);
        const scr = await mgr.call(e, 'session_start', (s) => s.screen());
        const data = { session_id: e.id, engine: e.engine, command: e.command, pid: e.session.pid, cols: scr.cols, rows: scr.rows };
        return result(`session_id: ${e.id} (${e.engine ? `engine ${e.engine}` : e.command.join(' ')}, pid ${data.pid}, ${scr.cols}x${scr.rows})`, data);
      },
    },
    {
      name: 'run',
      description: 'Type a line and Enter, then return what the program printed once it is ready again: for engine sessions the engine\'s own completion (its prompt is back), for command sessions half a second without output.',
      input: { session_id: sessionId, line: z.string().describe('The line to type (Enter is added)'), timeout_ms: timeoutMs.describe('Give up after this long') },
      output: { session_id: z.string(), output: z.string(), markdown: z.string().nullable(), exited: z.boolean() },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const r = await mgr.run(e, a.line, a.timeout_ms);
        return result(r.output + (r.exited ? '\n[the program exited]' : ''), { session_id: e.id, ...r });
      },
    },
    {
      name: 'send',
      description: 'Write data to the program as it is: no Enter is added ("\\r" is Enter). Returns at once; read the result with screen or expect.',
      input: { session_id: sessionId, data: z.string().describe('Characters to write') },
      output: { session_id: z.string(), sent: z.number() },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        await mgr.call(e, 'send', (s) => s.send(a.data));
        return result(`sent ${a.data.length} characters`, { session_id: e.id, sent: a.data.length });
      },
    },
    {
      name: 'keys',
      description: 'Send keys by tmux names: Enter, Escape, Tab, BSpace, Up, Down, Left, Right, Home, End, PageUp, PageDown, F1..F12, C-c, M-x, ...; anything else is typed as text.',
      input: { session_id: sessionId, keys: z.array(z.string()).min(1).describe('Key names, in order, e.g. ["C-c"] or ["Escape", ":wq", "Enter"]') },
      output: { session_id: z.string(), keys: z.array(z.string()) },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        await mgr.call(e, 'keys', (s) => s.keys(a.keys));
        return result(`sent keys ${a.keys.join(' ')}`, { session_id: e.id, keys: a.keys });
      },
    },
    {
      name: 'send_secret',
      description: 'Write a secret (a password, a token) to the program. It never appears in any result, error or log, here or in the daemon. No Enter is added: end it with "\\r" to submit.',
      input: { session_id: sessionId, secret: z.string().describe('The secret; never echoed back') },
      output: { session_id: z.string(), sent: z.boolean() },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        await mgr.call(e, 'send_secret', (s) => s.sendSecret(a.secret));
        return result('secret sent', { session_id: e.id, sent: true });
      },
    },
    {
      name: 'screen',
      description: 'The rendered terminal screen, as a person sees it: one line per row, no colours, and the cursor position (0-based).',
      input: { session_id: sessionId },
      output: screenShape,
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const scr = await mgr.call(e, 'screen', (s) => s.screen());
        return result(screenText(scr), screenData(e.id, scr));
      },
    },
    {
      name: 'scrollback',
      description: 'The history that scrolled off the top followed by the screen, oldest first, as text lines.',
      input: { session_id: sessionId, lines: z.number().int().positive().max(1_000_000).optional().describe('Keep only the newest N lines') },
      output: { session_id: z.string(), lines: z.array(z.string()) },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const lines = await mgr.call(e, 'scrollback', (s) => s.scrollback(a.lines !== undefined ? { lines: a.lines } : {}));
        return result(lines.join('\n'), { session_id: e.id, lines });
      },
    },
    {
      name: 'expect',
      description: 'Wait until an RE2 regular expression matches the screen or the output since the call (escape codes removed). Returns the match and its groups; on timeout, an error with the screen.',
      input: { session_id: sessionId, pattern: z.string().min(1).describe('RE2 pattern, e.g. "\\\\$ $" or "(\\\\d+) passed"'), timeout_ms: timeoutMs.describe('Default 30000') },
      output: { session_id: z.string(), match: z.string(), groups: z.array(z.string()) },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const r = await mgr.call(e, 'expect', (s) => s.expect(a.pattern, a.timeout_ms !== undefined ? { timeoutMs: a.timeout_ms } : {}));
        return result(`matched: ${r.match}${r.groups.length ? `\ngroups: ${JSON.stringify(r.groups)}` : ''}`, { session_id: e.id, ...r });
      },
    },
    {
      name: 'ask',
      description: 'Engine sessions: send a prompt the engine\'s way and return the reply without echo, prompt or escape codes; for agent CLIs with a transcript also the model\'s exact markdown. A question inside the turn fails the ask with kind needs_input (answer it with keys, then screen).',
      input: { session_id: sessionId, prompt: z.string().describe('The prompt or code'), timeout_ms: timeoutMs.describe('Default: the engine\'s own limit') },
      output: { session_id: z.string(), text: z.string(), markdown: z.string().nullable() },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const r = await mgr.ask(e, a.prompt, a.timeout_ms !== undefined ? { timeoutMs: a.timeout_ms } : {});
        return result(r.markdown ?? r.text, { session_id: e.id, text: r.text, markdown: r.markdown });
      },
    },
    {
      name: 'status',
      description: 'The session\'s state (starting, ready, busy, exited), pids, working directory, size, engine, exit code, and which engine rule decides the state.',
      input: { session_id: sessionId },
      output: {
        session_id: z.string(), state: z.string(), pid: z.number().nullable(), foreground_pid: z.number().nullable(),
        cwd: z.string().nullable(), cols: z.number(), rows: z.number(), engine: z.string().nullable(),
        exit_code: z.number().nullable(), signal: z.string().nullable(), explain: z.string(),
      },
      handler: async (a) => {
        const e = mgr.get(a.session_id);
        const st = await mgr.call(e, 'status', (s) => s.status());
        const data = {
          session_id: e.id, state: st.state, pid: st.pid, foreground_pid: st.foregroundPid, cwd: st.cwd,
          cols: st.cols, rows: st.rows, engine: st.engine, exit_code: st.exitCode, signal: st.signal, explain: st.explain?.note ?? '',
        };
        return result(JSON.stringify(data, null, 1), data);
      },
    },
    {
      name: 'list',
      description: 'The open sessions: id, engine or command, pid, start time, and whether the program has exited.',
      input: {},
      output: { sessions: z.array(z.object(sessionShape)) },
      handler: async () => {
        const sessions = mgr.list();
        const text = sessions.length === 0 ? 'no sessions' : sessions.map((s) => `${s.session_id}  ${s.engine ?? s.command.join(' ')}  pid ${s.pid}${s.exited ? `  exited (${s.signal ?? s.exit_code})` : ''}`).join('\n');
        return result(text, { sessions });
      },
    },
    {
      name: 'terminate',
      description: 'End the session: the program (its quit keys, then SIGTERM, then SIGKILL, in bounded time) and its daemon. The session_id is then unknown.',
      input: { session_id: sessionId },
      output: { session_id: z.string(), exit_code: z.number().nullable(), signal: z.string().nullable() },
      handler: async (a) => {
        const info = await mgr.terminate(a.session_id);
        return result(`terminated ${a.session_id} (${info.signal ?? `exit code ${info.exitCode}`})`, { session_id: a.session_id, exit_code: info.exitCode, signal: info.signal });
      },
    },
  ];
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

/** An McpServer with every tool, over the sessions of `mgr`. */
export function buildMcpServer(mgr) {
  const server = new McpServer({ name: 'tuidriver-mcp', version: VERSION });
  for (const t of tools(mgr)) {
    server.registerTool(t.name, {
      description: t.description,
      // Strict: a misspelt argument name is an error, not silently ignored.
      inputSchema: z.strictObject(t.input),
      outputSchema: z.object(t.output),
    }, async (args) => {
      try {
        return await t.handler(args);
      } catch (e) {
        // Never the arguments (send_secret's secret): the message, and what the daemon
        // said about the screen or a question on it.
        return { content: [{ type: 'text', text: errorText(e) }], isError: true };
      }
    });
  }
  return server;
}

export async function serveStdio(mgr) {
  const server = buildMcpServer(mgr);
  await server.connect(new StdioServerTransport());
  return server;
}

/**
 * Streamable HTTP at POST /mcp, stateless: each request gets a fresh McpServer over the
 * shared sessions, so session ids outlive any one MCP connection.
 * @returns {Promise<import('node:http').Server>}
 */
export function serveHttp(mgr, { port, host = '127.0.0.1', maxBody = 1 << 20, token, log = () => {} }) {
  const auth = token ? makeAuth(token) : null;
  const loopback = LOOPBACK.has(host);
  const httpServer = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // On loopback, a page whose name was made to point here (DNS rebinding) sends its own
    // name as Host: only loopback names are served.
    if (loopback && !LOOPBACK.has(hostName(req.headers.host))) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `Host ${req.headers.host} is not a loopback name` }));
      return;
    }
    if (auth && !auth(req, url)) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ error: 'missing or wrong token: send Authorization: Bearer TOKEN' }));
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found: the MCP endpoint is POST /mcp' }));
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'method not allowed: this server is stateless, use POST' }, id: null }));
      return;
    }
    let body;
    try {
      body = await readJson(req, maxBody);
    } catch (e) {
      res.writeHead(e.status ?? 400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: e.message }, id: null }));
      return;
    }
    const server = buildMcpServer(mgr);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (e) {
      log(`mcp http: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) res.writeHead(500).end();
    }
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

/** Reads a JSON request body of at most `max` bytes; errors carry an HTTP `status`. */
export function readJson(req, max) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    let failed = false;
    req.on('data', (c) => {
      if (failed) return;
      size += c.length;
      if (size > max) {
        failed = true;
        reject(Object.assign(new Error(`request body over ${max} bytes`), { status: 413 }));
        req.resume();
        return;
      }
      parts.push(c);
    });
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(parts).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(Object.assign(new Error('the request body is not valid JSON'), { status: 400 }));
      }
    });
    req.on('error', (e) => {
      if (!failed) reject(Object.assign(e, { status: 400 }));
    });
  });
}
