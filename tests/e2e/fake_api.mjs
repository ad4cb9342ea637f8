// A loopback fake of the four model APIs the agent CLIs talk to, so the
// end-to-end tests run the genuine CLIs offline with deterministic replies.
//
//   node tests/e2e/fake_api.mjs [--port N]   prints {"port":N} once listening
//
// One server answers all providers; each provider module (fake_anthropic.mjs,
// fake_openai.mjs for Responses, fake_chat_completions.mjs, fake_gemini.mjs)
// says which requests it owns. The test
// scripts what the model "says" through the control endpoints:
//
//   POST /_control/replies  {"replies":[Reply...]}  queue replies for turns
//   POST /_control/default  Reply                     reply when the queue is empty
//   GET  /_control/requests                           every request seen so far
//   GET  /_control/state                              turn counters (turns_abandoned: the
//                                                     CLI hung up mid-turn) and wall-clock
//                                                     times (ms since the epoch, fractional)
//   POST /_control/reset                              forget requests and queue
//
// Reply: {"text": "...",            what the model answers (streamed word by word)
//         "first_delay_ms": 0,      pause before the first token (busy is visible)
//         "word_delay_ms": 0,       pause between words
//         "tool_call": {"name": "Bash", "input": {...}},   ask to run a tool instead
//         "echo_say": true}         answer "said X" to a prompt whose last say 'X' names X
//                                   (sessions asking at once each get their own answer)
// The answer to a tool's result is the next queued reply ("Done." when none is).
// No dependencies beyond Node's standard library.
import http from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));

// Splits text into word-sized pieces whose concatenation is exactly `text`:
// each piece is a run of spaces/newlines followed by a word.
export function splitWords(text) {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

// Wall-clock milliseconds with sub-millisecond precision (Date.now() is whole
// milliseconds), comparable with time.time() * 1000 in the test's process.
export function wallMs() {
  return performance.timeOrigin + performance.now();
}

export function sleep(ms) {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

// The answer of an echo_say reply: "said X" for the last say 'X' in the
// turn's prompt, whatever wraps it.
function sayReply(reply, prompt) {
  const said = [...String(prompt).matchAll(/say '([^']*)'/g)].pop();
  const { echo_say: _, ...rest } = reply;
  return { ...rest, text: said ? `said ${said[1]}` : 'said nothing: no say \'X\' in the prompt' };
}

// State shared by the providers: the reply queue and the request log.
export class FakeApiState {
  constructor() { this.reset(); }
  reset() {
    this.queue = [];
    this.defaultReply = { text: 'OK' };
    this.requests = [];
    this.turnsStarted = 0;
    this.turnsFinished = 0;
    this.turnsAbandoned = 0;
    this.lastTurnStartedAt = 0;
    this.lastTurnFinishedAt = 0;
  }
  // Called by a provider when a request is a real conversation turn (not a
  // title, quota or routing side call). Returns the Reply to stream.
  beginTurn(prompt = '') {
    this.turnsStarted += 1;
    this.lastTurnStartedAt = wallMs();
    const reply = this.queue.length > 0 ? this.queue.shift() : this.defaultReply;
    return reply.echo_say ? sayReply(reply, prompt) : reply;
  }
  // The model's answer to a tool's result (not a turn of its own): the next
  // queued reply, else "Done.".
  afterTool() {
    return this.queue.length > 0 ? this.queue.shift() : { text: 'Done.' };
  }
  // Called by a provider after the last byte of a turn's stream was written.
  endTurn() {
    this.turnsFinished += 1;
    this.endStep();
  }
  // The same after the answer to a tool's result (not a turn of its own).
  endStep() {
    this.lastTurnFinishedAt = wallMs();
  }
  snapshot() {
    return {
      queued: this.queue.length,
      turns_started: this.turnsStarted,
      turns_finished: this.turnsFinished,
      turns_abandoned: this.turnsAbandoned,
      last_turn_started_at: this.lastTurnStartedAt,
      last_turn_finished_at: this.lastTurnFinishedAt,
    };
  }
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function parseJson(text) {
  try { return text ? JSON.parse(text) : {}; } catch { return undefined; }
}

function handleControl(state, method, pathname, body, res) {
  const value = parseJson(body);
  if (value === undefined) return sendJson(res, 400, { error: 'bad JSON' });
  if (method === 'POST' && pathname === '/_control/replies') {
    state.queue.push(...(value.replies ?? []));
    return sendJson(res, 200, { queued: state.queue.length });
  }
  if (method === 'POST' && pathname === '/_control/default') {
    state.defaultReply = value;
    return sendJson(res, 200, {});
  }
  if (method === 'GET' && pathname === '/_control/requests') return sendJson(res, 200, state.requests);
  if (method === 'GET' && pathname === '/_control/state') return sendJson(res, 200, state.snapshot());
  if (method === 'POST' && pathname === '/_control/reset') { state.reset(); return sendJson(res, 200, {}); }
  return sendJson(res, 404, { error: `no control endpoint ${method} ${pathname}` });
}

async function loadProviders() {
  const providers = [];
  for (const name of ['fake_anthropic.mjs', 'fake_openai.mjs', 'fake_chat_completions.mjs', 'fake_gemini.mjs']) {
    const file = path.join(here, name);
    if (existsSync(file)) providers.push((await import(pathToFileURL(file))).provider);
  }
  return providers;
}

// Starts the server; resolves with {server, port, state}.
export async function startFakeApi({ port = 0, log = false } = {}) {
  const state = new FakeApiState();
  const providers = await loadProviders();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const body = await readBody(req);
    if (url.pathname.startsWith('/_control/')) return handleControl(state, req.method, url.pathname, body, res);
    const provider = providers.find((p) => p.matches(req.method, url.pathname));
    const entry = { provider: provider?.name ?? null, method: req.method, path: url.pathname + url.search, body: parseJson(body) ?? body, at: wallMs() };
    res.on('finish', () => { entry.done_at = wallMs(); });
    // The CLI hung up before the turn's last byte: its cancel stopped the turn.
    res.on('close', () => { if (entry.turn && !res.writableFinished) state.turnsAbandoned += 1; });
    state.requests.push(entry);
    if (log) process.stderr.write(`fake_api: ${req.method} ${req.url}\n`);
    if (!provider) return sendJson(res, 404, { error: { message: `fake_api: nothing serves ${req.method} ${url.pathname}` } });
    try {
      await provider.handle({ req, res, url, body: entry.body, state, entry });
    } catch (e) {
      process.stderr.write(`fake_api: ${provider.name} failed: ${e.stack}\n`);
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(e) } });
      else res.end();
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port: server.address().port, state };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 0;
  // No top-level await: the provider modules import this one.
  startFakeApi({ port, log: process.argv.includes('--log') }).then(({ port: bound }) => {
    process.stdout.write(JSON.stringify({ port: bound }) + '\n');
  });
}
