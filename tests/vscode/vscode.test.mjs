// The example extension in a real VS Code: its linux-x64 .vsix installed into code-server
// (VS Code's workbench and extension host), the workbench in Debian's chromium driven by
// playwright-core. What a person does: run the command and read its answer, type in the
// panel, leave a line half-typed and ask, exit Python, and nothing of it stays running.
// run.sh builds the .vsix and passes VSIX and NODE24. A failure leaves a screenshot in
// tests/vscode/test-artifacts/.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';

const HERE = import.meta.dirname;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CODE_SERVER = path.join(HERE, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const ARTIFACTS = path.join(HERE, 'test-artifacts');
const { VSIX, NODE24 } = process.env;
// Every process code-server starts inherits this variable: how the test finds the daemons
// and Pythons of this run, also those that a dead parent left to init.
const MARK = `TUIDRIVER_VSCODE_TEST=${randomBytes(6).toString('hex')}`;
// A person's wait for an answer: under the ask's own 30 s limit (extension.js).
const ANSWER_MS = 20_000;

test('the example extension in code-server: answers, the panel, a half-typed line, exits, no process left', { timeout: 600_000 }, async (t) => {
  assert.ok(VSIX && fs.existsSync(VSIX), 'VSIX: the .vsix to install (run.sh builds it)');
  assert.ok(NODE24 && fs.existsSync(NODE24), 'NODE24: node 24 for code-server (run.sh)');
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: scripts/deps.sh --server`);
  const server = await startCodeServer(t);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);  // the workbench's own steps, on a loaded machine
  // Each step a subtest; a failed one leaves a screenshot named after it.
  const step = (name, fn) => t.test(name, async () => {
    try {
      await fn();
    } catch (e) {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, `${name.replace(/[^\w]+/g, '-')}.png`) }).catch(() => undefined);
      throw e;
    }
  });
  await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  await page.locator('.statusbar').waitFor();

  await step('the command shows Python in a panel and its answer in a notification', async () => {
    await askPython(page, '6*7');
    await toast(page, 'python: 42');
    const rows = await terminalRows(page, /6\*7/);
    assert.ok(rows.some((r) => r === '42'), `the panel shows the answer:\n${rows.join('\n')}`);
    assert.equal(ours('tuidriver').length, 1, 'one daemon');
  });

  // The prompt token is the repl-prompt branch's (issue 42, 1.3).
  await step("the panel shows Python's own prompt, >>> ", async () => {
    const rows = await terminalRows(page, /./);
    assert.ok(rows.some((r) => r.startsWith('>>> ')), `no '>>> ' prompt in the panel:\n${rows.join('\n')}`);
    assert.ok(!rows.some((r) => /td-[0-9a-f]+/.test(r)), `the panel shows tuidriver's prompt token:\n${rows.join('\n')}`);
  });

  await step('typing in the panel reaches Python', async () => {
    await typeInTerminal(page, 'print("typed", 6*7+1)\n');
    await terminalRows(page, /^typed 43$/m);
  });

  // Issue 42, 1.4: the daemon's COLORTERM, and the example's extraEnv.
  await step('Python gets COLORTERM=truecolor and TERM_PROGRAM=vscode, as in VS Code\'s own terminals', async () => {
    await typeInTerminal(page, 'import os; print("colorterm=%s program=%s" % (os.environ.get("COLORTERM"), os.environ.get("TERM_PROGRAM")))\n');
    const rows = await terminalRows(page, /^colorterm=/m);
    assert.ok(rows.includes('colorterm=truecolor program=vscode'), rows.join('\n'));
  });

  await step('multi-line answers and tracebacks go whole to the Output panel', async () => {
    await askPython(page, 'for i in range(3): print(i * 11)');
    let lines = await outputLines(page, '22');
    assert.deepEqual(lines.slice(-4), ['>>> for i in range(3): print(i * 11)', '0', '11', '22']);
    await askPython(page, '1/0');
    lines = await outputLines(page, 'ZeroDivisionError: division by zero');
    assert.equal(lines.at(-1), 'ZeroDivisionError: division by zero');
    assert.ok(lines.includes('Traceback (most recent call last):'), lines.join('\n'));
  });

  await step('a question: the person is told to answer in the panel, and does', async () => {
    await askPython(page, 'name = input("your name? ")');
    await toast(page, 'answer it in the terminal panel');
    await typeInTerminal(page, 'bob\n');
    await askPython(page, 'name');
    await toast(page, "python: 'bob'");
  });

  // A half-typed line does not hold the ask (issue 42, 1.1): it fails at once with
  // unfinished_input, and the example tells the person to finish or clear the line.
  for (const [n, what, typed] of [[1, 'a half-typed line', 'abc'], [2, 'a half-typed block', 'for i in range(2):']]) {
    await step(`${what} in the panel does not hold the ask for its timeout`, async () => {
      await clearNotifications(page);
      await typeInTerminal(page, '', ['Control+c']);  // a clean prompt: what an earlier step left is gone
      await terminalRows(page, /KeyboardInterrupt\s*\n\S*>>>\s*$/);
      await typeInTerminal(page, typed);
      const t0 = Date.now();
      try {
        await askPython(page, '6*7+10');
        const shown = page.locator('.notifications-toasts .notification-list-item-message')
          .filter({ hasText: /python: 52|tuidriver \(|not finished/ }).last();
        await shown.waitFor({ timeout: ANSWER_MS });
        const text = await shown.innerText();
        assert.ok(Date.now() - t0 < ANSWER_MS, `${Date.now() - t0} ms`);
        assert.match(text, /holds a line you have not finished: press Enter or Ctrl\+C there/, text);
      } finally {
        // Whatever is left of it, the person clears it with C-c (also when the step failed).
        await typeInTerminal(page, '', ['Control+c']);
        await clearNotifications(page);
      }
      await typeInTerminal(page, `print("after", ${n})\n`);
      await terminalRows(page, new RegExp(`^after ${n}$`, 'm'));
    });
  }

  await step('exit() in the panel, three times, and os._exit(3): no daemon, no Python stays', async () => {
    const rounds = ['exit()', 'exit()', 'exit()', 'import os; os._exit(3)'];
    await typeInTerminal(page, '', ['Control+c']);  // an empty line to type on
    for (const [i, line] of rounds.entries()) {
      if (i > 0) {  // the first round's session is the one from above
        await askPython(page, `6*7+${20 + i}`);
        await toast(page, `python: ${62 + i}`);
      }
      assert.equal(ours('tuidriver').length, 1, `round ${i}: one daemon while Python runs`);
      await typeInTerminal(page, `${line}\n`);
      await until(() => ours('tuidriver', 'python3').length === 0, () => `round ${i} (${line}): still running ${JSON.stringify(ours('tuidriver', 'python3'))}`);
    }
    // The command still works after all that.
    await askPython(page, '6*7+30');
    await toast(page, 'python: 72');
    assert.equal(ours('tuidriver').length, 1);
  });

  await step('code-server ends: nothing of the extension stays running', async () => {
    await browser.close();
    await server.stop();
    await until(() => ours().length === 0, () => `still running: ${JSON.stringify(ours())}`);
  });
});

