// tuidriver-serve: REST routes, an SSE stream and a multiplexed WebSocket over the
// sessions of a SessionManager, plus the live web page. One bearer token guards
// every route, the WebSocket and the page.
import * as fs from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClientError, size } from './sessions.mjs';
import { COOKIE, makeAuth } from './auth.mjs';
import { noOAuth, readJson, unauthorized } from './http.mjs';
import { misdirected } from './instance.mjs';
import { mcpHandler } from './mcp.mjs';
import { attachWebSocket } from './ws.mjs';

const STATUS = { bad_request: 400, not_found: 404, conflict: 409, cap: 429, failed: 422 };

/** Files the page needs: its own, and xterm.js from node_modules (no CDN). */
function staticFiles() {
  const require = createRequire(import.meta.url);
  const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
  const xterm = path.dirname(require.resolve('@xterm/xterm/package.json'));
  const fit = path.dirname(require.resolve('@xterm/addon-fit/package.json'));
  const unicode11 = path.dirname(require.resolve('@xterm/addon-unicode11/package.json'));
  const marked = path.dirname(require.resolve('marked/package.json'));
  const purify = path.dirname(require.resolve('dompurify')); // (its exports hide package.json)
  return new Map([
    ['/', [path.join(web, 'index.html'), 'text/html; charset=utf-8']],
    ['/app.js', [path.join(web, 'app.js'), 'text/javascript; charset=utf-8']],
    ['/style.css', [path.join(web, 'style.css'), 'text/css; charset=utf-8']],
    // Browsers ask for /favicon.ico whatever the page says: both names get the icon, no 404.
    ['/favicon.svg', [path.join(web, 'favicon.svg'), 'image/svg+xml']],
    ['/favicon.ico', [path.join(web, 'favicon.svg'), 'image/svg+xml']],
    ['/vendor/xterm.js', [path.join(xterm, 'lib', 'xterm.js'), 'text/javascript; charset=utf-8']],
    ['/vendor/xterm.css', [path.join(xterm, 'css', 'xterm.css'), 'text/css; charset=utf-8']],
    ['/vendor/addon-fit.js', [path.join(fit, 'lib', 'addon-fit.js'), 'text/javascript; charset=utf-8']],
    ['/vendor/addon-unicode11.js', [path.join(unicode11, 'lib', 'addon-unicode11.js'), 'text/javascript; charset=utf-8']],
    ['/vendor/marked.js', [path.join(marked, 'lib', 'marked.umd.js'), 'text/javascript; charset=utf-8']],
    ['/vendor/purify.js', [path.join(purify, 'purify.min.js'), 'text/javascript; charset=utf-8']],
  ]);
}

function send(res, status, body, headers = {}) {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res, e) {
  if (e instanceof ClientError) {
    send(res, STATUS[e.code] ?? 400, { error: e.message, code: e.code, ...e.extra });
  } else if (e?.status) {
    send(res, e.status, { error: e.message });
  } else {
    send(res, 500, { error: `internal error: ${e instanceof Error ? e.message : String(e)}` });
  }
}

/** The body's fields, checked to be an object. */
async function body(req, maxBody) {
  const b = await readJson(req, maxBody);
  if (b === undefined) return {};
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new ClientError('bad_request', 'the request body must be a JSON object');
  return b;
}

function need(b, field, type) {
  const v = b[field];
  const ok = type === 'array' ? Array.isArray(v) : typeof v === type;
  if (!ok) throw new ClientError('bad_request', `${field} is required and must be ${type === 'array' ? 'an array' : `a ${type}`}`);
  return v;
}

function optTimeout(b) {
  if (b.timeout_ms === undefined) return undefined;
  if (!Number.isInteger(b.timeout_ms) || b.timeout_ms <= 0) throw new ClientError('bad_request', 'timeout_ms must be a positive integer');
  return b.timeout_ms;
}

