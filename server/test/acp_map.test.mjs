// The pure mappings of tuidriver-acp: permission labels, MCP arguments, prompts; the session ids it keeps.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { SessionIds } from '../src/acp_ids.mjs';
import { mcpArgs, optionKind, promptText, questionContext, slashOutput, toolTitle } from '../src/acp_map.mjs';

test('permission labels of the three CLIs map to ACP option kinds', () => {
  const cases = {
    Yes: 'allow_once',
    'Yes, and always allow access to /p from this project': 'allow_always',
    'Yes, and switch to auto mode · auto mode handles these prompts for you': 'allow_always',
    No: 'reject_once',
    'Yes, proceed (y)': 'allow_once',
    "Yes, and don't ask again for this command (a)": 'allow_always',
    'No, and tell Codex what to do differently (esc)': 'reject_once',
    'Allow once': 'allow_once',
    'Allow for this session': 'allow_always',
    'No, suggest changes (esc)': 'reject_once',
    'Modify with external editor': 'reject_once',
  };
  for (const [label, kind] of Object.entries(cases)) assert.equal(optionKind(label), kind, label);
});

test('MCP servers become each CLI\'s arguments; others take none', () => {
  const stdio = { name: 'fs', command: '/bin/mcp-fs', args: ['--root', '/p'], env: [{ name: 'K', value: 'v' }] };
  const http = { type: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: 'Bearer x' }] };
  const [flag, json] = mcpArgs('claude', [stdio, http]);
  assert.equal(flag, '--mcp-config');
  assert.deepEqual(JSON.parse(json), { mcpServers: {
    fs: { command: '/bin/mcp-fs', args: ['--root', '/p'], env: { K: 'v' } },
    web: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
  } });
  assert.deepEqual(mcpArgs('codex', [stdio]), ['-c', 'mcp_servers.fs.command="/bin/mcp-fs"', '-c', 'mcp_servers.fs.args=["--root","/p"]', '-c', 'mcp_servers.fs.env={"K"="v"}']);
  assert.throws(() => mcpArgs('codex', [{ ...http, type: 'sse' }]), /cannot take sse/);
  assert.throws(() => mcpArgs('claude', [{ ...stdio, name: 'a.b' }]), /letters, digits/);
  assert.equal(mcpArgs('gemini', [stdio]), null);
  assert.deepEqual(mcpArgs('claude', []), []);
});

test('prompts: text and resource links; anything else is refused', () => {
  assert.equal(promptText([{ type: 'text', text: 'read ' }, { type: 'resource_link', uri: 'file:///a.txt', name: 'a' }]), 'read file:///a.txt');
  assert.throws(() => promptText([{ type: 'image', data: '', mimeType: 'image/png' }]), /text prompts only/);
});

test('a slash command\'s output: below its echo up to the input box, or the panel', () => {
  const rows = ['❯ /mcp', '  ⎿  old', '❯ /mcp', '  ⎿  see https://x/en/mcp', '  ⎿  Tip: x', '────────────────────', '❯ ', '────────────────────', '  footer'];
  assert.equal(slashOutput('/mcp', rows, { before: ['  footer'], end: /^─{20,}/, chrome: [/⎿\s+Tip:/] }), '  ⎿  see https://x/en/mcp');
  const panel = ['❯ /status', '────────────────────', '  Version: 1', '', '  Esc to close'];
  assert.equal(slashOutput('/status', panel, { before: ['────────────────────'], panel: true }), '  Version: 1\n\n  Esc to close');
});

test('a question\'s context starts at the rule above it; titles name the tool', () => {
  const screen = ['● Bash(ls)', '──────────────────────────', ' Bash command', ' ls', ' Do you want to proceed?', ' ❯ 1. Yes'];
  assert.equal(questionContext(screen, 'Do you want to proceed?'), ' Bash command\n ls\n Do you want to proceed?\n ❯ 1. Yes');
  assert.equal(toolTitle('Bash', { command: 'ls', description: 'List' }), 'Bash: List');
  assert.equal(toolTitle('exec_command', { cmd: ['bash', '-lc', 'ls'] }), 'exec_command: bash -lc ls');
  assert.equal(toolTitle('Other', {}), 'Other');
});

test('SessionIds: pairs kept on disk for a later process, the newest 1,000, an unreadable file read as none', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-acp-ids-'));
  try {
    const logs = [];
    const ids = new SessionIds({ XDG_STATE_HOME: dir }, (m) => logs.push(m));
    assert.equal(ids.cliId('a'), undefined);
    ids.remember('a', 'codex-1');
    assert.equal(new SessionIds({ XDG_STATE_HOME: dir }, () => {}).cliId('a'), 'codex-1');
    ids.remember('a', 'codex-2');
    assert.equal(ids.cliId('a'), 'codex-2');
    for (let i = 0; i < 1000; i++) ids.remember(`s${i}`, `c${i}`);
    assert.equal(ids.cliId('a'), undefined, 'the oldest pair went');
    assert.equal(ids.cliId('s999'), 'c999');
    fs.writeFileSync(ids.file, '{not json');
    assert.equal(ids.cliId('s999'), undefined);
    ids.remember('b', 'c');
    assert.equal(ids.cliId('b'), 'c');
    assert.deepEqual(logs, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
