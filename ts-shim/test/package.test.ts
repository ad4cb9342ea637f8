// The npm packages as users get them: npm pack, install into a fresh project (ESM and
// CommonJS consumers), the platform packages npm/tuidriver-<platform>-<arch>, and the
// example VS Code extension packed into one .vsix per target.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT, tempDir } from './helpers';

const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];
// The consumer scripts must find the bundled binary, not one from the environment.
const { TUIDRIVER_BIN: _bin, TUIDRIVER_ENGINES: _engines, ...CLEAN_ENV } = process.env;

interface PackedFile { path: string; mode: number }

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', env: CLEAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
}

const HOST = `${process.platform}-${process.arch}`;
const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win32-x64'];
/** The binary's name in a target's package: tuidriver.exe on Windows. */
const exe = (target: string): string => (target.startsWith('win32-') ? 'tuidriver.exe' : 'tuidriver');

/** `npm pack` of the main package into `dir` (test.sh ran `npm run build`, the prepack step, already). */
function packMain(dir: string): { tarball: string; files: Map<string, number> } {
  const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as Array<{ filename: string; files: PackedFile[] }>;
  return { tarball: path.join(dir, packed[0]!.filename), files: new Map(packed[0]!.files.map((f) => [f.path, f.mode])) };
}

/** `npm pack --offline` of every platform package whose binary this machine built (the host's always). */
function packPlatforms(dir: string): Map<string, string> {
  const tarballs = new Map<string, string>();
  for (const target of TARGETS) {
    const pkgDir = path.join(ROOT, 'npm', `tuidriver-${target}`);
    if (!fs.existsSync(path.join(pkgDir, 'bin', exe(target)))) continue;
    const packed = JSON.parse(npm(['pack', '--offline', '--json', '--pack-destination', dir], pkgDir)) as Array<{ filename: string; files: PackedFile[] }>;
    const files = packed[0]!.files;
    assert.deepEqual(files.map((f) => f.path).sort(), [`bin/${exe(target)}`, 'package.json'], `tuidriver-${target} packs its binary only`);
    assert.equal(files.find((f) => f.path === `bin/${exe(target)}`)!.mode & 0o111, 0o111, `tuidriver-${target}: the binary is packed executable`);
    tarballs.set(target, path.join(dir, packed[0]!.filename));
  }
  assert.ok(tarballs.has(HOST), `npm/tuidriver-${HOST}/bin/tuidriver is missing: run npm run build`);
  return tarballs;
}

/** A .vsix is a zip: its entries and their modes, with Python's zipfile (no unzip needed). */
function zipListing(file: string): Record<string, number> {
  return JSON.parse(execFileSync('python3', ['-c',
    'import json,sys,zipfile; print(json.dumps({i.filename: i.external_attr >> 16 for i in zipfile.ZipFile(sys.argv[1]).infolist()}))', file],
  { encoding: 'utf8' })) as Record<string, number>;
}

