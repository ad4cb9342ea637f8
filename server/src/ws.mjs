// The WebSocket terminal API at /ws: one socket carries many sessions. A client
// attaches a session and gets a channel byte; output and input then travel as
// binary frames [channel][UTF-8 data], control as JSON text frames. Attaching
// replays the session's output so far (its scrollback and screen), then live
// output, with nothing lost or repeated in between (both happen in one turn of
// the event loop, and the output log and the live events come from one source).
import { StringDecoder } from 'node:string_decoder';
import { WebSocketServer } from 'ws';
import { sameOrigin } from './auth.mjs';
import { misdirected } from './instance.mjs';
import { ClientError, size } from './sessions.mjs';

/** Above this much unsent data a client is too slow: it is disconnected rather than fed partially. */
const MAX_BUFFERED = 64 << 20;

export function attachWebSocket(server, mgr, { auth, maxPayload, log }) {
  const wss = new WebSocketServer({ noServer: true, maxPayload });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (!auth(req, url)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nConnection: close\r\n\r\n');
      return;
    }
    if (misdirected(url, mgr.instance)) {
      socket.end('HTTP/1.1 421 Misdirected Request\r\nConnection: close\r\n\r\n');
      return;
    }
    // A browser says which page opens the socket: only this server's own page may
    // (a page elsewhere must not ride on the cookie).
    if (!sameOrigin(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => new Connection(ws, mgr, log));
  });
  return {
    close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}

class Connection {
  constructor(ws, mgr, log) {
    this.ws = ws;
    this.mgr = mgr;
    this.log = log;
    /** channel -> { entry, onEvent } */
    this.channels = new Map();
    ws.on('message', (data, isBinary) => {
      try {
        if (isBinary) this.onInput(data);
        else this.onControl(data.toString('utf8'));
      } catch (e) {
        this.error(e);
      }
    });
    ws.on('close', () => {
      for (const ch of [...this.channels.keys()]) this.detach(ch);
    });
    ws.on('error', () => undefined);
  }

  sendJson(msg) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(msg));
  }

  sendData(channel, text) {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED) {
      this.ws.close(1013, 'client too slow: reconnect to get the replay');
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    const frame = Buffer.allocUnsafe(bytes.length + 1);
    frame[0] = channel;
    bytes.copy(frame, 1);
    this.ws.send(frame);
  }

  error(e, extra = {}) {
    const code = e instanceof ClientError ? e.code : 'error';
    this.sendJson({ type: 'error', code, error: e instanceof Error ? e.message : String(e), ...extra });
  }

  channelOf(sessionId) {
    for (const [ch, c] of this.channels) if (c.entry.id === sessionId) return ch;
    return undefined;
  }

  onControl(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      throw new ClientError('bad_request', 'a text frame must be a JSON object');
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new ClientError('bad_request', 'a text frame must be a JSON object');
    const handler = this.handlers()[msg.type];
    if (!handler) throw new ClientError('bad_request', `unknown message type ${JSON.stringify(msg.type)} (attach, detach, resize, keys, ask, answer)`);
    const entry = this.mgr.get(msg.session_id);
    const ref = msg.ref !== undefined ? { ref: msg.ref } : {};
    Promise.resolve(handler(entry, msg)).catch((e) => this.error(e, { session_id: entry.id, ...ref }));
  }

  handlers() {
    return {
      // The session's size goes with the replay: a viewer fits its view to the session.
      attach: async (e) => this.attach(e, await this.mgr.call(e, 'attach', (s) => s.screen()).catch(() => null)),
      detach: (e) => {
        const ch = this.channelOf(e.id);
        if (ch !== undefined) this.detach(ch);
      },
      resize: (e, m) => {
        const cols = size(m, 'cols');
        const rows = size(m, 'rows');
        return this.mgr.resize(e, cols, rows);
      },
      keys: (e, m) => {
        // After a resize sent before it (it waits for the rows' lock), as the client sent them.
        return this.mgr.rowsLocked(e, () => this.mgr.keys(e, m.keys));
      },
      // The ask's chunks, questions and reply reach every attached client as events.
      ask: (e, m) => {
        if (typeof m.prompt !== 'string') throw new ClientError('bad_request', 'prompt must be a string');
        return this.mgr.ask(e, m.prompt, { stream: true, interactive: true, ...(Number.isInteger(m.timeout_ms) ? { timeoutMs: m.timeout_ms } : {}) })
          .catch(() => undefined); // (its failure went out as a reply event)
      },
      answer: (e, m) => this.mgr.answer(e, m.ask_id, m.option ?? m.text),
    };
  }

  /** Attaches: `attached`, the replay as one binary frame, `live`, then every event as it comes. */
  attach(entry, scr) {
    const existing = this.channelOf(entry.id);
    if (existing !== undefined) throw new ClientError('conflict', `session ${entry.id} is already attached on channel ${existing}`);
    let ch = 0;
    while (this.channels.has(ch)) ch++;
    if (ch > 255) throw new ClientError('cap', 'one connection attaches at most 256 sessions');
    const onEvent = (ev) => {
      if (ev.type === 'output') {
        this.sendData(ch, ev.data);
        return;
      }
      this.sendJson(ev);
      if (ev.type === 'closed') this.detach(ch);
    };
    const replay = entry.log.all();
    this.sendJson({
      type: 'attached', session_id: entry.id, channel: ch, engine: entry.engine, command: entry.command,
      replay_from: replay.from, replay_to: entry.log.end, truncated: replay.truncated,
      ...(scr ? { cols: scr.cols, rows: scr.rows } : {}),
    });
    this.sendData(ch, replay.data);
    this.sendJson({ type: 'live', session_id: entry.id, channel: ch });
    // The asks made before this client attached, with their questions and replies.
    for (const ev of entry.chat) this.sendJson(ev);
    if (entry.exit) this.sendJson({ type: 'exit', session_id: entry.id, exit_code: entry.exit.exitCode, signal: entry.exit.signal });
    entry.on('event', onEvent);
    // A character split between two input frames is put back together.
    this.channels.set(ch, { entry, onEvent, decoder: new StringDecoder('utf8') });
  }

  detach(ch) {
    const c = this.channels.get(ch);
    if (!c) return;
    c.entry.off('event', c.onEvent);
    this.channels.delete(ch);
    this.sendJson({ type: 'detached', session_id: c.entry.id, channel: ch });
  }

  onInput(buf) {
    if (buf.length < 1) throw new ClientError('bad_request', 'a binary frame is [channel byte][data]');
    const c = this.channels.get(buf[0]);
    if (!c) throw new ClientError('not_found', `channel ${buf[0]} is not attached`);
    const data = c.decoder.write(buf.subarray(1));
    if (data !== '') {
      this.mgr.rowsLocked(c.entry, () => this.mgr.call(c.entry, 'input', (s) => s.send(data)))
        .catch((e) => this.error(e, { session_id: c.entry.id }));
    }
  }
}
