// The OpenAI Chat Completions API, as the CLIs built on it use it (pi, Qwen
// Code, Copilot, Cline, opencode's openai-compatible provider): POST
// .../chat/completions, streamed as SSE or answered as one JSON object, with
// tool calls and tool results. Any base path works (/v1, /api/v1, none).
//
// Which request is what:
// - the user's prompt is the last message and tools are offered: a
//   conversation turn, it takes the next scripted reply;
// - a tool's result is the last message: the turn goes on, with the next
//   scripted reply if one is queued, else "Done.";
// - a side call (a title, Qwen's memory extraction and next-prompt
//   suggestion, which offer tools or end with a user message too): a short
//   canned answer that never consumes the script.
import { splitWords, sleep } from './fake_api.mjs';

// Side calls that look like turns, told apart by their text, and what the
// fake answers them: a real model's kind of answer, so the CLI shows what a
// user sees (Qwen draws the suggestion in its input box).
const SIDE_CALLS = [
  { name: 'qwen_suggestion', user: /^\[SUGGESTION MODE:/, text: 'try it out' },
  { name: 'qwen_memory', system: /managed memory extraction subagent/, text: 'Nothing durable to remember.' },
];

function messagesOf(body) {
  return Array.isArray(body?.messages) ? body.messages : [];
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((p) => typeof p?.text === 'string').map((p) => p.text).join('\n');
}

function lastUserText(body) {
  const msgs = messagesOf(body);
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i]?.role === 'user') return textOf(msgs[i].content);
  }
  return '';
}

function systemText(body) {
  return messagesOf(body).filter((m) => m?.role === 'system').map((m) => textOf(m.content)).join('\n');
}

function sideCallOf(body) {
  const user = lastUserText(body);
  const system = systemText(body);
  return SIDE_CALLS.find((c) => (c.user && c.user.test(user)) || (c.system && c.system.test(system)));
}

function lastRole(body) {
  const msgs = messagesOf(body);
  return msgs.length > 0 ? msgs[msgs.length - 1]?.role : undefined;
}

function offersTools(body) {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

// What kind of request this is: 'turn', 'tool_result' or 'side'.
export function requestKind(body) {
  if (sideCallOf(body)) return 'side';
  if (lastRole(body) === 'tool') return 'tool_result';
  if (offersTools(body) && lastRole(body) === 'user') return 'turn';
  return 'side';
}

const usage = { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32,
                prompt_tokens_details: { cached_tokens: 0 } };

function toolCallOf(reply) {
  return { id: `call_${Date.now()}`, type: 'function',
           function: { name: reply.tool_call.name, arguments: JSON.stringify(reply.tool_call.input ?? {}) } };
}

function chunk(base, delta, finish) {
  return { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] };
}

function sse(res, data) {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

async function stream(res, body, reply, onEnd) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: `chatcmpl-${Date.now()}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'gpt-4o' };
  sse(res, chunk(base, { role: 'assistant', content: '' }, null));
  await sleep(reply.first_delay_ms ?? 0);
  let finish = 'stop';
  if (reply.tool_call) {
    finish = 'tool_calls';
    const call = toolCallOf(reply);
    // The name first, the arguments in a later chunk, as OpenAI streams them.
    sse(res, chunk(base, { tool_calls: [{ index: 0, id: call.id, type: 'function',
                                          function: { name: call.function.name, arguments: '' } }] }, null));
    sse(res, chunk(base, { tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }, null));
  } else {
    const words = splitWords(reply.text ?? '');
    for (let i = 0; i < words.length; i++) {
      if (i > 0) await sleep(reply.word_delay_ms ?? 0);
      sse(res, chunk(base, { content: words[i] }, null));
    }
  }
  sse(res, chunk(base, {}, finish));
  // Usage comes in a chunk of its own when asked for (stream_options), as OpenAI sends it.
  if (body.stream_options?.include_usage) sse(res, { ...base, object: 'chat.completion.chunk', choices: [], usage });
  res.write('data: [DONE]\n\n');
  res.end();
  onEnd();
}

async function answer(res, body, reply, onEnd) {
  await sleep(reply.first_delay_ms ?? 0);
  const message = { role: 'assistant', content: reply.tool_call ? null : (reply.text ?? '') };
  if (reply.tool_call) message.tool_calls = [toolCallOf(reply)];
  const out = JSON.stringify({
    id: `chatcmpl-${Date.now()}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'gpt-4o', usage,
    choices: [{ index: 0, message, finish_reason: reply.tool_call ? 'tool_calls' : 'stop' }],
  });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
  res.end(out);
  onEnd();
}

export const provider = {
  name: 'chat_completions',
  matches(method, pathname) {
    return method === 'POST' && pathname.endsWith('/chat/completions');
  },
  async handle({ res, body, state, entry }) {
    const kind = requestKind(body);
    entry.turn = kind === 'turn';
    entry.prompt = lastUserText(body);
    let reply;
    let onEnd = () => {};
    if (kind === 'turn') {
      reply = state.beginTurn(entry.prompt);
      onEnd = () => state.endTurn();
    } else if (kind === 'tool_result') {
      reply = state.afterTool();
      onEnd = () => state.endStep();
    } else {
      const side = sideCallOf(body);
      entry.side_call = side?.name ?? 'other';
      reply = { text: side?.text ?? 'OK' };
    }
    return body?.stream ? stream(res, body, reply, onEnd) : answer(res, body, reply, onEnd);
  },
};
