// Issue 47: sessions of one agent CLI started together in one folder and
// one home, here by the server's --warm pool, each get their own answers.
// pi names its transcript itself, so each session must find the one that
// records its own prompt.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN_MCP } from './helpers.mjs';
import { agentHome, fakeApi } from './acp_helpers.mjs';

const CLI = 'pi';
const WARM = 4;
const ROUNDS = 3;

test(`--warm ${CLI}=${WARM}: sessions started together in one folder each get their own answers`, { timeout: 600_000 }, async (t) => {
  const api = await fakeApi(t);
  await api.setDefault({ echo_say: true });
  const { cwd, env } = agentHome(t, CLI, api.port);
  // The pool's sessions start in the server's folder, with its home.
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN_MCP, '--warm', `${CLI}=${WARM}`], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'warm-pool-test', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  const ids = [];
  for (let i = 0; i < WARM; i++) {
    const r = await client.callTool({ name: 'session_start', arguments: { engine: CLI } }, undefined, { timeout: 200_000 });
    assert.equal(r.isError, undefined, r.content?.[0]?.text);
    ids.push(r.structuredContent.session_id);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const replies = await Promise.all(ids.map((id, i) => client.callTool(
      { name: 'ask', arguments: { session_id: id, prompt: `say 'tdx-${i}-${round}'`, timeout_ms: 120_000 } },
      undefined, { timeout: 150_000 })));
    replies.forEach((r, i) => {
      const want = `said tdx-${i}-${round}`;
      assert.equal(r.isError, undefined, r.content?.[0]?.text);
      assert.equal(r.structuredContent.markdown, want, `session ${i}, round ${round}: ${JSON.stringify(r.structuredContent)}`);
      assert.match(r.structuredContent.text, new RegExp(want));
    });
  }
  for (const id of ids) await client.callTool({ name: 'terminate', arguments: { session_id: id } });
});