/** code-server on a free loopback port with --auth none, the .vsix installed, a fresh profile. */
async function startCodeServer(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-vscode-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const [data, extensions, workspace] = ['data', 'extensions', 'workspace'].map((d) => path.join(dir, d));
  fs.mkdirSync(path.join(data, 'User'), { recursive: true });
  fs.mkdirSync(workspace);
  // The DOM renderer, so that the panel's rows are text the test can read; no welcome
  // page, no trust prompt, no chat: a person's first window, minus what would cover it.
  fs.writeFileSync(path.join(data, 'User', 'settings.json'), JSON.stringify({
    'terminal.integrated.gpuAcceleration': 'off',
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
  }));
  const [markName, markValue] = MARK.split('=');
  const env = { ...process.env, [markName]: markValue };
  const common = ['--user-data-dir', data, '--extensions-dir', extensions];
  execFileSync(NODE24, [CODE_SERVER, ...common, '--install-extension', VSIX], { env, stdio: 'pipe' });
  assert.ok(fs.readdirSync(extensions).some((e) => e.startsWith('tuidriver.tuidriver-example-')), 'the .vsix installed');
  const port = await freePort();
  const child = spawn(NODE24, [CODE_SERVER, ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--ignore-last-opened', workspace], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');  // code-server ends its extension host, which ends the extension's sessions
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  t.after(stop);
  await until(() => /HTTP server listening/.test(log) || child.exitCode !== null, () => `code-server did not start:\n${log}`, 60_000);
  assert.equal(child.exitCode, null, `code-server exited:\n${log}`);
  return { url: `http://127.0.0.1:${port}`, workspace, stop };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Runs a command by its title through the command palette, as a person does. Until the
 * extension host has read the extension, its command is not listed: the person tries again.
 */
async function runCommand(page, title) {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const within = (p) => p.then(() => true, () => false);
  await until(async () => {
    await page.keyboard.press('F1');
    if (await within(input.fill(`>${title}`, { timeout: 5_000 })) && await within(row.waitFor({ timeout: 5_000 }))) return true;
    // Focus went with a closed panel (F1 then reaches no one): a click gives it back.
    await page.keyboard.press('Escape');
    await page.locator('.part.editor').click({ position: { x: 20, y: 20 } });
    return false;
  }, `the command palette does not list '${title}'`, 120_000);
  await page.keyboard.press('Enter');
}

/** The example's command: "tuidriver: Ask Python", then the expression in its input box. */
async function askPython(page, expression) {
  await runCommand(page, 'tuidriver: Ask Python');
  // Shown once Python has started (the first time, once the extension host has also activated it).
  await page.locator('.quick-input-widget', { hasText: 'A Python expression' }).waitFor({ timeout: 120_000 });
  await page.locator('.quick-input-widget input').fill(expression);
  await page.keyboard.press('Enter');
}

/** Waits for a notification holding `text`. */
async function toast(page, text) {
  const n = page.locator('.notifications-toasts .notification-list-item-message', { hasText: text }).last();
  await n.waitFor({ timeout: ANSWER_MS });
  await clearNotifications(page);
}

async function clearNotifications(page) {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-list-item').first().waitFor({ state: 'detached' }).catch(() => undefined);
}

/** Focuses the terminal panel and types `text` (`\n` is Enter), then presses `keys`. */
async function typeInTerminal(page, text, keys = []) {
  await runCommand(page, 'Terminal: Focus Terminal');
  await page.locator('.terminal-wrapper.active .xterm.focus').waitFor();
  for (const part of text.split(/(\n)/)) {
    if (part === '\n') await page.keyboard.press('Enter');
    else if (part) await page.keyboard.type(part, { delay: 10 });
  }
  for (const k of keys) await page.keyboard.press(k);
}

/** The panel's rows as the person sees them, once they match `pattern`. */
async function terminalRows(page, pattern) {
  const rows = page.locator('.terminal-wrapper.active .xterm-rows');
  let seen = [];
  await until(async () => {
    const text = await rows.innerText().catch(() => '');
    seen = text.replace(/\u00a0/g, ' ').split('\n').map((r) => r.trimEnd());
    return pattern.test(seen.join('\n'));
  }, () => `the panel never matched ${pattern}:\n${seen.join('\n')}`, ANSWER_MS);
  return seen;
}

/** The Output panel's lines, once one of them is `last`. */
async function outputLines(page, last) {
  const view = page.locator('.part.panel .monaco-editor .view-lines');
  let seen = [];
  await until(async () => {
    const lines = await view.locator('.view-line').allInnerTexts().catch(() => []);
    seen = lines.map((l) => l.replace(/\u00a0/g, ' ').trimEnd()).filter((l) => l !== '');
    return seen.includes(last);
  }, () => `the Output panel never showed ${JSON.stringify(last)}:\n${seen.join('\n')}`, ANSWER_MS);
  return seen;
}

/** This run's live processes (by MARK in their environment), of the given names or all. */
function ours(...names) {
  const found = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(MARK)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (stat[stat.lastIndexOf(')') + 2] === 'Z') continue;
      if (names.length === 0 || names.includes(comm)) found.push({ pid: Number(pid), comm });
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

async function until(cond, why, ms = ANSWER_MS) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(typeof why === 'function' ? why() : why);
    await new Promise((r) => setTimeout(r, 100));
  }
}
