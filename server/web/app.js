// The live page: a session's terminal (xterm.js over the WebSocket, keyboard back to
// the program) beside a chat pane for engine sessions (ask, streamed answer, the exact
// markdown when the daemon has it, questions as buttons). The page's cookie carries
// the token, for fetch and the WebSocket alike.
'use strict';

const $ = (id) => document.getElementById(id);
const state = {
  ws: null,
  /** The instance the socket reaches (?instance=), the one holding the shown session. */
  wsInstance: null,
  sessionId: null,
  channel: null,
  engine: null,
  /** ask_id -> the answer's element */
  answers: new Map(),
  retry: 0,
};

// allowProposedApi: the Unicode 11 widths are a proposed API. With them an emoji takes
// two cells here as in the daemon and tmux, so a typed line wraps where theirs does.
const term = new Terminal({ cursorBlink: true, fontSize: 14, lineHeight: 1.15, scrollback: 10000, convertEol: false, allowProposedApi: true });
const fit = new FitAddon.FitAddon();
term.loadAddon(fit);
term.loadAddon(new Unicode11Addon.Unicode11Addon());
term.unicode.activeVersion = '11';
term.open($('terminal'));
window.tuidriverTerm = term; // for tests and the curious
window.tuidriverState = state;

function status(text) {
  $('state').textContent = text;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(json.error || `${method} ${path}: ${res.status}`);
  return json;
}

/** The list as last drawn: redrawn only when it changed, so a person's choice stays. */
let listed = '';

/** The instance a session id names (`NAME.hex`), or null (ids from before instances). */
function instanceOf(id) {
  const dot = id ? id.indexOf('.') : -1;
  return dot > 0 ? id.slice(0, dot) : null;
}

/**
 * The sessions of every instance. Behind a router (docs/scaling.md) /instances names
 * them all and each list is asked of its own instance; a lone server names itself.
 * An instance that does not answer lists nothing.
 */
async function listSessions() {
  const { instances } = await api('GET', '/instances');
  const lists = await Promise.all(instances.map((i) => api('GET', `/sessions?instance=${encodeURIComponent(i)}`).then((r) => r.sessions, () => [])));
  return lists.flat();
}

async function refreshSessions(select) {
  const sessions = await listSessions();
  const key = JSON.stringify(sessions.map((s) => [s.session_id, s.exited]));
  if (select === undefined && key === listed && (state.sessionId || sessions.length === 0)) return;
  listed = key;
  const sel = $('sessions');
  sel.textContent = '';
  for (const s of sessions) {
    const o = document.createElement('option');
    o.value = s.session_id;
    o.textContent = `${s.engine || s.command.join(' ')} · ${s.session_id}${s.exited ? ' (exited)' : ''}`;
    sel.append(o);
  }
  const open = (id) => id && sessions.some((s) => s.session_id === id);
  const want = [select, state.sessionId, sessions[0] && sessions[0].session_id].find(open);
  if (want) {
    sel.value = want;
    if (want !== state.sessionId) attach(want, sessions.find((s) => s.session_id === want).engine);
  } else if (!want) {
    status('no sessions: start one');
  }
}

// --- the WebSocket ---

