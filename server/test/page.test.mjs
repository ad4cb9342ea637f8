// The live page in a real headless Chromium (Debian's chromium, driven by playwright-core)
// on a phone-sized viewport: a bash terminal typed into, a python chat answered.
// Leaves a screenshot in server/test-artifacts/.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { SERVER_DIR } from './helpers.mjs';
import { TOKEN, startTestServer, termLines } from './serve_helpers.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(SERVER_DIR, 'test-artifacts');

async function until(fn, what) {
  for (let i = 0; ; i++) {
    const v = await fn();
    if (v) return v;
    if (i > 600) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('the page in Chromium on a phone: bash typed into, python asked in the chat, a screenshot', { timeout: 120_000 }, async (t) => {
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (scripts/deps.sh --server), or set CHROMIUM_PATH`);
  const server = await startTestServer(t);
  const { url, api } = server;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const foreign = [];
  const errors = [];
  page.on('request', (r) => { if (!r.url().startsWith(url)) foreign.push(r.url()); });
  // No favicon 404 (one was logged on every load).
  const missing = [];
  page.on('response', (r) => { if (r.status() >= 400 && /favicon/.test(r.url())) missing.push(`${r.status()} ${r.url()}`); });
  page.on('pageerror', (e) => errors.push(e.message));

  const res = await page.goto(`${url}/?token=${TOKEN}`);
  assert.equal(res.status(), 200);
  assert.equal(new URL(page.url()).search, '', 'the token left the address bar');
  // The icon is served under both names a browser asks for: no 404 in the server's log.
  assert.deepEqual(await page.evaluate(async () => Promise.all(['/favicon.ico', '/favicon.svg'].map(async (u) => (await fetch(u)).status))), [200, 200]);

  // A bash session, typed into through the terminal.
  await page.fill('#spec', 'bash');
  await page.click('#start button');
  await page.waitForSelector('body[data-live]');
  const bashId = await page.getAttribute('body', 'data-live');
  await until(async () => (await termLines(page)).some((l) => /[$#] ?$/.test(l)), 'the bash prompt');
  await page.click('#terminal .xterm-screen');
  await page.keyboard.type('echo hi');
  await page.keyboard.press('Enter');
  await until(async () => (await termLines(page)).includes('hi'), '"hi" in the terminal');
  const scr = (await api('GET', `/sessions/${bashId}/screen`)).json;
  assert.ok(scr.lines.includes('hi'), 'the program got the keystrokes');

  // The socket drops: the page reconnects, the replay redraws the terminal (once), and
  // typing goes on.
  await page.evaluate(() => window.tuidriverState.ws.close());
  await page.waitForFunction(() => document.getElementById('state').textContent.startsWith('disconnected'));
  await page.waitForFunction(() => document.getElementById('state').textContent.endsWith('live'));
  await page.click('#terminal .xterm-screen');
  await page.keyboard.type('echo again');
  await page.keyboard.press('Enter');
  await until(async () => (await termLines(page)).includes('again'), '"again" after the reconnect');
  const lines = await termLines(page);
  assert.equal(lines.filter((l) => l === 'hi').length, 1, 'the replay drew the earlier output once');

  // A python session: the chat pane asks, the streamed answer ends as 42.
  await page.fill('#spec', 'python');
  await page.click('#start button');
  await page.waitForSelector('#chat-pane:not([hidden])');
  await until(async () => (await page.getAttribute('body', 'data-live')) !== bashId, 'the python session to be live');
  await page.fill('#prompt', '6*7');
  await page.press('#prompt', 'Enter');
  const answer = await page.waitForSelector('.msg.answer[data-done="true"]');
  assert.equal(await answer.textContent(), '42');
  assert.equal(await page.textContent('.msg.user'), '6*7');
  await until(async () => (await termLines(page)).includes('42'), 'the ask shown in the terminal too');

  // A question inside the turn: shown in the chat, answered there.
  await page.fill('#prompt', 'input("Your name? ").upper()');
  await page.press('#prompt', 'Enter');
  const q = await page.waitForSelector('.msg.question');
  assert.match(await q.textContent(), /Your name\?/);
  await page.fill('.msg.question input', 'ada');
  await page.click('.msg.question button');
  const second = await page.waitForSelector('.msg.answer[data-done="true"] >> nth=1');
  assert.match(await second.textContent(), /'ADA'$/);

  // An agent's turn, as the server publishes it (python has no transcript and no choices,
  // so these two events are made here, at the session, for the page to render): the exact
  // markdown, rendered and sanitised; a question with choices, as buttons whose answer
  // reaches the session.
  const { mgr } = server;
  const pyId = await page.getAttribute('body', 'data-live');
  const entry = mgr.get(pyId);
  entry.publish({ type: 'ask', ask_id: 99, prompt: 'plan it' });
  entry.publish({ type: 'chunk', ask_id: 99, delta: 'Plan' });
  entry.publish({ type: 'reply', ok: true, ask_id: 99, text: 'Plan\nUse bold.', markdown: '## Plan\nUse **bold** and `code`.\n\n<img src=x onerror="window.pwned=1">' });
  const md = await page.waitForSelector('.msg.answer.markdown');
  assert.equal(await md.$eval('h2', (e) => e.textContent), 'Plan');
  assert.equal(await md.$eval('strong', (e) => e.textContent), 'bold');
  assert.equal(await md.$eval('code', (e) => e.textContent), 'code');
  assert.equal(await md.$$eval('[onerror]', (els) => els.length), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  const chosen = new Promise((resolve, reject) => {
    entry.questions.set(100, { resolve, reject, question: 'Proceed?', options: [{ index: 1, label: 'Yes' }, { index: 2, label: 'No' }] });
  });
  entry.publish({ type: 'needs_input', ask_id: 100, question: 'Proceed?', options: [{ index: 1, label: 'Yes' }, { index: 2, label: 'No' }] });
  await page.click('.msg.question[data-ask-id="100"] button:has-text("2. No")');
  assert.equal(await chosen, 2);

  // Phone-sized: the panes stack, nothing wider than the screen.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width}px wide on a 390px screen`);
  const term = await page.locator('#term-pane').boundingBox();
  const chat = await page.locator('#chat-pane').boundingBox();
  assert.ok(chat.y >= term.y + term.height - 1, 'the chat is below the terminal');

  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'page-phone.png') });

  // On a desktop the chat sits beside the terminal.
  await page.setViewportSize({ width: 1280, height: 800 });
  await until(async () => {
    const [tb, cb] = [await page.locator('#term-pane').boundingBox(), await page.locator('#chat-pane').boundingBox()];
    return cb.x >= tb.x + tb.width - 1 && Math.abs(cb.y - tb.y) < 2;
  }, 'the chat beside the terminal');
  await page.screenshot({ path: path.join(ARTIFACTS, 'page-desktop.png') });
  assert.deepEqual(foreign, [], 'the page loads nothing from elsewhere');
  assert.deepEqual(missing, [], 'no 404');
  assert.deepEqual(errors, []);
});

