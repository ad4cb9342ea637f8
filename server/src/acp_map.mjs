// How tuidriver's answers become ACP's shapes (docs/acp.md): permission options,
// tool calls, the MCP servers a CLI takes on its command line, prompts, and the
// screen's answer to a slash command. Pure functions, tested in acp_map.test.mjs.

/** One kind test per row, first match wins: a CLI's permission label → ACP option kind. */
const OPTION_KINDS = [
  [/^\s*(no|reject|deny|don'?t|cancel)\b.*\b(always|never|don'?t ask again)\b/i, 'reject_always'],
  [/^\s*(no|reject|deny|don'?t|cancel)\b/i, 'reject_once'],
  [/\b(always|don'?t ask again|for this session|for all|from now on|auto mode)\b/i, 'allow_always'],
  [/^\s*(yes|allow|approve|accept|proceed|ok)\b/i, 'allow_once'],
];

/**
 * ACP's option kind for a CLI's permission label. Claude: "Yes" / "Yes, and always
 * allow …" / "No"; Codex: "Yes, proceed" / "Yes, and don't ask again …" / "No, and
 * tell Codex …"; Gemini: "Allow once" / "Allow for this session" / "No, suggest
 * changes". Anything else (an editor to modify the call) does not run the tool as
 * asked: `reject_once`.
 */
export function optionKind(label) {
  for (const [re, kind] of OPTION_KINDS) if (re.test(label)) return kind;
  return 'reject_once';
}

/** The needs_input event's choices as ACP permission options (optionId: the choice's index). */
export function permissionOptions(options) {
  return options.map((o) => ({ optionId: String(o.index), name: o.label, kind: optionKind(o.label) }));
}

/** A solid horizontal rule, or a box's top edge: where a TUI's question box begins. */
const RULE = /^\s*[─╭┌]─{19,}/;

/**
 * What a permission request shows with a question: the screen from the rule or
 * box edge above the question (the tool and its input, as the CLI shows them)
 * to the end, else the whole screen.
 */
export function questionContext(lines, question) {
  const first = question.split('\n')[0].trim();
  let at = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (first !== '' && lines[i].includes(first)) {
      at = i;
      break;
    }
  }
  let from = 0;
  for (let i = Math.min(at, lines.length - 1); i >= 0; i--) {
    if (RULE.test(lines[i])) {
      from = i + 1;
      break;
    }
  }
  return lines.slice(from).map((l) => l.trimEnd()).join('\n').replace(/^\n+|\n+$/g, '');
}

/** Tool names of the three CLIs → ACP tool kinds. */
const TOOL_KINDS = new Map([
  ...['Bash', 'BashOutput', 'KillShell', 'exec_command', 'shell', 'local_shell', 'run_shell_command', 'write_stdin'].map((n) => [n, 'execute']),
  ...['Read', 'NotebookRead', 'read_file', 'read_many_files', 'view_image'].map((n) => [n, 'read']),
  ...['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'apply_patch', 'replace', 'write_file'].map((n) => [n, 'edit']),
  ...['Grep', 'Glob', 'LS', 'glob', 'search_file_content', 'grep_search', 'list_directory', 'google_web_search', 'WebSearch', 'web_search'].map((n) => [n, 'search']),
  ...['WebFetch', 'web_fetch'].map((n) => [n, 'fetch']),
  ...['Task', 'TodoWrite', 'update_plan', 'write_todos', 'save_memory'].map((n) => [n, 'think']),
]);

export function toolKind(name) {
  return TOOL_KINDS.get(name) ?? 'other';
}

/** A tool call's title: its name and the input field a person reads first. */
export function toolTitle(name, input) {
  const i = input && typeof input === 'object' ? input : {};
  const main = i.description ?? i.command ?? i.cmd ?? i.file_path ?? i.path ?? i.absolute_path ?? i.pattern ?? i.url ?? i.query;
  const text = Array.isArray(main) ? main.join(' ') : main;
  return typeof text === 'string' && text !== '' ? `${name}: ${text}` : name;
}

/** The updates for one transcript tool call: `tool_call` (in progress), then its result. */
export function toolCallUpdates(id, tool) {
  return [
    { sessionUpdate: 'tool_call', toolCallId: id, title: toolTitle(tool.name, tool.input), kind: toolKind(tool.name), status: 'in_progress', rawInput: tool.input },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: tool.ok ? 'completed' : 'failed',
      content: [{ type: 'content', content: { type: 'text', text: tool.output } }],
      rawOutput: tool.output,
    },
  ];
}

/** `{name: value}` from ACP's `[{name, value}]` (env variables, headers). */
function pairs(list) {
  return Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
}

/** Claude Code: one `--mcp-config` with its own JSON shape. */
function claudeMcpArgs(servers) {
  const mcpServers = {};
  for (const s of servers) {
    mcpServers[s.name] = s.type === 'http' || s.type === 'sse'
      ? { type: s.type, url: s.url, headers: pairs(s.headers) }
      : { command: s.command, args: s.args, env: pairs(s.env) };
  }
  return ['--mcp-config', JSON.stringify({ mcpServers })];
}

/** A TOML inline table of strings (JSON strings are TOML basic strings). */
function tomlTable(obj) {
  return `{${Object.entries(obj).map(([k, v]) => `${JSON.stringify(k)}=${JSON.stringify(v)}`).join(',')}}`;
}

/** Codex: `-c mcp_servers.NAME.FIELD=TOML` overrides of its config.toml. */
function codexMcpArgs(servers) {
  const args = [];
  for (const s of servers) {
    const key = `mcp_servers.${s.name}`;
    if (s.type === 'http') {
      args.push('-c', `${key}.url=${JSON.stringify(s.url)}`);
      if (s.headers?.length) args.push('-c', `${key}.http_headers=${tomlTable(pairs(s.headers))}`);
    } else {
      args.push('-c', `${key}.command=${JSON.stringify(s.command)}`, '-c', `${key}.args=${JSON.stringify(s.args)}`);
      if (s.env?.length) args.push('-c', `${key}.env=${tomlTable(pairs(s.env))}`);
    }
  }
  return args;
}

/** Engines whose CLI takes MCP servers on its command line, and the transports it takes. */
const MCP = {
  claude: { args: claudeMcpArgs, http: true, sse: true },
  codex: { args: codexMcpArgs, http: true, sse: false },
};

export function mcpCapabilities(engine) {
  const m = MCP[engine];
  return { http: m?.http ?? false, sse: m?.sse ?? false };
}

/**
 * The CLI arguments that hand it `servers` (ACP's McpServer list). Null when the
 * engine takes none (they are ignored, docs/acp.md); throws on a transport or name
 * the CLI cannot take.
 */
export function mcpArgs(engine, servers) {
  const m = MCP[engine];
  if (!m || !servers?.length) return m ? [] : null;
  for (const s of servers) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(s.name)) throw new Error(`MCP server name "${s.name}": use letters, digits, _ and - only`);
    const type = s.type ?? 'stdio';
    if ((type === 'http' && !m.http) || (type === 'sse' && !m.sse)) throw new Error(`${engine} cannot take ${type} MCP servers (mcpCapabilities says so)`);
  }
  return m.args(servers);
}

/**
 * The prompt's text. ACP requires text and resource links of every agent; a link
 * is given to the CLI as its URI. Anything else was not offered (promptCapabilities).
 */
export function promptText(blocks) {
  const parts = [];
  for (const b of blocks) {
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'resource_link') parts.push(b.uri);
    else throw new Error(`${b.type} content is not supported: tuidriver-acp takes text prompts only`);
  }
  return parts.join('');
}

