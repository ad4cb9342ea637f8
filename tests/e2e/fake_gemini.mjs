// The Gemini API, as far as the Gemini CLI needs it:
//   POST /v1beta/models/M:streamGenerateContent?alt=sse  conversation turns, SSE
//   POST /v1beta/models/M:generateContent                side calls (routing,
//        next-speaker checks) that want JSON shaped by the request's schema
//   POST /v1beta/models/M:countTokens, GET /v1beta/models[/M]
// A streamed request that offers tools is a conversation turn and takes the
// next scripted reply; side calls never consume the script.
import { splitWords, sleep } from './fake_api.mjs';

const usage = { promptTokenCount: 12, candidatesTokenCount: 20, totalTokenCount: 32 };

function modelOf(pathname) {
  const m = pathname.match(/\/models\/([^/:]+)/);
  return m ? decodeURIComponent(m[1]) : 'gemini-2.5-pro';
}

function methodOf(pathname) {
  const i = pathname.lastIndexOf(':');
  return i < 0 ? '' : pathname.slice(i + 1);
}

function partsText(parts) {
  return (Array.isArray(parts) ? parts : []).filter((p) => typeof p.text === 'string').map((p) => p.text).join('');
}

// The user's words in the last user message that carries text (function
// responses travel as user messages without text). The first message also
// carries the CLI's <session_context> part, which is not the user's.
function lastUserText(body) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  for (let i = contents.length - 1; i >= 0; i--) {
    if (contents[i].role !== 'user') continue;
    const parts = (Array.isArray(contents[i].parts) ? contents[i].parts : [])
      .filter((p) => typeof p.text === 'string' && !p.text.startsWith('<session_context>'));
    const text = partsText(parts);
    if (text) return text;
  }
  return '';
}

function isFunctionResponse(body) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  const last = contents[contents.length - 1];
  const parts = Array.isArray(last?.parts) ? last.parts : [];
  return parts.length > 0 && parts.every((p) => p.functionResponse);
}

function offersTools(body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools.some((t) => Array.isArray(t.functionDeclarations) && t.functionDeclarations.length > 0);
}

// A value that fits a schema (Gemini's OpenAPI-style `responseSchema`, with
// upper-case types, or a JSON Schema in `responseJsonSchema`). Side calls
// must get valid JSON, and some answers steer the CLI: the next speaker is
// always the user, so the CLI never continues a turn by itself.
function valueFor(schema, name) {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema.anyOf) && schema.anyOf.length) return valueFor(schema.anyOf[0], name);
  if (Array.isArray(schema.enum) && schema.enum.length) {
    if (name === 'next_speaker' && schema.enum.includes('user')) return 'user';
    return schema.enum[0];
  }
  const type = String(Array.isArray(schema.type) ? schema.type[0] : schema.type ?? '').toLowerCase();
  if (type === 'object' || schema.properties) {
    const out = {};
    for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = valueFor(sub, key);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (name === 'next_speaker') return 'user';
  return 'fake';
}

function schemaOf(body) {
  const cfg = body?.generationConfig ?? body?.config ?? {};
  return cfg.responseJsonSchema ?? cfg.responseSchema ?? null;
}

function sideCallText(body) {
  const schema = schemaOf(body);
  return schema ? JSON.stringify(valueFor(schema, '')) : 'OK';
}

function chunk(model, parts, finish) {
  const candidate = { content: { role: 'model', parts }, index: 0 };
  if (finish) candidate.finishReason = 'STOP';
  const out = { candidates: [candidate], modelVersion: model };
  if (finish) out.usageMetadata = usage;
  return out;
}

function sse(res, data) {
  res.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
}

async function stream(res, model, reply, state) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  await sleep(reply.first_delay_ms ?? 0);
  if (reply.tool_call) {
    const call = { name: reply.tool_call.name, args: reply.tool_call.input ?? {} };
    sse(res, chunk(model, [{ functionCall: call }], true));
  } else {
    const words = splitWords(reply.text ?? '');
    if (words.length === 0) words.push('');
    for (let i = 0; i < words.length; i++) {
      if (i > 0) await sleep(reply.word_delay_ms ?? 0);
      sse(res, chunk(model, [{ text: words[i] }], i === words.length - 1));
    }
  }
  res.end();
  state.endTurn();
}

function sendJson(res, value) {
  const body = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export const provider = {
  name: 'gemini',
  matches(method, pathname) {
    return /^\/v1(beta|alpha)?\/models/.test(pathname);
  },
  async handle({ res, url, body, state, entry }) {
    const model = modelOf(url.pathname);
    const method = methodOf(url.pathname);
    if (!method) {
      const info = { name: `models/${model}`, displayName: model, inputTokenLimit: 1048576, outputTokenLimit: 65536,
                     supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] };
      if (/\/models\/?$/.test(url.pathname)) return sendJson(res, { models: [{ ...info, name: 'models/gemini-2.5-pro' }] });
      return sendJson(res, info);
    }
    if (method === 'countTokens') return sendJson(res, { totalTokens: 42 });
    if (method === 'embedContent') return sendJson(res, { embedding: { values: [0, 0, 0] } });
    if (method === 'batchEmbedContents') {
      return sendJson(res, { embeddings: (body?.requests ?? []).map(() => ({ values: [0, 0, 0] })) });
    }
    entry.prompt = lastUserText(body);
    if (method === 'streamGenerateContent') {
      entry.turn = offersTools(body) && !isFunctionResponse(body);
      let reply;
      if (entry.turn) reply = state.beginTurn(entry.prompt);
      else if (isFunctionResponse(body)) reply = state.afterTool();
      else reply = { text: sideCallText(body) };
      return stream(res, model, reply, entry.turn ? state : { endTurn() {} });
    }
    if (method === 'generateContent') {
      return sendJson(res, chunk(model, [{ text: sideCallText(body) }], true));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ error: { code: 404, message: `fake_gemini: no method ${method}` } }));
  },
};
