// session/load with replay: turns in one tuidriver-acp process (one with a
// tool call), then a second process loads the session and must send the
// conversation (prompts, tool calls, exact markdown) before it answers.
// Claude Code, Codex and Gemini CLI, tests/e2e's pinned CLIs on the loopback
// fake API.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import * as acp from '@agentclientprotocol/sdk';
import { agentHome, answer, fakeApi, startAgent } from './acp_helpers.mjs';

const TOOLS = {
  claude: [{ tool_call: { name: 'Bash', input: { command: 'echo tool said hi', description: 'Say hi' } } }],
  codex: [{ tool_call: { name: 'exec_command', input: { cmd: "printf 'tool-ran\\n'" } } }, 'Ran it.'],
  gemini: [{ tool_call: { name: 'run_shell_command', input: { command: 'echo tool-ran' } } }, 'Ran it.'],
  pi: [{ tool_call: { name: 'bash', input: { command: 'echo tool-ran' } } }],
  copilot: [{ tool_call: { name: 'bash', input: { command: 'printf tool-ran', description: 'Print' } } }],
};

/** The updates a replay of this live turn must send: its prompt, its tool calls as the transcript gave them, its answer. */
function expectedReplay(prompt, updates) {
  const tools = updates.filter((u) => String(u.toolCallId).startsWith('tool-'));
  return [
    { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: prompt } },
    ...tools,
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: answer(updates) } },
  ];
}

/** Tool call ids differ between processes: each call's update must name its own call, then the ids go. */
function withoutIds(updates) {
  let call;
  return updates.map((u) => {
    if (u.sessionUpdate === 'tool_call') call = u.toolCallId;
    if (u.sessionUpdate === 'tool_call_update') assert.equal(u.toolCallId, call, 'an update follows its call');
    const { toolCallId, ...rest } = u;
    return rest;
  });
}

for (const cli of ['claude', 'codex', 'gemini', 'pi', 'copilot']) {
  test(`${cli}: session/load replays the conversation before it answers`, { timeout: 180_000 }, async (t) => {
    const api = await fakeApi(t);
    const h = agentHome(t, cli, api.port);
    const a = startAgent(t, cli, { env: h.env });
    await a.init();
    const sid = await a.newSession(h.cwd);
    a.permission = (p) => ({ outcome: { outcome: 'selected', optionId: p.options.find((o) => o.kind === 'allow_once').optionId } });
    const md = '## Plan\n\nUse **bold** and `code`:\n\n- one\n- two';
    const live = [];
    for (const [prompt, script] of [['hello', ['Hello.']], ['run the tool', TOOLS[cli]], ['plan it', [md]]]) {
      await api.script(...script);
      const r = await a.turn(sid, prompt);
      assert.deepEqual(r.res, { stopReason: 'end_turn' }, a.stderr());
      live.push({ prompt, updates: r.updates });
    }
    assert.equal(answer(live[2].updates), md, a.stderr());
    // The tool call as the transcript recorded it (not only a permission question).
    assert.ok(live[1].updates.some((u) => u.sessionUpdate === 'tool_call' && u.toolCallId.startsWith('tool-')), JSON.stringify(live[1].updates));
    await a.close();

    // A new process loads the session: the replay comes before the response.
    // The id session/new gave, also for Codex and pi, which name their session only in
    // its first turn: the new process finds the CLI's id where the first one kept it.
    const id = sid;
    const b = startAgent(t, cli, { env: h.env });
    await b.init();
    assert.deepEqual(await b.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: h.cwd, mcpServers: [] }), {});
    const replay = b.since(id, 0);
    const expected = live.flatMap((turn) => expectedReplay(turn.prompt, turn.updates));
    assert.deepEqual(withoutIds(replay), withoutIds(expected), b.stderr());
    assert.equal(replay.filter((u) => u.sessionUpdate === 'agent_message_chunk').at(-1).content.text, md);
    const failed = replay.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status !== 'completed');
    assert.deepEqual(failed, [], 'the tool call completed');
    // The resumed session goes on; nothing of the replay comes again.
    await api.script('Resumed.');
    const next = await b.turn(id, 'what did we do?');
    assert.equal(answer(next.updates), 'Resumed.');
    assert.ok(!next.updates.some((u) => u.sessionUpdate === 'user_message_chunk'), JSON.stringify(next.updates));
    await b.close();
  });
}
