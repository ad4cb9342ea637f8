// tuidriver-acp on Claude Code's real TUI (tests/e2e's pinned CLI on the
// loopback fake API), driven by the ACP SDK's client: exact markdown, a tool
// call and its updates, a permission allowed and one rejected, cancel, load,
// and a slash command's output.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as acp from '@agentclientprotocol/sdk';
import { agentHome, answer, fakeApi, startAgent, until } from './acp_helpers.mjs';

const pick = (kind) => (p) => ({ outcome: { outcome: 'selected', optionId: p.options.find((o) => o.kind === kind).optionId } });

test('claude: markdown, tool calls, permissions, cancel, slash commands, load', async (t) => {
  const api = await fakeApi(t);
  const h = agentHome(t, 'claude', api.port);
  const a = startAgent(t, 'claude', { env: h.env });
  const init = await a.init();
  assert.equal(init.agentCapabilities.loadSession, true);
  assert.deepEqual(init.agentCapabilities.mcpCapabilities, { http: true, sse: true });
  const sid = await a.newSession(h.cwd);
  assert.match(sid, /^[0-9a-f-]{36}$/, 'the CLI\'s own session id');
  await until(() => a.updates.some((u) => u.update.sessionUpdate === 'available_commands_update'), 5000, 'the commands');
  const cmds = a.updates.find((u) => u.update.sessionUpdate === 'available_commands_update').update.availableCommands;
  assert.ok(cmds.some((c) => c.name === 'status' && c.description), JSON.stringify(cmds));

  // A first turn, asked after a pause, exact: a fresh Claude under load writes its first
  // records late (the screen's "Hello." would come instead of the markdown).
  await new Promise((r) => setTimeout(r, 1500));
  await api.script('**Hello.**');
  assert.equal(answer((await a.turn(sid, 'hello')).updates), '**Hello.**');
  // A turn: the chunks add up to the model's markdown, byte for byte.
  const md = '## Plan\n\nUse **bold**, `code` and a list:\n\n- one\n- two\n\n```js\nconst x = 1;\n```';
  await api.script(md);
  const turn = await a.turn(sid, 'plan it');
  assert.deepEqual(turn.res, { stopReason: 'end_turn' });
  assert.equal(answer(turn.updates), md, a.stderr());

  // A tool call the client allows: the question, then tool_call and its update.
  const made = path.join(h.cwd, 'allowed.txt');
  await api.script({ tool_call: { name: 'Bash', input: { command: `touch ${made}`, description: 'Make a file' } } });
  a.permission = pick('allow_once');
  const allowed = await a.turn(sid, 'make the file');
  assert.deepEqual(allowed.res, { stopReason: 'end_turn' });
  const q = a.permissions.at(-1);
  assert.equal(q.sessionId, sid);
  assert.equal(q.toolCall.title, 'Do you want to proceed?');
  assert.match(q.toolCall.content[0].content.text, new RegExp(`touch ${made}`));
  assert.deepEqual(q.options.map((o) => o.kind), ['allow_once', 'allow_always', 'allow_always', 'reject_once']);
  assert.deepEqual(q.options[0], { optionId: '1', name: 'Yes', kind: 'allow_once' });
  assert.ok(fs.existsSync(made), 'the allowed tool ran');
  // The question as a tool call (pending, then completed), then the transcript's tool.
  const [asked, granted, call, result, ...rest] = allowed.updates;
  assert.deepEqual([asked.sessionUpdate, asked.toolCallId, asked.status], ['tool_call', q.toolCall.toolCallId, 'pending']);
  assert.deepEqual([granted.sessionUpdate, granted.toolCallId, granted.status], ['tool_call_update', q.toolCall.toolCallId, 'completed']);
  assert.equal(call.sessionUpdate, 'tool_call');
  assert.equal(call.kind, 'execute');
  assert.equal(call.title, 'Bash: Make a file');
  assert.equal(call.rawInput.command, `touch ${made}`);
  assert.equal(result.sessionUpdate, 'tool_call_update');
  assert.equal(result.toolCallId, call.toolCallId);
  assert.equal(result.status, 'completed');
  assert.deepEqual(result.content, [{ type: 'content', content: { type: 'text', text: '(Bash completed with no output)' } }]);
  assert.equal(answer(rest), 'Done.');

  // One the client rejects: the tool does not run, the question's call failed.
  const refused = path.join(h.cwd, 'refused.txt');
  await api.script({ tool_call: { name: 'Bash', input: { command: `touch ${refused}`, description: 'Make another' } } });
  a.permission = pick('reject_once');
  const rejected = await a.turn(sid, 'make the other file');
  assert.equal(rejected.res.stopReason, 'end_turn');
  assert.ok(!fs.existsSync(refused), 'the rejected tool did not run');
  const no = a.permissions.at(-1).toolCall.toolCallId;
  assert.deepEqual(rejected.updates.filter((u) => u.toolCallId === no).map((u) => u.status), ['pending', 'failed']);

  // Cancel while the model streams: the turn ends `cancelled`, the session goes on.
  await api.script({ text: 'slow '.repeat(200), first_delay_ms: 3000, word_delay_ms: 50 });
  const started = (await api.state()).turns_started;
  const pending = a.prompt(sid, 'take your time');
  await until(async () => (await api.state()).turns_started > started, 30_000, 'the slow turn to start');
  await a.cancel(sid);
  assert.deepEqual(await pending, { stopReason: 'cancelled' });
  await api.script('Still here.');
  assert.equal(answer((await a.turn(sid, 'still there?')).updates), 'Still here.');

  // A slash command: typed as it is, its screen output is the answer.
  const status = answer((await a.turn(sid, '/status')).updates);
  assert.match(status, /Version:\s+2\.1\.\d+/);
  assert.match(status, new RegExp(`Session ID:\\s+${sid}`));
  const mcp = answer((await a.turn(sid, '/mcp')).updates);
  assert.match(mcp, /No MCP servers/);
  await api.script('After the commands.');
  assert.equal(answer((await a.turn(sid, 'and now?')).updates), 'After the commands.');
  await a.close();

  // The next day: a new agent process loads the session; the CLI resumes it.
  const b = startAgent(t, 'claude', { env: h.env });
  await b.init();
  assert.deepEqual(await b.agent.request(acp.methods.agent.session.load, { sessionId: sid, cwd: h.cwd, mcpServers: [] }), {});
  await api.script('Resumed.');
  assert.equal(answer((await b.turn(sid, 'what did we do?')).updates), 'Resumed.');
  const last = (await api.requests()).filter((r) => r.turn).at(-1);
  assert.match(JSON.stringify(last.body.messages), /plan it/, 'the resumed conversation holds the first prompt');
  await assert.rejects(b.agent.request(acp.methods.agent.session.load, { sessionId: '00000000-0000-4000-8000-000000000000', cwd: h.cwd, mcpServers: [] }), /not_ready|exited|No conversation/i);
  await b.close();
});