/** A socket to the instance holding the shown session: a router sends it there by ?instance. */
function connect() {
  const inst = instanceOf(state.sessionId);
  const query = inst ? `?instance=${encodeURIComponent(inst)}` : '';
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${query}`);
  ws.binaryType = 'arraybuffer';
  state.ws = ws;
  state.wsInstance = inst;
  ws.onopen = () => {
    state.retry = 0;
    if (state.sessionId) sendJson({ type: 'attach', session_id: state.sessionId });
  };
  ws.onmessage = (ev) => {
    if (typeof ev.data === 'string') onControl(JSON.parse(ev.data));
    else onData(new Uint8Array(ev.data));
  };
  ws.onclose = () => {
    state.channel = null;
    status('disconnected: reconnecting…');
    // Reconnect; attaching again replays the scrollback and screen.
    setTimeout(connect, Math.min(5000, 250 * 2 ** state.retry++));
  };
}

function sendJson(msg) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(msg));
}

const encoder = new TextEncoder();
function sendInput(text) {
  if (state.channel === null || state.ws.readyState !== WebSocket.OPEN) return;
  const bytes = encoder.encode(text);
  const frame = new Uint8Array(bytes.length + 1);
  frame[0] = state.channel;
  frame.set(bytes, 1);
  state.ws.send(frame);
}

function onData(frame) {
  if (frame[0] === state.channel) term.write(frame.subarray(1));
}

function onControl(m) {
  if (m.session_id && m.session_id !== state.sessionId) return;
  switch (m.type) {
    case 'attached':
      state.channel = m.channel;
      term.reset();
      // The view takes the session's size: only the Fit button changes the session's.
      if (m.cols && m.rows) term.resize(m.cols, m.rows);
      break;
    case 'resize':
      term.resize(m.cols, m.rows);
      break;
    case 'live':
      status(`${state.engine || 'command'} · live`);
      document.body.dataset.live = m.session_id;
      break;
    case 'exit':
      status(`exited (${m.signal || `code ${m.exit_code}`})`);
      break;
    case 'closed':
    case 'detached':
      if (m.type === 'closed') refreshSessions().catch(showError);
      break;
    case 'ask':
      addMessage('user', m.prompt);
      break;
    case 'chunk':
      answerFor(m.ask_id).textContent += m.delta;
      scrollChat();
      break;
    case 'reply':
      finishAnswer(m);
      break;
    case 'needs_input':
      showQuestion(m);
      break;
    case 'error':
      showError(new Error(m.error));
      break;
    default:
      break;
  }
}

function attach(sessionId, engine) {
  if (state.sessionId && state.channel !== null) sendJson({ type: 'detach', session_id: state.sessionId });
  state.sessionId = sessionId;
  state.engine = engine;
  state.channel = null;
  state.answers.clear();
  $('messages').textContent = '';
  $('chat-pane').hidden = !engine;
  status('attaching…');
  if (instanceOf(sessionId) === state.wsInstance) {
    sendJson({ type: 'attach', session_id: sessionId });
    return;
  }
  // Another instance holds it: a socket to that one, which attaches once open.
  if (state.ws) {
    state.ws.onclose = null;
    state.ws.onmessage = null; // nothing of the old session reaches the new one's terminal
    state.ws.close();
  }
  connect();
}

/** The Fit button: the session takes this window's size (an agent's terminal changes too). */
function sendResize() {
  if (!state.sessionId) return;
  fit.fit();
  sendJson({ type: 'resize', session_id: state.sessionId, cols: term.cols, rows: term.rows });
}

// --- the chat pane ---

function addMessage(kind, text) {
  const div = document.createElement('div');
  div.className = `msg ${kind}`;
  div.textContent = text;
  $('messages').append(div);
  scrollChat();
  return div;
}

function scrollChat() {
  const m = $('messages');
  m.scrollTop = m.scrollHeight;
}

function answerFor(askId) {
  let el = state.answers.get(askId);
  if (!el) {
    el = addMessage('answer', '');
    el.dataset.askId = askId;
    state.answers.set(askId, el);
  }
  return el;
}

function finishAnswer(m) {
  const el = answerFor(m.ask_id);
  document.querySelectorAll(`.question[data-ask-id="${m.ask_id}"] button`).forEach((b) => { b.disabled = true; });
  if (!m.ok) {
    el.className = 'msg error';
    el.textContent = m.error;
  } else if (typeof m.markdown === 'string') {
    // The model's own markdown, rendered; raw HTML in it is sanitised away.
    el.classList.add('markdown');
    el.innerHTML = DOMPurify.sanitize(marked.parse(m.markdown));
  } else {
    el.textContent = m.text;
  }
  el.dataset.done = 'true';
  scrollChat();
}

function showQuestion(m) {
  const div = addMessage('question', m.question);
  div.dataset.askId = m.ask_id;
  const answer = (choice) => {
    sendJson({ type: 'answer', session_id: state.sessionId, ask_id: m.ask_id, ...(typeof choice === 'number' ? { option: choice } : { text: choice }) });
    div.querySelectorAll('button, input').forEach((b) => { b.disabled = true; });
  };
  const row = document.createElement('div');
  if (m.options.length > 0) {
    for (const o of m.options) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `${o.index}. ${o.label}`;
      b.onclick = () => answer(o.index);
      row.append(b);
    }
  } else {
    const input = document.createElement('input');
    input.setAttribute('aria-label', 'answer');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = 'Answer';
    b.onclick = () => answer(input.value);
    row.append(input, b);
  }
  div.append(row);
  scrollChat();
}

function showError(e) {
  addMessage('error', e.message);
  status(e.message);
}

// --- wiring ---

term.onData(sendInput);
$('fit').onclick = () => sendResize();
$('sessions').onchange = (e) => refreshSessions(e.target.value).catch(showError);
$('start').onsubmit = async (e) => {
  e.preventDefault();
  const spec = $('spec').value.trim();
  if (!spec) return;
  const words = spec.split(/\s+/);
  const engines = ['python', 'bash', 'node', 'claude', 'codex', 'gemini', 'opencode', 'kilo', 'copilot', 'pi', 'cline', 'qwen'];
  const body = words.length === 1 && engines.includes(words[0]) ? { engine: words[0] } : { command: words };
  try {
    fit.fit();
    const s = await api('POST', '/sessions', { ...body, cols: term.cols, rows: term.rows });
    $('spec').value = '';
    await refreshSessions(s.session_id);
  } catch (err) {
    showError(err);
  }
};
$('terminate').onclick = async () => {
  if (!state.sessionId) return;
  const id = state.sessionId;
  state.sessionId = null;
  try {
    await api('DELETE', `/sessions/${id}`);
  } catch (err) {
    showError(err);
  }
  term.reset();
  await refreshSessions().catch(showError);
};
$('ask').onsubmit = (e) => {
  e.preventDefault();
  const prompt = $('prompt').value;
  if (!prompt.trim() || !state.sessionId) return;
  sendJson({ type: 'ask', session_id: state.sessionId, prompt });
  $('prompt').value = '';
};
$('prompt').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    $('ask').requestSubmit();
  }
});

connect();
refreshSessions().catch(showError);
// Sessions an agent starts over /mcp (tuidriver-serve --mcp) show up on their own.
setInterval(() => refreshSessions().catch(() => undefined), 1500);
