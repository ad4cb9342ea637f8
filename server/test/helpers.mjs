import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN_MCP = path.join(SERVER_DIR, 'bin', 'tuidriver-mcp.mjs');
export const BIN_SERVE = path.join(SERVER_DIR, 'bin', 'tuidriver-serve.mjs');

/** Resolves with the first line of `stream` that matches `re`. */
export function waitForLine(stream, re) {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => {
      buf += d;
      for (const line of buf.split('\n')) {
        if (re.test(line)) {
          stream.off('data', onData);
          resolve(line);
          return;
        }
      }
    };
    stream.on('data', onData);
    stream.on('end', () => reject(new Error(`stream ended before a line matched ${re}:\n${buf}`)));
  });
}

/** The MCP SDK's own client on a fresh `tuidriver-mcp` over stdio, closed after test `t`. */
export async function stdioClient(t) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'server-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN_MCP], stderr: 'ignore' }));
  t.after(() => client.close());
  return client;
}

/** callTool that throws on isError; returns structuredContent and the text content. */
export function caller(client) {
  return async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name} failed: ${r.content?.[0]?.text}`);
    return { ...r.structuredContent, text: r.content[0].text };
  };
}
