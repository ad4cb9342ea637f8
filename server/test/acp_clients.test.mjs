// tuidriver-acp under a client nobody here wrote (acpx, npm), and on Codex and
// Gemini CLI (tests/e2e's pinned CLIs on the loopback fake API).
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { SERVER_DIR } from './helpers.mjs';
import { BIN_ACP, agentHome, answer, fakeApi, startAgent, tempDir } from './acp_helpers.mjs';

const ACPX = path.join(SERVER_DIR, 'node_modules', '.bin', 'acpx');

/** `acpx --agent "tuidriver-acp ENGINE" --approve-all --format text exec PROMPT` in `cwd`. */
function acpx(engine, prompt, { env, cwd }) {
  const agent = `${process.execPath} ${BIN_ACP} ${engine}`;
  return promisify(execFile)(ACPX, ['--agent', agent, '--approve-all', '--format', 'text', '--cwd', cwd, 'exec', prompt], { env, cwd, timeout: 120_000 });
}

test('acpx drives a turn on python', async (t) => {
  const dir = tempDir(t, 'tuidriver-acp-acpx-');
  const { stdout } = await acpx('python', 'print(6*7, "done")', { env: { ...process.env, HOME: dir }, cwd: dir });
  assert.match(stdout, /^42 done$/m);
  assert.match(stdout, /end_turn/);
});

test('acpx drives a turn on claude, a tool call approved', async (t) => {
  const api = await fakeApi(t);
  const h = agentHome(t, 'claude', api.port);
  await api.script({ tool_call: { name: 'Bash', input: { command: 'echo tool said hi', description: 'Say hi' } } });
  const { stdout } = await acpx('claude', 'say hi with a tool', { env: h.env, cwd: h.cwd });
  assert.match(stdout, /Bash: Say hi/);
  assert.match(stdout, /tool said hi/);
  assert.match(stdout, /^Done\.$/m);
  assert.match(stdout, /end_turn/);
});

for (const cli of ['codex', 'gemini']) {
  test(`${cli}: a turn's exact markdown, a tool call, a slash command`, async (t) => {
    const api = await fakeApi(t);
    const h = agentHome(t, cli, api.port);
    const a = startAgent(t, cli, { env: h.env });
    const init = await a.init();
    assert.equal(init.agentCapabilities.loadSession, true);
    const sid = await a.newSession(h.cwd);
    await api.script('Hello.');
    assert.equal(answer((await a.turn(sid, 'hello')).updates), 'Hello.');
    const md = 'Use **bold** and `code`:\n\n- one\n- two';
    await api.script(md);
    assert.equal(answer((await a.turn(sid, 'format it')).updates), md);

    const tool = cli === 'codex'
      ? { name: 'exec_command', input: { cmd: "printf 'tool-ran\\n'" } }
      : { name: 'run_shell_command', input: { command: 'echo tool-ran' } };
    await api.script({ tool_call: tool }, 'Ran it.');
    a.permission = (p) => ({ outcome: { outcome: 'selected', optionId: p.options.find((o) => o.kind === 'allow_once').optionId } });
    const ran = await a.turn(sid, 'run the tool');
    const call = ran.updates.find((u) => u.sessionUpdate === 'tool_call' && u.kind === 'execute');
    assert.ok(call, JSON.stringify(ran.updates));
    const result = ran.updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId);
    assert.equal(result.status, 'completed');
    assert.match(result.content[0].content.text, /tool-ran/);

    const slash = cli === 'codex' ? '/status' : '/about';
    const out = answer((await a.turn(sid, slash)).updates);
    assert.match(out, cli === 'codex' ? /Model:?\s/i : /CLI Version\s+0\.61/i);
    await a.close();
  });
}
