import * as fs from 'node:fs';
import * as path from 'node:path';
import { TuiDriverError } from './errors';

export interface FindBinaryOptions {
  /** An explicit path; when set, nothing else is tried. */
  binaryPath?: string;
  /** The environment that supplies `TUIDRIVER_BIN` and `PATH` (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** `linux-x64`, `darwin-arm64`, ...: the folder under `bin/` that holds this platform's binary. */
export function platformKey(): string {
  return `${process.platform}-${process.arch}`;
}

const EXE = process.platform === 'win32' ? 'tuidriver.exe' : 'tuidriver';

/**
 * Where the package's own binary may be, relative to this module's folder (`dist/`):
 * the package layout, a bundler that copied `bin/` next to its output, and a source
 * checkout that was built with CMake but not packed.
 */
export function bundledCandidates(moduleDir: string = __dirname): string[] {
  const key = platformKey();
  return [
    path.join(moduleDir, '..', 'bin', key, EXE),
    path.join(moduleDir, 'bin', key, EXE),
    path.join(moduleDir, '..', 'build', EXE),
  ];
}

/** The npm package that carries this platform's binary: `tuidriver-linux-arm64`, ... */
export function platformPackage(): string {
  return `tuidriver-${platformKey()}`;
}

/** The binary inside the installed platform package, or why there is none. */
function platformPackageBinary(): { file?: string; why: string } {
  try {
    const pkgJson = require.resolve(`${platformPackage()}/package.json`);
    return { file: path.join(path.dirname(pkgJson), 'bin', EXE), why: '' };
  } catch {
    return { why: 'not installed' };
  }
}

/**
 * The environment to start `bin` with. A binary from the platform package sits in
 * `node_modules/tuidriver-<platform>-<arch>/bin/`, where it cannot find the main package's
 * `engines/` by itself, so `TUIDRIVER_ENGINES` names them (unless the caller set it).
 */
export function daemonEnv(bin: string, env: NodeJS.ProcessEnv, moduleDir: string = __dirname): NodeJS.ProcessEnv {
  if (env.TUIDRIVER_ENGINES || bin !== platformPackageBinary().file) return env;
  for (const dir of [path.join(moduleDir, '..', 'engines'), path.join(moduleDir, 'engines')]) {
    if (fs.existsSync(dir)) return { ...env, TUIDRIVER_ENGINES: dir };
  }
  return env;
}

type Check = { ok: true } | { ok: false; why: string };

function checkExecutable(file: string, fixMode: boolean): Check {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return { ok: false, why: 'not found' };
  }
  if (!st.isFile()) return { ok: false, why: 'not a file' };
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return { ok: true };
  } catch {
    // Some unpackers (zip-based ones in particular) drop the executable bit.
    if (fixMode) {
      try {
        fs.chmodSync(file, st.mode | 0o111);
        fs.accessSync(file, fs.constants.X_OK);
        return { ok: true };
      } catch {
        /* fall through */
      }
    }
    return { ok: false, why: 'not executable' };
  }
}

/**
 * Finds the tuidriver binary: the `binaryPath` option, then `TUIDRIVER_BIN`, then the
 * binary bundled with this package (the platform package `tuidriver-<platform>-<arch>`,
 * then `bin/<platform>-<arch>/` inside this one), then `tuidriver` on `PATH`. Throws a `spawn`
 * TuiDriverError that lists every place it looked.
 */
export function findBinary(opts: FindBinaryOptions = {}): string {
  const env = opts.env ?? process.env;
  if (opts.binaryPath !== undefined) {
    const file = path.resolve(opts.binaryPath);
    const c = checkExecutable(file, false);
    if (c.ok) return file;
    throw new TuiDriverError('spawn', `tuidriver binary not usable: binaryPath option ${file}: ${c.why}`);
  }
  if (env.TUIDRIVER_BIN) {
    const file = path.resolve(env.TUIDRIVER_BIN);
    const c = checkExecutable(file, false);
    if (c.ok) return file;
    throw new TuiDriverError('spawn', `tuidriver binary not usable: TUIDRIVER_BIN=${file}: ${c.why}`);
  }
  const looked: string[] = ['binaryPath option: not set', 'TUIDRIVER_BIN: not set'];
  const fromPackage = platformPackageBinary();
  if (fromPackage.file) {
    const c = checkExecutable(fromPackage.file, true);
    if (c.ok) return fromPackage.file;
    looked.push(`${fromPackage.file} (${platformPackage()}): ${c.why}`);
  } else {
    looked.push(`${platformPackage()} (platform package): ${fromPackage.why}`);
  }
  for (const file of bundledCandidates()) {
    const c = checkExecutable(file, true);
    if (c.ok) return file;
    looked.push(`${file} (bundled): ${c.why}`);
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  for (const dir of dirs) {
    const file = path.resolve(dir, EXE);
    const c = checkExecutable(file, false);
    if (c.ok) return file;
    looked.push(`${file} (PATH): ${c.why}`);
  }
  if (dirs.length === 0) looked.push('PATH: empty');
  throw new TuiDriverError(
    'spawn',
    `tuidriver binary not found for ${platformKey()}; looked in:\n  ${looked.join('\n  ')}`,
  );
}
