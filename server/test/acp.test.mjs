// tuidriver-acp driven by the ACP SDK's own client app over stdio, on real
// python and bash sessions: turns, streaming, cancel, errors, stderr and cleanup.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as acp from '@agentclientprotocol/sdk';
import { alive, answer, childrenOf, startAgent, tempDir, until } from './acp_helpers.mjs';

test('python: initialize, a streamed turn, cancel, errors', async (t) => {
  const dir = tempDir(t, 'tuidriver-acp-py-');
  const a = startAgent(t, 'python');
  const init = await a.init();
  assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
  assert.equal(init.agentCapabilities.loadSession, false);
  assert.deepEqual(init.agentCapabilities.promptCapabilities, { image: false, audio: false, embeddedContext: false });
  assert.equal(init.agentInfo.name, 'tuidriver-acp');

  const sid = await a.newSession(dir);
  // Streamed as the screen gives it: the chunks add up to the reply exactly.
  const loop = await a.turn(sid, 'import time\nfor i in range(3):\n    print(i); time.sleep(0.3)\n');
  assert.deepEqual(loop.res, { stopReason: 'end_turn' });
  const chunks = loop.updates.filter((u) => u.sessionUpdate === 'agent_message_chunk');
  assert.equal(answer(loop.updates), '0\n1\n2');
  assert.ok(chunks.length >= 2, `streamed in pieces: ${JSON.stringify(chunks)}`);
  assert.equal(answer((await a.turn(sid, 'print("a\\nb")')).updates), 'a\nb');

  // Cancel: the running ask is interrupted, the turn ends `cancelled`, the session goes on.
  const pending = a.prompt(sid, 'import time; time.sleep(60)');
  await new Promise((r) => setTimeout(r, 800));
  await a.cancel(sid);
  assert.deepEqual(await pending, { stopReason: 'cancelled' });
  assert.equal(answer((await a.turn(sid, '6*7')).updates), '42');

  // Bad input is an error, not a hang.
  await assert.rejects(a.agent.request(acp.methods.agent.session.prompt, { sessionId: 'nope', prompt: [{ type: 'text', text: '1' }] }), /unknown session/);
  await assert.rejects(a.agent.request(acp.methods.agent.session.prompt, { sessionId: sid, prompt: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] }), /text prompts only/);
  await assert.rejects(a.agent.request(acp.methods.agent.session.new, { cwd: 'relative/dir', mcpServers: [] }), /absolute path/);
  await assert.rejects(a.agent.request(acp.methods.agent.session.load, { sessionId: sid, cwd: dir, mcpServers: [] }), /keeps no transcript/);
  // A dead program: the prompt fails with the daemon's kind.
  await assert.rejects(a.prompt(sid, 'import os; os._exit(0)'), (e) => e.code === -32603 && /exited/.test(e.message));
  await a.close();
});

test('bash: several sessions in one process; a turn each', async (t) => {
  const dir = tempDir(t, 'tuidriver-acp-sh-');
  fs.writeFileSync(path.join(dir, 'here.txt'), 'x');
  const a = startAgent(t, 'bash', { args: ['--cols', '100', '--rows', '30'] });
  await a.init();
  const one = await a.newSession(dir);
  const two = await a.newSession(dir);
  assert.notEqual(one, two);
  const r = await a.turn(one, 'ls; echo "cols=$COLUMNS"');
  assert.deepEqual(r.res, { stopReason: 'end_turn' });
  assert.equal(answer(r.updates), 'here.txt\ncols=100');
  assert.equal(answer((await a.turn(two, 'echo two')).updates), 'two');
  // bash has no slash commands: the list is empty, and "/" is an ordinary line.
  const cmds = a.updates.filter((u) => u.sessionId === one && u.update.sessionUpdate === 'available_commands_update');
  assert.deepEqual(cmds.map((u) => u.update.availableCommands), [[]]);
  assert.match(answer((await a.turn(one, '/bin/echo slash')).updates), /^slash$/);
  await a.close();
});

test('the daemons are closed on disconnect and on SIGTERM', async (t) => {
  const dir = tempDir(t, 'tuidriver-acp-end-');
  for (const how of ['disconnect', 'SIGTERM']) {
    const a = startAgent(t, 'python');
    await a.init();
    await a.newSession(dir);
    await a.newSession(dir);
    const daemons = childrenOf(a.child.pid);
    assert.equal(daemons.length, 2, `two daemons under the agent: ${daemons}`);
    const programs = daemons.flatMap(childrenOf);
    assert.equal(programs.length, 2, `a python under each daemon: ${programs}`);
    if (how === 'disconnect') a.child.stdin.end();
    else a.child.kill('SIGTERM');
    const { code } = await a.exited;
    assert.equal(code, 0, how);
    await until(() => ![...daemons, ...programs].some(alive), 10_000, `the daemons and programs to end after ${how}`);
  }
});

test('an engine that cannot start: the daemon\'s message as the error, its stderr passed through', async (t) => {
  const dir = tempDir(t, 'tuidriver-acp-bad-');
  const a = startAgent(t, 'no-such-engine');
  await a.init();
  await assert.rejects(a.newSession(dir), (e) => e.code === -32603 && /unknown engine 'no-such-engine'/.test(e.message));
  await until(() => /tuidriver: .*unknown engine 'no-such-engine'/.test(a.stderr()), 5000, 'the daemon\'s stderr');
  await a.close();
});
