// A tuidriver-serve instance in this process, and clients for its REST, SSE and WebSocket faces.
import WebSocket from 'ws';
import { SessionManager } from '../src/sessions.mjs';
import { startServe } from '../src/serve.mjs';

export const TOKEN = 'test-token-0123456789';

export async function startTestServer(t, opts = {}) {
  const mgr = new SessionManager({ maxSessions: opts.maxSessions ?? 8, logChars: opts.logChars ?? 1 << 20 });
  const srv = await startServe(mgr, { port: 0, token: TOKEN, maxBody: opts.maxBody ?? 1 << 20, mcp: opts.mcp ?? false });
  t.after(async () => {
    await srv.close();
    await mgr.closeAll();
  });
  const api = async (method, path, body, { token = TOKEN, raw = false } = {}) => {
    const res = await fetch(srv.url + path, {
      method,
      headers: { ...(token !== null ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    if (raw) return res;
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  return { srv, mgr, api, url: srv.url };
}

/** Reads Server-Sent Events from a fetch Response: yields { id, event, data }. */
export async function* sseEvents(res) {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body) {
    buf += decoder.decode(chunk, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const ev = { id: null, event: 'message', data: '' };
      let hasData = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const c = line.indexOf(':');
        const field = line.slice(0, c);
        const value = line.slice(c + 1).replace(/^ /, '');
        if (field === 'id') ev.id = Number(value);
        else if (field === 'event') ev.event = value;
        else if (field === 'data') { ev.data += value; hasData = true; }
      }
      if (hasData) yield { ...ev, data: JSON.parse(ev.data) };
    }
  }
}

/**
 * A WebSocket client of /ws that records everything: JSON messages in order, and the
 * bytes of each channel (replay and live alike, in arrival order).
 */
export class WsClient {
  static open(url, token = TOKEN, query = '') {
    const c = new WsClient();
    c.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws${query}`, { headers: { authorization: `Bearer ${token}` } });
    c.messages = [];
    c.data = new Map();
    c.waiters = [];
    c.ws.on('message', (d, isBinary) => {
      if (isBinary) {
        const ch = d[0];
        c.data.set(ch, (c.data.get(ch) ?? '') + d.subarray(1).toString('utf8'));
      } else {
        c.messages.push(JSON.parse(d.toString('utf8')));
      }
      c.wake();
    });
    c.ws.on('close', () => { c.closed = true; c.wake(); });
    return new Promise((resolve, reject) => {
      c.ws.once('open', () => resolve(c));
      c.ws.once('error', reject);
    });
  }

  wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once `pred()` is truthy (checked after every message), with its value. */
  async until(pred, what = 'a condition') {
    for (;;) {
      const v = pred();
      if (v) return v;
      if (this.closed) throw new Error(`the socket closed before ${what}`);
      await new Promise((r) => this.waiters.push(r));
    }
  }

  message(pred, what) {
    return this.until(() => this.messages.find(pred), what);
  }

  send(msg) {
    this.ws.send(JSON.stringify(msg));
  }

  input(channel, text) {
    this.ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(text, 'utf8')]));
  }

  text(channel) {
    return this.data.get(channel) ?? '';
  }

  async attach(sessionId) {
    const before = this.messages.length;
    this.send({ type: 'attach', session_id: sessionId });
    const live = await this.until(() => this.messages.slice(before).find((m) => m.type === 'live' && m.session_id === sessionId) || this.messages.slice(before).find((m) => m.type === 'error'), `attaching ${sessionId}`);
    if (live.type === 'error') throw new Error(live.error);
    return live.channel;
  }

  close() {
    this.ws.close();
    return new Promise((r) => (this.closed ? r() : this.ws.once('close', r)));
  }
}

/** The page's terminal rows, as xterm.js holds them (scrollback and screen). */
export function termLines(page) {
  return page.evaluate(() => {
    const b = window.tuidriverTerm.buffer.active;
    const out = [];
    for (let i = 0; i < b.length; i++) out.push(b.getLine(i).translateToString(true));
    return out;
  });
}
