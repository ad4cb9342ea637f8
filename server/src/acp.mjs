// tuidriver-acp's agent: one engine as an Agent Client Protocol agent
// (docs/acp.md). Each ACP session is one tuidriver daemon (a shim Session) on the
// real TUI; prompts are asks, questions inside a turn are permission requests,
// and the transcript's tool calls and exact markdown are the turn's updates.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { Session, TuiDriverError } from 'tuidriver';
import { SessionIds } from './acp_ids.mjs';
import { engineRegExp, escapeRegExp, mcpArgs, mcpCapabilities, permissionOptions, promptText, questionContext, slashOutput, toolCallUpdates } from './acp_map.mjs';

const VERSION = '0.1.0';
/** How long a slash command's output must be still before it is read. */
const SLASH_IDLE_MS = 700;
const SLASH_TIMEOUT_MS = 20_000;
/** How long a slash command may take to give the prompt back (a panel closed with Escape). */
const READY_TIMEOUT_MS = 10_000;

/**
 * What tuidriver-acp needs from the engine file: whether the engine has a
 * transcript, its slash commands, and its reply's end and chrome rows (to read
 * a slash command's output). Found as the daemon finds it:
 * $TUIDRIVER_ENGINES, else the tuidriver package's engines/. Null when unreadable
 * (the daemon then reports the unknown engine itself).
 */
export function readEngine(engine, env = process.env) {
  const dir = env.TUIDRIVER_ENGINES
    ?? path.join(path.dirname(createRequire(import.meta.url).resolve('tuidriver/package.json')), 'engines');
  try {
    const j = JSON.parse(fs.readFileSync(path.join(dir, `${engine}.json`), 'utf8'));
    const reply = {
      end: j.reply?.end ? engineRegExp(j.reply.end) : null,
      chrome: (j.reply?.chrome ?? []).map(engineRegExp),
    };
    return { description: j.description ?? engine, transcript: j.transcript !== undefined, slashCommands: j.slash_commands ?? [], reply };
  } catch {
    return null;
  }
}

/** A failure as the JSON-RPC error the client gets: the daemon's kind and message. */
function toRequestError(e) {
  if (e instanceof acp.RequestError) return e;
  if (e instanceof TuiDriverError) {
    const data = { kind: e.kind };
    if (typeof e.text === 'string' && e.text !== '') data.text = e.text;
    if (typeof e.question === 'string') data.question = e.question;
    return new acp.RequestError(-32603, `${e.kind}: ${e.message}`, data);
  }
  return new acp.RequestError(-32603, e instanceof Error ? e.message : String(e));
}

function badParams(message) {
  return new acp.RequestError(-32602, message);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves once the engine shows its prompt again; else fails with what the screen shows. */
async function untilReady(ses, when) {
  const end = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const st = await ses.status();
    if (st.explain.verdict === 'ready') return;
    if (st.state === 'exited' || Date.now() > end) {
      const screen = (await ses.screen()).lines.join('\n').trim();
      throw new acp.RequestError(-32603, `the CLI is not at its prompt ${when} (${st.explain.note}); its screen:\n${screen}`);
    }
    await sleep(50);
  }
}

export class AcpAgent {
  /**
   * @param {{engine: string, cols?: number, rows?: number, mode?: 'exec'|'agent', extraArgs?: string[],
   *   env?: NodeJS.ProcessEnv, binaryPath?: string, stderr?: {write(s: string): unknown}}} opts
   */
  constructor(opts) {
    this.opts = opts;
    this.engine = opts.engine;
    this.info = readEngine(opts.engine, opts.env) ?? { description: opts.engine, transcript: false, slashCommands: [], reply: { end: null, chrome: [] } };
    this.stderr = opts.stderr ?? process.stderr;
    /** ACP session id → { id, session, turn, updates, seq }. */
    this.sessions = new Map();
    /** ACP session id → the CLI's own id, where the CLI named it only later (Codex, pi). */
    this.cliIds = new SessionIds(opts.env ?? process.env, (msg) => this.log(msg));
    this.client = null;
  }

  log(msg) {
    this.stderr.write(`tuidriver-acp: ${msg}\n`);
  }

  /** The agent app, its handlers registered. */
  app() {
    return acp.agent({ name: 'tuidriver-acp' })
      .onConnect((conn) => { this.client = conn.client; })
      .onRequest(acp.methods.agent.initialize, () => this.initialize())
      .onRequest(acp.methods.agent.session.new, ({ params }) => this.newSession(params))
      .onRequest(acp.methods.agent.session.load, ({ params }) => this.loadSession(params))
      .onRequest(acp.methods.agent.session.prompt, ({ params }) => this.prompt(params))
      .onNotification(acp.methods.agent.session.cancel, ({ params }) => this.cancel(params));
  }