test('npm pack, installed in a fresh project, used from ESM and CommonJS; the example extension as one .vsix per target', { timeout: 240_000 }, async (t) => {
  const dir = tempDir(t);

  // --- the tarball ---
  const { tarball, files } = packMain(dir);
  for (const f of ['package.json', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts', 'dist/index.d.mts', 'dist/session.js',
    'dist/kern-engines.js', 'dist/kern-engines.mjs', 'dist/kern-engines.d.ts', 'dist/kern-engines.d.mts',
    'engines/python.json', 'engines/bash.json', 'engines/claude.json']) {
    assert.ok(files.has(f), `${f} is not in the tarball`);
  }
  assert.equal(files.get('bin/linux-x64/tuidriver')! & 0o111, 0o111, 'the binary is packed executable');
  for (const f of files.keys()) assert.doesNotMatch(f, /^(ts-shim|tests|daemon|build)\//, `${f} should not be packed`);

  // --- a fresh project with nothing but the tarball ---
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  npm(['install', '--offline', ...NPM_QUIET, tarball], app);
  const installed = path.join(app, 'node_modules', 'tuidriver');
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  assert.equal(manifest.dependencies, undefined, 'zero runtime dependencies');
  // The binaries as optional dependencies, one per platform, in step with the package;
  // this install is offline and the platform packages are not published: npm skips them.
  assert.deepEqual(manifest.optionalDependencies, Object.fromEntries(TARGETS.map((t) => [`tuidriver-${t}`, manifest.version])));
  for (const s of ['preinstall', 'install', 'postinstall']) assert.equal(manifest.scripts?.[s], undefined, `no ${s} script`);
  assert.deepEqual(fs.readdirSync(path.join(app, 'node_modules')).filter((n) => !n.startsWith('.')), ['tuidriver']);

  fs.writeFileSync(path.join(app, 'esm.mjs'), `
    import { Session, TuiDriverError, findBinary } from 'tuidriver';
    import { createRequire } from 'node:module';
    import { PtyCliSession, PtySessionError } from 'tuidriver/kern-engines';
    const require = createRequire(import.meta.url);
    const cjs = require('tuidriver');
    const s = await Session.spawn('python');
    const answer = await s.ask('6*7');
    const exit = await s.close();
    const k = await PtyCliSession.spawn('python', { cols: 8000, rows: 2000 });
    const kern = await k.ask('6*7');
    await k.close();
    const sameClass = cjs.Session === Session && cjs.TuiDriverError === TuiDriverError &&
      require('tuidriver/kern-engines').PtySessionError === PtySessionError;
    console.log(JSON.stringify({ answer, exit, kern, binary: findBinary(), sameClass }));
  `);
  fs.writeFileSync(path.join(app, 'cjs.cjs'), `
    const { Session, findBinary } = require('tuidriver');
    const { PtyCliSession } = require('tuidriver/kern-engines');
    (async () => {
      const s = await Session.spawn('bash');
      const answer = await s.ask('echo $((6*7))');
      const exit = await s.close();
      const k = await PtyCliSession.spawn('bash');
      const kern = await k.ask('echo $((6*7))');
      await k.close();
      console.log(JSON.stringify({ answer, exit, kern, binary: findBinary() }));
    })().catch((e) => { console.error(e); process.exit(1); });
  `);
  // README's JavaScript example, run as it is on this Node (the oldest the package claims, in CI).
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const example = /```js\n(import \{ Session, TuiDriverError \} from 'tuidriver';[\s\S]*?)```/.exec(readme);
  assert.ok(example, 'README has its JavaScript example');
  fs.writeFileSync(path.join(app, 'readme-example.mjs'), example[1]!);
  const exampleOut = execFileSync(process.execPath, ['readme-example.mjs'], { cwd: app, env: CLEAN_ENV, encoding: 'utf8' });
  assert.equal(exampleOut, '42\n0\n1\n2\ncancelled\n');

  const bundled = path.join(installed, 'bin', 'linux-x64', 'tuidriver');
  for (const script of ['esm.mjs', 'cjs.cjs']) {
    const out = JSON.parse(execFileSync(process.execPath, [script], { cwd: app, env: CLEAN_ENV, encoding: 'utf8' })) as Record<string, unknown>;
    assert.equal(out.answer, '42', script);
    assert.equal(out.kern, '42', `${script}: tuidriver/kern-engines`);
    assert.deepEqual(out.exit, { exitCode: 0, signal: null }, script);
    assert.equal(out.binary, bundled, script);
    if (script === 'esm.mjs') assert.equal(out.sameClass, true, 'ESM and require share one Session class (and one PtySessionError)');
  }
  // The published types work for TypeScript consumers in both module systems.
  const typed = `import { Session, TuiDriverError, type ExitInfo } from 'tuidriver';
    import { PtyCliSession, PtySessionError, type SpawnOptions } from 'tuidriver/kern-engines';
    export async function f(): Promise<[string, ExitInfo, string | undefined]> {
      await using s = await Session.spawn('python', { cols: 80, readyTimeoutMs: 5000 });
      let last = '';
      for await (const d of s.askStream('1', { signal: AbortSignal.timeout(1000) })) last = d;
      const e = new TuiDriverError('timeout', 'x');
      return [await s.ask('2'), await s.close(), e.kind === 'timeout' ? last : undefined];
    }
    export async function g(opts: SpawnOptions): Promise<string> {
      const s = await PtyCliSession.spawn('python', opts);
      try {
        return await s.ask('1', 1000);
      } catch (e) {
        if (e instanceof PtySessionError && e.kind === 'timeout') return e.tuidriverKind;
        throw e;
      } finally {
        await s.close();
      }
    }\n`;
  fs.writeFileSync(path.join(app, 'typed.mts'), typed);
  fs.writeFileSync(path.join(app, 'typed.cts'), typed);
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict',
    '--module', 'node16', '--target', 'es2022', '--lib', 'es2022,esnext.disposable', '--types', 'node',
    '--typeRoots', path.join(ROOT, 'node_modules', '@types'), 'typed.mts', 'typed.cts'], { cwd: app, encoding: 'utf8' });

  // The packaged binary finds the package's engines/ by itself.
  assert.match(execFileSync(bundled, ['--list-engines'], { env: CLEAN_ENV, encoding: 'utf8' }), /python/);

  // --- the example extension: one .vsix per target (examples/vscode-extension/package-targets.sh) ---
  const platformTarballs = packPlatforms(dir);
  const ext = path.join(dir, 'ext');
  fs.cpSync(path.join(ROOT, 'examples', 'vscode-extension'), ext, { recursive: true, filter: (src) => !/node_modules|\.vsix$/.test(src) });
  execFileSync('bash', [path.join(ext, 'package-targets.sh'), dir], {
    cwd: ext, env: { ...CLEAN_ENV, VSCE: path.join(ROOT, 'node_modules', '.bin', 'vsce') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.diagnostic(`.vsix built for ${[...platformTarballs.keys()].join(', ')}`);
  const pkg = 'extension/node_modules/tuidriver/';
  for (const target of platformTarballs.keys()) {
    const listing = zipListing(path.join(ext, `tuidriver-example-${target}.vsix`));
    for (const f of ['extension/extension.js', 'extension/package.json', `${pkg}dist/index.js`, `${pkg}engines/python.json`, `${pkg}engines/bash.json`]) {
      assert.ok(f in listing, `${target}: ${f} is not in the .vsix`);
    }
    assert.equal(listing[`extension/node_modules/tuidriver-${target}/bin/${exe(target)}`]! & 0o111, 0o111, `${target}: its binary is in the .vsix, executable`);
    const binaries = Object.keys(listing).filter((f) => /(^|\/)tuidriver(\.exe)?$/.test(f));
    assert.deepEqual(binaries, [`extension/node_modules/tuidriver-${target}/bin/${exe(target)}`], `${target}: its own binary only`);
    assert.ok(!Object.keys(listing).some((f) => f.startsWith(`${pkg}bin/`)), `${target}: the main package's bin/ is left out`);
    const vsixManifest = execFileSync('python3', ['-c', 'import sys,zipfile; print(zipfile.ZipFile(sys.argv[1]).read("extension.vsixmanifest").decode())',
      path.join(ext, `tuidriver-example-${target}.vsix`)], { encoding: 'utf8' });
    assert.match(vsixManifest, new RegExp(`TargetPlatform="${target}"`), `${target}: the .vsix says its target`);
  }
  const vsix = path.join(ext, `tuidriver-example-${HOST}.vsix`);

  // Run the extension from the unpacked .vsix against a small stand-in for the `vscode`
  // module (the real one exists only inside VS Code): its command must spawn Python,
  // show it through the pseudoterminal, and ask.
  const unpacked = path.join(dir, 'unpacked');
  execFileSync('python3', ['-c', 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', vsix, unpacked]);
  // Python's extractall drops file modes, as some unzippers do: the shim restores the bit.
  const vscodeStandIn = path.join(unpacked, 'extension', 'node_modules', 'vscode');
  fs.mkdirSync(vscodeStandIn);
  fs.writeFileSync(path.join(vscodeStandIn, 'index.js'), VSCODE_STAND_IN);
  const out = execFileSync(process.execPath, ['-e', DRIVE_EXTENSION], { cwd: path.join(unpacked, 'extension'), env: CLEAN_ENV, encoding: 'utf8' });
  const result = JSON.parse(out) as { info: string[]; errors: string[]; written: string; closedWith: unknown; output: string };
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.info, ['python: 42']);
  assert.equal(result.output, '>>> 6*7\n42\n', 'the Output channel has the question and its answer');
  assert.match(result.written, />>> /, 'the terminal panel shows the REPL');
  assert.match(result.written, /6\*7/, 'the panel mirrors the ask');
  assert.equal(result.closedWith, 0, 'deactivate closed the session and the panel heard of it');
});

test('the main package plus its platform package, from tarballs: the binary comes from the platform package', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const { tarball } = packMain(dir);
  const platformTarball = packPlatforms(dir).get(HOST)!;
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  npm(['install', '--offline', ...NPM_QUIET, tarball, platformTarball], app);
  const modules = path.join(app, 'node_modules');
  assert.deepEqual(fs.readdirSync(modules).filter((n) => !n.startsWith('.')).sort(), ['tuidriver', `tuidriver-${HOST}`]);
  // Without the main package's own binary, the platform package's is the only one there.
  fs.rmSync(path.join(modules, 'tuidriver', 'bin'), { recursive: true });
  const fromPackage = path.join(modules, `tuidriver-${HOST}`, 'bin', 'tuidriver');
  const emptyDir = path.join(dir, 'empty');
  fs.mkdirSync(emptyDir);
  const env = { ...CLEAN_ENV, PATH: `${emptyDir}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin` };
  fs.writeFileSync(path.join(app, 'use.cjs'), `
    const { Session, findBinary } = require('tuidriver');
    (async () => {
      const binary = findBinary();
      const s = await Session.spawn('python');   // the engines come from the main package
      const answer = await s.ask('6*7');
      await s.close();
      console.log(JSON.stringify({ binary, answer }));
    })().catch((e) => { console.log(JSON.stringify({ kind: e.kind, message: e.message })); });
  `);
  const run = () => JSON.parse(execFileSync(process.execPath, ['use.cjs'], { cwd: app, env, encoding: 'utf8' })) as Record<string, string>;
  assert.deepEqual(run(), { binary: fromPackage, answer: '42' });

  // The platform package without its binary, then not installed at all: the error names it.
  fs.rmSync(fromPackage);
  let out = run();
  assert.equal(out.kind, 'spawn');
  assert.ok(out.message!.includes(`${fromPackage} (tuidriver-${HOST}): not found`), out.message);
  fs.rmSync(path.join(modules, `tuidriver-${HOST}`), { recursive: true });
  out = run();
  assert.equal(out.kind, 'spawn');
  assert.ok(out.message!.includes(`tuidriver-${HOST} (platform package): not installed`), out.message);
  assert.ok(out.message!.includes(path.join(modules, 'tuidriver', 'bin', HOST, 'tuidriver') + ' (bundled): not found'), out.message);
});

test('the platform packages: os/cpu, their binary only, in step with the main package and its lock file', () => {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
  const main = read('package.json');
  const lockRoot = (read('package-lock.json').packages as Record<string, Record<string, unknown>>)['']!;
  const wanted = Object.fromEntries(TARGETS.map((t) => [`tuidriver-${t}`, main.version]));
  assert.deepEqual(main.optionalDependencies, wanted);
  assert.deepEqual(lockRoot.optionalDependencies, wanted, 'package-lock.json is in step (npm install --offline updates it)');
  assert.deepEqual(fs.readdirSync(path.join(ROOT, 'npm')).sort(), TARGETS.map((t) => `tuidriver-${t}`).sort());
  for (const target of TARGETS) {
    const p = read(path.join('npm', `tuidriver-${target}`, 'package.json'));
    const [os, cpu] = target.split('-');
    assert.equal(p.name, `tuidriver-${target}`);
    assert.equal(p.version, main.version, `tuidriver-${target} is at the main package's version`);
    assert.deepEqual([p.os, p.cpu], [[os], [cpu]], target);
    assert.deepEqual(p.files, [`bin/${exe(target)}`], target);
    assert.equal(p.dependencies, undefined, target);
  }
});

test('a platform package without its binary does not pack', (t) => {
  const dir = tempDir(t);
  fs.copyFileSync(path.join(ROOT, 'npm', 'tuidriver-darwin-x64', 'package.json'), path.join(dir, 'package.json'));
  assert.throws(() => npm(['pack', '--offline', '--dry-run'], dir),
    (e: unknown) => /bin\/tuidriver is missing: run npm run build:platforms/.test(String((e as { stderr?: string }).stderr)));
});

const VSCODE_STAND_IN = `
const commands = new Map();
const log = { info: [], errors: [], written: '', closedWith: 'open', output: '' };
module.exports = {
  __log: log,
  __commands: commands,
  commands: { registerCommand: (name, fn) => { commands.set(name, fn); return { dispose() { commands.delete(name); } }; } },
  workspace: { workspaceFolders: undefined },
  window: {
    createTerminal({ pty }) {
      pty.onDidWrite((d) => { log.written += d; });
      pty.onDidClose((code) => { log.closedWith = code; });
      pty.open({ columns: 100, rows: 30 });
      return { show() {}, dispose() { pty.close(); }, exitStatus: undefined };
    },
    createOutputChannel: () => ({ appendLine(l) { log.output += l + '\\n'; }, show() {}, dispose() {} }),
    showInputBox: async ({ value }) => value,
    showInformationMessage: (m) => { log.info.push(m); },
    showErrorMessage: (m) => { log.errors.push(m); },
  },
};
`;

const DRIVE_EXTENSION = `
const vscode = require('vscode');
const ext = require('./extension.js');
const manifest = require('./package.json');
(async () => {
  const context = { subscriptions: [] };
  ext.activate(context);
  await vscode.__commands.get(manifest.contributes.commands[0].command)();
  // Let the mirrored echo of the ask reach the panel.
  for (let i = 0; i < 200 && !vscode.__log.written.includes('42'); i++) await new Promise((r) => setTimeout(r, 20));
  await ext.deactivate();
  console.log(JSON.stringify(vscode.__log));
})().catch((e) => { console.error(e); process.exit(1); });
`;