function screenJson(id, scr) {
  return { session_id: id, lines: scr.lines, cursor: scr.cursor, cols: scr.cols, rows: scr.rows, alt_screen: scr.altScreen, title: scr.title };
}

/** The routes under /sessions/:id, by "METHOD action". */
function sessionRoutes(mgr) {
  return {
    'GET ': async (e) => {
      const st = await mgr.call(e, 'status', (s) => s.status());
      return { ...e.summary(), state: st.state, cols: st.cols, rows: st.rows, cwd: st.cwd, foreground_pid: st.foregroundPid };
    },
    'DELETE ': async (e) => {
      const info = await mgr.terminate(e.id);
      return { session_id: e.id, exit_code: info.exitCode, signal: info.signal };
    },
    'POST input': async (e, b) => {
      const data = need(b, 'data', 'string');
      if (b.secret === true) await mgr.call(e, 'input', (s) => s.sendSecret(data));
      else await mgr.call(e, 'input', (s) => s.send(data));
      return { ok: true };
    },
    'POST keys': async (e, b) => {
      await mgr.keys(e, need(b, 'keys', 'array'));
      return { ok: true };
    },
    'POST resize': async (e, b) => {
      const cols = size(b, 'cols');
      const rows = size(b, 'rows');
      const r = await mgr.resize(e, cols, rows);
      return { ok: true, cols: r.cols, rows: r.rows };
    },
    'POST ask': async (e, b, _url, signal) => {
      const prompt = need(b, 'prompt', 'string');
      const timeoutMs = optTimeout(b);
      return mgr.ask(e, prompt, { stream: true, interactive: b.on_input === 'wait', signal, ...(timeoutMs ? { timeoutMs } : {}) });
    },
    'POST answer': async (e, b) => {
      const askId = need(b, 'ask_id', 'number');
      if ((b.option === undefined) === (b.text === undefined)) throw new ClientError('bad_request', 'give exactly one of option (a choice index) or text');
      if (b.option !== undefined && !Number.isInteger(b.option)) throw new ClientError('bad_request', 'option must be an integer');
      if (b.text !== undefined && typeof b.text !== 'string') throw new ClientError('bad_request', 'text must be a string');
      mgr.answer(e, askId, b.option ?? b.text);
      return { ok: true };
    },
    'GET screen': async (e, _b, url) => {
      const styles = flag(url, 'styles');
      const scr = await mgr.call(e, 'screen', (s) => s.screen({ styles }));
      return { ...screenJson(e.id, scr), ...(styles ? { styles: scr.styles } : {}), state: await mgr.state(e) };
    },
    'GET read': async (e, _b, url) => {
      const cursor = intParam(url, 'cursor', 0, Number.MAX_SAFE_INTEGER);
      const maxChars = intParam(url, 'max_chars', 100, 1_000_000);
      return { session_id: e.id, ...(await mgr.read(e, { cursor, ...(maxChars !== undefined ? { maxChars } : {}) })) };
    },
    'POST signal': async (e, b) => {
      const sig = b.signal;
      if (!(typeof sig === 'string' && /^(SIG)?[A-Z0-9]{1,10}$/i.test(sig)) && !Number.isInteger(sig)) throw new ClientError('bad_request', 'signal must be a signal name ("INT", "SIGTERM") or number');
      const name = await mgr.call(e, 'signal', (s) => s.signal(sig));
      return { ok: true, signal: name, state: await mgr.state(e) };
    },
    'POST wait_idle': async (e, b, _url, signal) => {
      const idleMs = b.idle_ms;
      if (idleMs !== undefined && (!Number.isInteger(idleMs) || idleMs < 1 || idleMs > 3_600_000)) throw new ClientError('bad_request', 'idle_ms must be an integer from 1 to 3600000');
      const idle = await mgr.waitIdle(e, { idleMs, timeoutMs: optTimeout(b) ?? 30_000, signal });
      return { ok: true, idle, state: await mgr.state(e) };
    },
    'POST record': async (e, b) => {
      if ((b.path === undefined) === (b.stop !== true)) throw new ClientError('bad_request', 'give exactly one of path (a file to record to) and stop: true');
      if (b.path !== undefined && (typeof b.path !== 'string' || b.path === '')) throw new ClientError('bad_request', 'path must be a file name');
      if (b.overwrite !== undefined && typeof b.overwrite !== 'boolean') throw new ClientError('bad_request', 'overwrite must be true or false');
      const full = await mgr.record(e, b.path, { overwrite: b.overwrite === true });
      return { ok: true, recording: b.path !== undefined, path: full };
    },
    'GET scrollback': async (e, _b, url) => {
      const n = url.searchParams.get('lines');
      if (n !== null && !/^[1-9]\d{0,6}$/.test(n)) throw new ClientError('bad_request', 'lines must be a positive integer');
      const lines = await mgr.call(e, 'scrollback', (s) => s.scrollback(n !== null ? { lines: Number(n) } : {}));
      return { session_id: e.id, lines };
    },
    'GET output': async (e) => {
      const r = e.log.since(e.drainOffset);
      e.drainOffset = r.to;
      return {
        session_id: e.id, data: r.data, from: r.from, to: r.to, dropped: r.dropped,
        exited: e.exit !== null, exit_code: e.exit?.exitCode ?? null, signal: e.exit?.signal ?? null,
      };
    },
  };
}