  initialize() {
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: this.info.transcript,
        // Text only: a terminal program is given typed text.
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
        mcpCapabilities: mcpCapabilities(this.engine),
      },
      authMethods: [],
      agentInfo: { name: 'tuidriver-acp', title: `${this.info.description} (tuidriver)`, version: VERSION },
    };
  }

  async newSession(params) {
    const s = await this.start(params);
    // After the response, so that the client knows the session.
    setTimeout(() => this.announce(s), 0);
    return { sessionId: s.id };
  }

  /** Resumes the CLI's conversation `sessionId` (engines with a transcript). */
  async loadSession(params) {
    if (!this.info.transcript) throw badParams(`${this.engine} keeps no transcript, so its sessions cannot be loaded`);
    const held = this.sessions.get(params.sessionId);
    if (held) {
      this.sessions.delete(params.sessionId);
      await held.session.close().catch(() => undefined);
    }
    const s = await this.start(params, { resume: this.cliIds.cliId(params.sessionId) ?? params.sessionId, id: params.sessionId });
    try {
      await this.replay(s);
    } catch (e) {
      this.sessions.delete(s.id);
      await s.session.close().catch(() => undefined);
      throw e;
    }
    setTimeout(() => this.announce(s), 0);
    return {};
  }

  /**
   * The resumed conversation, as the CLI's transcript recorded it, sent before
   * session/load answers: per turn its prompt, its tool calls (each completed or
   * failed, with its output) and its markdown. An engine whose transcript format
   * has no history resumes without a replay, and says why on stderr.
   */
  async replay(s) {
    let history;
    try {
      history = await s.session.history();
    } catch (e) {
      if (!(e instanceof TuiDriverError && e.kind === 'history')) throw toRequestError(e);
      this.log(`session ${s.id} resumed without replaying its history: ${e.message}`);
      return;
    }
    for (const turn of history.turns) {
      if (turn.prompt !== '') this.update(s, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: turn.prompt } });
      for (const tool of turn.tools) {
        for (const u of toolCallUpdates(`tool-${++s.seq}`, tool)) this.update(s, u);
      }
      this.say(s, turn.markdown);
    }
    await s.updates;
  }

  /** Starts a daemon for a new session, or to resume the CLI's session `resume` as ACP session `id`. */
  async start({ cwd, mcpServers }, { resume, id: loadedId } = {}) {
    if (typeof cwd !== 'string' || !path.isAbsolute(cwd)) throw badParams('cwd must be an absolute path');
    let extra;
    try {
      extra = mcpArgs(this.engine, mcpServers);
    } catch (e) {
      throw badParams(e.message);
    }
    if (extra === null && mcpServers?.length) this.log(`${this.engine} takes no MCP servers: ${mcpServers.length} ignored`);
    const o = this.opts;
    let session;
    try {
      session = await Session.spawn(this.engine, {
        cwd,
        ...(o.cols ? { cols: o.cols } : {}),
        ...(o.rows ? { rows: o.rows } : {}),
        ...(o.mode ? { mode: o.mode } : {}),
        ...(o.binaryPath ? { binaryPath: o.binaryPath } : {}),
        ...(resume ? { resume } : {}),
        extraArgs: [...(o.extraArgs ?? []), ...(extra ?? [])],
        env: o.env ?? process.env,
      });
    } catch (e) {
      if (e instanceof TuiDriverError && e.stderr) this.stderr.write(e.stderr);
      throw toRequestError(e);
    }
    // Nothing lost: the daemon's diagnostics go to this agent's stderr.
    if (session.stderrTail) this.stderr.write(session.stderrTail);
    session.on('stderr', (chunk) => this.stderr.write(chunk));
    const id = loadedId ?? session.sessionId ?? randomUUID();
    const s = { id, session, turn: null, updates: Promise.resolve(), seq: 0 };
    this.sessions.set(id, s);
    session.on('close', () => { if (this.sessions.get(id) === s) this.sessions.delete(id); });
    return s;
  }

  /** The engine's slash commands, for the client's menu. */
  announce(s) {
    this.update(s, {
      sessionUpdate: 'available_commands_update',
      availableCommands: this.info.slashCommands.map((c) => ({ name: c.name, description: c.description ?? '', input: { hint: 'arguments' } })),
    });
  }

  held(sessionId) {
    const s = this.sessions.get(sessionId);
    if (!s) throw badParams(`unknown session ${JSON.stringify(sessionId)}`);
    return s;
  }

  /** Sends a session/update, in order after every earlier one of the session. */
  update(s, update) {
    s.updates = s.updates.then(() => this.client.notify(acp.methods.client.session.update, { sessionId: s.id, update }))
      .catch((e) => this.log(`session/update failed: ${e.message}`));
    return s.updates;
  }

  say(s, text) {
    if (text !== '') this.update(s, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  async prompt(params) {
    const s = this.held(params.sessionId);
    let text;
    try {
      text = promptText(params.prompt);
    } catch (e) {
      throw badParams(e.message);
    }
    if (s.turn) throw new acp.RequestError(-32600, 'a prompt is already running in this session');
    const turn = { abort: new AbortController(), cancelled: false, freeText: null };
    s.turn = turn;
    try {
      const isSlash = this.info.slashCommands.length > 0 && text.startsWith('/');
      await (isSlash ? this.slash(s, text) : this.ask(s, text, turn));
      await s.updates;
      return { stopReason: turn.cancelled ? 'cancelled' : 'end_turn' };
    } catch (e) {
      await s.updates;
      if (turn.freeText !== null) {
        throw new acp.RequestError(-32603, `the CLI asks a question with no choices, which a permission request cannot carry, so the turn was cancelled: ${turn.freeText}`);
      }
      if (turn.cancelled || (e instanceof TuiDriverError && e.kind === 'cancelled')) return { stopReason: 'cancelled' };
      throw toRequestError(e);
    } finally {
      s.turn = null;
    }
  }

  /** One ask: REPL output streams as the screen gives it; an agent's turn comes from its transcript. */
  async ask(s, text, turn) {
    let streamed = '';
    const stream = !this.info.transcript;
    const r = await s.session.askTurn(text, {
      signal: turn.abort.signal,
      onInput: (q) => this.permission(s, q, turn),
      ...(stream ? { onChunk: (d) => { streamed += d; this.say(s, d); } } : {}),
    });
    if (stream) {
      // A program that rewrote streamed rows (protocol.md: revised) keeps what was sent.
      if (r.text.startsWith(streamed)) this.say(s, r.text.slice(streamed.length));
      return;
    }
    if (r.turn && r.turn.sessionId !== s.id && this.cliIds.cliId(s.id) !== r.turn.sessionId) this.cliIds.remember(s.id, r.turn.sessionId);
    for (const tool of r.turn?.tools ?? []) {
      for (const u of toolCallUpdates(`tool-${++s.seq}`, tool)) this.update(s, u);
    }
    if (r.markdown === null) this.log(`no exact markdown for this turn, the screen's text is sent: ${r.transcriptError}`);
    this.say(s, r.markdown ?? r.text);
  }

  /**
   * A question inside the turn: a pending tool call showing it, then
   * session/request_permission; the chosen option's index is the answer, and the
   * call is `completed` when allowed, `failed` when rejected. (The tool itself
   * follows from the transcript once the turn is done; a rejected one may be missing
   * there, as Claude records no end for such a turn.)
   */
  async permission(s, q, turn) {
    if (q.options.length === 0) {
      turn.freeText = q.question;
      throw new Error('a free-text question');
    }
    const screen = await s.session.screen().then((sc) => questionContext(sc.lines, q.question), () => q.question);
    const toolCall = {
      toolCallId: `permission-${++s.seq}`,
      title: q.question.split('\n')[0],
      kind: 'other',
      status: 'pending',
      content: [{ type: 'content', content: { type: 'text', text: screen } }],
    };
    await this.update(s, { sessionUpdate: 'tool_call', ...toolCall });
    const options = permissionOptions(q.options);
    const res = await this.client.request(acp.methods.client.session.requestPermission, { sessionId: s.id, toolCall, options });
    const chosen = res.outcome.outcome === 'selected' ? options.find((o) => o.optionId === res.outcome.optionId) : undefined;
    const allowed = chosen?.kind.startsWith('allow') ?? false;
    this.update(s, { sessionUpdate: 'tool_call_update', toolCallId: toolCall.toolCallId, status: allowed ? 'completed' : 'failed' });
    if (res.outcome.outcome !== 'selected') {
      turn.cancelled = true;
      throw new Error('the client cancelled the permission request');
    }
    if (!chosen) throw new acp.RequestError(-32602, `no such option: ${res.outcome.optionId}`);
    return Number(chosen.optionId);
  }

  /**
   * A slash command typed as it is; what it prints is the answer: the rows below
   * its echo once the prompt is back, or the panel it opened (then closed with Escape).
   */
  async slash(s, text) {
    const ses = s.session;
    await untilReady(ses, 'before the command');
    const before = (await ses.screen()).lines;
    const line = text.split('\n')[0];
    await ses.keys([text]);
    // Enter only once the TUI shows what was typed (its command menu follows it).
    await ses.expect(escapeRegExp(line), { timeoutMs: 5000 }).catch(() => undefined);
    await sleep(150);
    await ses.keys(['Enter']);
    // Done when the prompt is back, or when a panel shows (not busy, something
    // below the echo): a command can be quiet a while before it prints (/mcp).
    const end = Date.now() + SLASH_TIMEOUT_MS;
    const r = this.info.reply;
    for (;;) {
      await ses.waitIdle({ idleMs: SLASH_IDLE_MS, timeoutMs: Math.max(end - Date.now(), 1) });
      const verdict = (await ses.status()).explain.verdict;
      if (verdict === 'ready') {
        this.say(s, slashOutput(line, await ses.scrollback(), { before, end: r.end, chrome: r.chrome }));
        return;
      }
      const panel = verdict === 'busy' ? '' : slashOutput(line, (await ses.screen()).lines, { before, panel: true });
      if (panel !== '' || Date.now() >= end) {
        this.say(s, panel);
        break;
      }
    }
    await ses.keys(['Escape']);
    await untilReady(ses, `after ${line}`);
  }

  cancel({ sessionId }) {
    const turn = this.sessions.get(sessionId)?.turn;
    if (!turn) return;
    turn.cancelled = true;
    turn.abort.abort();
  }

  /** Closes every session's daemon (the client left, or SIGTERM). */
  async closeAll() {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.session.close().catch(() => undefined)));
  }
}
