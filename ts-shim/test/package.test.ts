// The npm package as users get it: npm pack, install into a fresh project (ESM and
// CommonJS consumers), and the example VS Code extension packed into a .vsix.
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

test('npm pack, installed in a fresh project, used from ESM and CommonJS; the example extension as a .vsix', { timeout: 240_000 }, async (t) => {
  const dir = tempDir(t);

  // --- the tarball ---
  // test.sh ran `npm run build` (the prepack step) already; do not rebuild while other tests run.
  const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as Array<{ filename: string; files: PackedFile[] }>;
  const tarball = path.join(dir, packed[0]!.filename);
  const files = new Map(packed[0]!.files.map((f) => [f.path, f.mode]));
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

  // --- the example extension, packed by vsce ---
  const ext = path.join(dir, 'ext');
  fs.cpSync(path.join(ROOT, 'examples', 'vscode-extension'), ext, { recursive: true, filter: (src) => !/node_modules|\.vsix$/.test(src) });
  npm(['install', '--offline', ...NPM_QUIET, tarball], ext);
  const vsce = path.join(ROOT, 'node_modules', '.bin', 'vsce');
  const vsix = path.join(dir, 'example.vsix');
  execFileSync(vsce, ['package', '--target', 'linux-x64', '--skip-license', '--allow-missing-repository', '-o', vsix],
    { cwd: ext, env: CLEAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });

  // A .vsix is a zip: list it with Python's zipfile (no unzip needed), modes included.
  const listing = JSON.parse(execFileSync('python3', ['-c',
    'import json,sys,zipfile; print(json.dumps({i.filename: i.external_attr >> 16 for i in zipfile.ZipFile(sys.argv[1]).infolist()}))', vsix],
  { encoding: 'utf8' })) as Record<string, number>;
  const pkg = 'extension/node_modules/tuidriver/';
  for (const f of ['extension/extension.js', 'extension/package.json', `${pkg}dist/index.js`, `${pkg}engines/python.json`, `${pkg}engines/bash.json`]) {
    assert.ok(f in listing, `${f} is not in the .vsix`);
  }
  assert.equal(listing[`${pkg}bin/linux-x64/tuidriver`]! & 0o111, 0o111, 'the binary is in the .vsix, executable');

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
  const result = JSON.parse(out) as { info: string[]; errors: string[]; written: string; closedWith: unknown };
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.info, ['python: 42']);
  assert.match(result.written, />>> /, 'the terminal panel shows the REPL');
  assert.match(result.written, /6\*7/, 'the panel mirrors the ask');
  assert.equal(result.closedWith, 0, 'deactivate closed the session and the panel heard of it');
});

const VSCODE_STAND_IN = `
const commands = new Map();
const log = { info: [], errors: [], written: '', closedWith: 'open' };
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
      return { show() {} };
    },
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
