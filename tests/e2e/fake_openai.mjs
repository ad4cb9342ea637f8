// The OpenAI Responses API, as far as Codex needs it: POST /v1/responses
// streamed as SSE, and GET /v1/models. A request that offers tools is a
// conversation turn and takes the next scripted reply.
import { splitWords, sleep } from './fake_api.mjs';

function sse(res, data) {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

function lastUserText(body) {
  const input = Array.isArray(body?.input) ? body.input : [];
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (item.role !== 'user') continue;
    const c = item.content;
    if (typeof c === 'string') return c;
    if (Array.isArray(c)) return c.filter((p) => typeof p.text === 'string').map((p) => p.text).join('\n');
  }
  return '';
}

// gpt-5 gets its tools in `tools`; the GPT-6 models in an input item of
// type additional_tools.
function offersTools(body) {
  if (Array.isArray(body?.tools) && body.tools.length > 0) return true;
  const input = Array.isArray(body?.input) ? body.input : [];
  return input.some((item) => item?.type === 'additional_tools' && item.tools?.length > 0);
}

const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20,
                output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 32 };

async function stream(res, body, reply, state) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `resp_${Date.now()}`;
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model ?? 'gpt-5', output: [] };
  sse(res, { type: 'response.created', response: { ...base, status: 'in_progress' } });
  await sleep(reply.first_delay_ms ?? 0);
  let item;
  if (reply.tool_call) {
    item = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: `call_${Date.now()}`,
             name: reply.tool_call.name ?? 'shell', arguments: JSON.stringify(reply.tool_call.input ?? {}) };
    sse(res, { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '' } });
    sse(res, { type: 'response.output_item.done', output_index: 0, item });
  } else {
    const text = reply.text ?? '';
    const msg = { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
    sse(res, { type: 'response.output_item.added', output_index: 0, item: msg });
    sse(res, { type: 'response.content_part.added', item_id: 'msg_1', output_index: 0, content_index: 0,
               part: { type: 'output_text', text: '', annotations: [] } });
    const words = splitWords(text);
    for (let i = 0; i < words.length; i++) {
      if (i > 0) await sleep(reply.word_delay_ms ?? 0);
      sse(res, { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: words[i] });
    }
    sse(res, { type: 'response.output_text.done', item_id: 'msg_1', output_index: 0, content_index: 0, text });
    item = { ...msg, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    sse(res, { type: 'response.output_item.done', output_index: 0, item });
  }
  sse(res, { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } });
  res.end();
  state.endTurn();
}

export const provider = {
  name: 'openai',
  matches(method, pathname) {
    return pathname.startsWith('/v1/responses') || pathname.startsWith('/v1/models');
  },
  async handle({ req, res, url, body, state, entry }) {
    if (url.pathname.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-5', object: 'model', owned_by: 'fake' }], models: [] }));
    }
    // The conversation offers tools; side calls (the task title) do not.
    entry.turn = offersTools(body);
    entry.prompt = lastUserText(body);
    if (!entry.turn) return stream(res, body, { text: 'Untitled task' }, { endTurn() {} });
    return stream(res, body, state.beginTurn(entry.prompt), state);
  },
};