/** The body fields each route takes: any other is a 400 naming it. */
const FIELDS = {
  'POST /sessions': ['engine', 'command', 'cols', 'rows', 'cwd', 'env'],
  'POST input': ['data', 'secret'],
  'POST keys': ['keys'],
  'POST resize': ['cols', 'rows'],
  'POST ask': ['prompt', 'timeout_ms', 'on_input'],
  'POST answer': ['ask_id', 'option', 'text'],
  'POST signal': ['signal'],
  'POST wait_idle': ['idle_ms', 'timeout_ms'],
  'POST record': ['path', 'overwrite', 'stop'],
};

function onlyFields(b, route) {
  const known = FIELDS[route] ?? [];
  for (const k of Object.keys(b)) {
    if (!known.includes(k)) throw new ClientError('bad_request', `unknown field "${k}" (${route} takes ${known.length ? known.join(', ') : 'no fields'})`);
  }
}

/** `?name=1|true` (or `?name`): true; absent, 0 or false: false. */
function flag(url, name) {
  const v = url.searchParams.get(name);
  if (v === null || v === '0' || v === 'false') return false;
  if (v === '' || v === '1' || v === 'true') return true;
  throw new ClientError('bad_request', `${name} must be true or false`);
}

/** An integer query parameter in [min, max], or undefined. */
function intParam(url, name, min, max) {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) throw new ClientError('bad_request', `${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** GET /sessions/:id/events: the session's events as Server-Sent Events, numbered by `id:`. */
function serveEvents(e, req, res) {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(`: session ${e.id}\n\n`);
  const onEvent = (ev) => {
    const { seq, type, ...rest } = ev;
    res.write(`id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(rest)}\n\n`);
    if (type === 'closed') res.end();
  };
  e.on('event', onEvent);
  if (e.exit) res.write(`event: exit\ndata: ${JSON.stringify({ session_id: e.id, exit_code: e.exit.exitCode, signal: e.exit.signal })}\n\n`);
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  const stop = () => { clearInterval(ping); e.off('event', onEvent); };
  req.on('close', stop);
  res.on('close', stop);
}

/**
 * Starts the server. Resolves with { server, url, close() } once it listens.
 * @param {import('./sessions.mjs').SessionManager} mgr
 */
export function startServe(mgr, { port = 0, host = '127.0.0.1', token, maxBody = 1 << 20, mcp = false, log = () => {} }) {
  if (!token) throw new Error('startServe needs a token');
  const auth = makeAuth(token);
  const files = staticFiles();
  const routes = sessionRoutes(mgr);
  // --mcp: agents call the same sessions that the page shows to people.
  const mcpRoute = mcp ? mcpHandler(mgr, { maxBody, log }) : null;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      if (noOAuth(req, res, url)) return;
      if (!auth(req, url)) {
        unauthorized(res);
        return;
      }
      const wrong = misdirected(url, mgr.instance);
      if (wrong) return send(res, 421, { error: wrong, code: 'misdirected' });
      // Behind a router, the router answers this one with every instance it knows.
      if (req.method === 'GET' && url.pathname === '/instances') return send(res, 200, { instances: [mgr.instance] });
      if (mcpRoute && url.pathname === '/mcp') {
        await mcpRoute(req, res);
        return;
      }
      if (req.method === 'GET' && files.has(url.pathname)) {
        serveFile(req, res, url, files.get(url.pathname), token);
        return;
      }
      await route(req, res, url);
    } catch (e) {
      sendError(res, e);
    }
  });

  async function route(req, res, url) {
    const parts = url.pathname.split('/').filter((p) => p !== '');
    if (parts[0] !== 'sessions' || parts.length > 3) {
      send(res, 404, { error: `no route ${req.method} ${url.pathname}` });
      return;
    }
    if (parts.length === 1) {
      if (req.method === 'GET') return send(res, 200, { sessions: mgr.list() });
      if (req.method !== 'POST') return send(res, 405, { error: 'use GET or POST on /sessions' }, { allow: 'GET, POST' });
      const b = await body(req, maxBody);
      onlyFields(b, 'POST /sessions');
      const e = await mgr.start({ engine: b.engine, command: b.command, cols: b.cols, rows: b.rows, cwd: b.cwd, env: b.env });
      const scr = await mgr.call(e, 'start', (s) => s.screen());
      return send(res, 201, { ...e.summary(), cols: scr.cols, rows: scr.rows });
    }
    const e = mgr.get(decodeURIComponent(parts[1]));
    const action = parts[2] ?? '';
    if (req.method === 'GET' && action === 'events') return serveEvents(e, req, res);
    const handler = routes[`${req.method} ${action}`];
    if (!handler) {
      const allowed = Object.keys(routes).filter((k) => k.endsWith(` ${action}`)).map((k) => k.split(' ')[0]);
      if (action === 'events') allowed.push('GET');
      if (allowed.length === 0) return send(res, 404, { error: `no route ${req.method} ${url.pathname}` });
      return send(res, 405, { error: `use ${allowed.join(' or ')} on ${url.pathname}` }, { allow: allowed.join(', ') });
    }
    const b = req.method === 'POST' ? await body(req, maxBody) : {};
    if (req.method === 'POST') onlyFields(b, `POST ${action}`);
    // A client that goes away cancels a waiting call.
    const gone = new AbortController();
    res.on('close', () => { if (!res.writableEnded) gone.abort(); });
    send(res, 200, await handler(e, b, url, gone.signal));
  }

  const ws = attachWebSocket(server, mgr, { auth, maxPayload: maxBody, log });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const a = server.address();
      const h = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        server,
        url: `http://${h}:${a.port}`,
        close: async () => {
          ws.close();
          server.closeAllConnections?.();
          await new Promise((r) => server.close(() => r()));
        },
      });
    });
  });
}

/** A static file. `/?token=T` sets the page's cookie and drops the token from the address bar. */
function serveFile(req, res, url, [file, type], token) {
  if (url.pathname === '/' && url.searchParams.has('token')) {
    res.writeHead(303, {
      location: '/',
      'set-cookie': `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
    });
    res.end();
    return;
  }
  fs.readFile(file, (err, data) => {
    if (err) return send(res, 500, { error: `cannot read ${path.basename(file)}` });
    res.writeHead(200, { 'content-type': type, 'content-length': data.length, 'cache-control': 'no-cache' });
    res.end(data);
  });
}