export function escapeRegExp(text) {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** An engine file's regex (RE2) as a JS RegExp: `\x{HH}` is written `\u{HH}` here. */
export function engineRegExp(re) {
  return new RegExp(re.replace(/\\x\{([0-9a-fA-F]+)\}/g, '\\u{$1}'), 'u');
}

/**
 * What a slash command printed, from the rows after its echo (the last row holding
 * `command`). `rows` is the history and screen once the TUI is back at its prompt:
 * the output ends at the engine's `reply.end` row (the input box), and rows
 * matching `reply.chrome` (spinners, tips) are left out. When the command opened a
 * panel over the input box instead (`panel`), `rows` is that screen and the rows it
 * shared with the screen before the command (`before`: borders, footers) are left
 * out. Blank edges are trimmed.
 */
export function slashOutput(command, rows, { before = [], end = null, chrome = [], panel = false } = {}) {
  // The echo: the command alone on its row, after a prompt mark (❯, >, ›) and inside a box edge.
  const echo = new RegExp(`^[\\s│┃|]*[^\\w\\s]{0,2}\\s*${escapeRegExp(command)}\\s*[│┃|]?\\s*$`, 'u');
  let from = -1;
  for (let i = rows.length - 1; i >= 0 && from < 0; i--) if (echo.test(rows[i])) from = i + 1;
  const old = new Set(before.map((l) => l.trimEnd()));
  let out = rows.slice(Math.max(from, 0)).map((l) => l.trimEnd());
  if (panel || from < 0) {
    out = out.filter((l) => l === '' || !old.has(l));
  } else {
    const stop = end ? out.findIndex((l) => end.test(l)) : -1;
    if (stop >= 0) out = out.slice(0, stop);
    out = out.filter((l) => !chrome.some((re) => re.test(l)));
    while (out.length && old.has(out[out.length - 1]) && out[out.length - 1] !== '') out.pop();
  }
  while (out.length && out[0].trim() === '') out.shift();
  while (out.length && out[out.length - 1].trim() === '') out.pop();
  return out.join('\n');
}