test('the page shows the sessions an agent opened over /mcp, live, and a person types into them; emoji are two cells', { timeout: 120_000 }, async (t) => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const server = await startTestServer(t, { mcp: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('state').textContent.includes('no sessions'));

  // The agent, over MCP on the same server and token.
  const agent = new Client({ name: 'agent', version: '1' });
  await agent.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  t.after(() => agent.close());
  const started = await agent.callTool({ name: 'session_start', arguments: { command: ['bash', '--norc', '--noprofile'], cols: 40, rows: 12 } });
  const id = started.structuredContent.session_id;
  const ran = await agent.callTool({ name: 'run', arguments: { session_id: id, line: 'echo agent-was-here' } });
  assert.equal(ran.structuredContent.output, 'agent-was-here');

  // Listed and shown without a reload.
  await page.waitForFunction((sid) => document.body.dataset.live === sid, id, { timeout: 20_000 });
  await until(async () => (await termLines(page)).includes('agent-was-here'), 'the agent\'s output on the page');
  // Viewing does not resize the agent's terminal: the page takes the session's size.
  const size = async () => {
    const st = (await agent.callTool({ name: 'status', arguments: { session_id: id } })).structuredContent;
    return [st.cols, st.rows];
  };
  assert.deepEqual(await size(), [40, 12]);
  assert.deepEqual(await page.evaluate(() => [window.tuidriverTerm.cols, window.tuidriverTerm.rows]), [40, 12]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(await size(), [40, 12], 'a window resize leaves the session alone');
  // The agent resizes: the page follows.
  await agent.callTool({ name: 'resize', arguments: { session_id: id, cols: 50, rows: 14 } });
  await until(async () => JSON.stringify(await page.evaluate(() => [window.tuidriverTerm.cols, window.tuidriverTerm.rows])) === '[50,14]', 'the page to follow');
  // Fit, a person's explicit action, resizes the session to the window.
  await page.click('#fit');
  await until(async () => (await size())[0] > 50, 'Fit to resize the session');
  await agent.callTool({ name: 'resize', arguments: { session_id: id, cols: 40, rows: 12 } });
  await page.setViewportSize({ width: 390, height: 844 });
  await until(async () => JSON.stringify(await page.evaluate(() => [window.tuidriverTerm.cols, window.tuidriverTerm.rows])) === '[40,12]', 'the page back at 40x12');

  // The person types; the agent reads it.
  await page.click('#terminal .xterm-screen');
  await page.keyboard.type('echo person-typed');
  await page.keyboard.press('Enter');
  await until(async () => (await termLines(page)).includes('person-typed'), 'the typed line').catch(async (e) => {
    throw new Error(`${e.message}; page: ${JSON.stringify(await termLines(page))}`);
  });
  const read = await agent.callTool({ name: 'read', arguments: { session_id: id } });
  assert.match(read.structuredContent.output, /^person-typed$/m);

  // Wide characters: the page gives an emoji two cells, as the daemon does (25 of them
  // and an x: the row breaks after 20 at 40 columns).
  await agent.callTool({ name: 'run', arguments: { session_id: id, line: `echo "${'😀'.repeat(25)}x"` } });
  const daemon = (await agent.callTool({ name: 'screen', arguments: { session_id: id } })).structuredContent.lines;
  await until(async () => (await termLines(page)).some((l) => l.endsWith('x') && l.startsWith('😀')), 'the emoji row');
  const widths = await page.evaluate(() => {
    const b = window.tuidriverTerm.buffer.active;
    for (let i = 0; i < b.length; i++) {
      const line = b.getLine(i);
      if (line.translateToString(true).startsWith('😀') && !line.isWrapped) return [line.getCell(0).getWidth(), line.translateToString(true)];
    }
    return null;
  });
  assert.equal(widths[0], 2);
  // The rows break where the daemon's do (the page sized the terminal; both wrap alike).
  const emojiRows = daemon.filter((l) => l.includes('😀'));
  assert.ok(emojiRows.length >= 2, JSON.stringify(daemon));
  await until(async () => {
    // (xterm.js keeps the cell a wide character did not fit in as a space; the daemon trims it)
    const rows = (await termLines(page)).map((l) => l.trimEnd());
    return emojiRows.every((r) => rows.includes(r));
  }, `the page's rows to be the daemon's: ${JSON.stringify(emojiRows)}`).catch(async (e) => {
    throw new Error(`${e.message}; page: ${JSON.stringify((await termLines(page)).filter((l) => l.includes('😀')))}`);
  });

  // An ask the agent made before the page showed its session is in the chat pane.
  const py = (await agent.callTool({ name: 'session_start', arguments: { engine: 'python' } })).structuredContent.session_id;
  assert.equal((await agent.callTool({ name: 'ask', arguments: { session_id: py, prompt: '6*7' } })).structuredContent.text, '42');
  await until(async () => (await page.locator('#sessions option').count()) === 2, 'the python session listed');
  await page.selectOption('#sessions', py);
  await page.waitForFunction((sid) => document.body.dataset.live === sid, py, { timeout: 20_000 });
  await until(async () => (await page.locator('.msg.user').allTextContents()).includes('6*7') && (await page.locator('.msg.answer').allTextContents()).includes('42'), 'the earlier ask in the chat pane');
  await agent.callTool({ name: 'terminate', arguments: { session_id: py } });

  // Ended by the agent: gone from the page.
  await agent.callTool({ name: 'terminate', arguments: { session_id: id } });
  await page.waitForFunction(() => document.getElementById('sessions').options.length === 0, null, { timeout: 20_000 });
  assert.deepEqual(errors, []);
});
