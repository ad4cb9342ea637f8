import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TuiDriverError, type TuiDriverErrorKind } from 'tuidriver';

/** The repository (and package) root: dist-test/ sits right under it. */
export const ROOT = path.resolve(__dirname, '..');

export function tempDir(t: { after(fn: () => void): void }, prefix = 'tuidriver-shim-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Asserts that `p` rejects with a TuiDriverError of `kind`, and returns it. */
export async function rejectsWith(p: Promise<unknown>, kind: TuiDriverErrorKind): Promise<TuiDriverError> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof TuiDriverError)) throw new Error(`expected a TuiDriverError (${kind}), got ${String(e)}`);
    if (e.kind !== kind) throw new Error(`expected kind ${kind}, got ${e.kind}: ${e.message}`);
    return e;
  }
  throw new Error(`expected a rejection with kind ${kind}, but it resolved`);
}
