// The Anthropic Messages API, as far as Claude Code needs it: POST
// /v1/messages (streamed as SSE, or plain JSON) and token counting. A
// request that offers tools is a conversation turn and takes the next
// scripted reply; others (titles, quota probes, summaries) get a short
// canned answer so they never consume the script.
import { splitWords, sleep } from './fake_api.mjs';

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function isTurn(body) {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

function lastUserText(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i].role !== 'user') continue;
    const c = msgs[i].content;
    if (typeof c === 'string') return c;
    if (Array.isArray(c)) return c.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
  }
  return '';
}

// A tool result coming back means the scripted tool call was answered:
// finish the turn with a short text instead of calling the tool again.
function isToolResult(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const last = msgs[msgs.length - 1];
  // Only tool results: the user said nothing new (a rejected tool's result
  // travels with the next prompt, which is a turn of its own).
  return Array.isArray(last?.content) && last.content.length > 0 &&
    last.content.every((p) => p.type === 'tool_result');
}

async function streamReply(res, body, reply, state) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const model = body.model ?? 'claude-sonnet-4-5';
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model, content: [],
               stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } },
  });
  await sleep(reply.first_delay_ms ?? 0);
  let stop = 'end_turn';
  if (reply.tool_call) {
    stop = 'tool_use';
    sse(res, 'content_block_start', { type: 'content_block_start', index: 0,
      content_block: { type: 'tool_use', id: `toolu_${Date.now()}`, name: reply.tool_call.name, input: {} } });
    sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.tool_call.input ?? {}) } });
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  } else {
    sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    const words = splitWords(reply.text ?? '');
    for (let i = 0; i < words.length; i++) {
      if (i > 0) await sleep(reply.word_delay_ms ?? 0);
      sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: words[i] } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  }
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null },
                              usage: { output_tokens: 20 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
  state.endTurn();
}

function jsonReply(res, body, text) {
  const out = JSON.stringify({
    id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model: body.model ?? 'claude-sonnet-4-5',
    content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 3 },
  });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(out);
}

export const provider = {
  name: 'anthropic',
  matches(method, pathname) {
    return method === 'POST' && pathname.startsWith('/v1/messages');
  },
  async handle({ res, url, body, state, entry }) {
    if (url.pathname.endsWith('/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ input_tokens: 42 }));
    }
    entry.turn = isTurn(body) && !isToolResult(body);
    entry.prompt = lastUserText(body);
    let reply;
    if (entry.turn) reply = state.beginTurn(entry.prompt);
    else if (isToolResult(body)) reply = state.afterTool();
    else reply = { text: 'Untitled' };
    if (body?.stream) {
      if (!entry.turn) state.turnsStarted += 0;  // side calls are not counted
      return streamReply(res, body, reply, entry.turn ? state : { endTurn() {} });
    }
    return jsonReply(res, body, reply.text ?? '');
  },
};
