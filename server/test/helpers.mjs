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
