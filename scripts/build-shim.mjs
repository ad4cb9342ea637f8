// Builds the npm package: compiles ts-shim/ to dist/ and copies the static daemon
// (build/tuidriver, from scripts/build.sh) to bin/<platform>-<arch>/ and to this
// platform's package npm/tuidriver-<platform>-<arch>/bin/. Runs as `prepack`.
// TUIDRIVER_BUILD_DIR picks another build directory.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) {
  console.error('build-shim: TypeScript is missing; run npm ci first');
  process.exit(1);
}
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'ts-shim')], { stdio: 'inherit' });

const built = join(root, process.env.TUIDRIVER_BUILD_DIR ?? 'build', 'tuidriver');
if (!existsSync(built)) {
  console.error(`build-shim: ${built} is missing; run scripts/build.sh first`);
  process.exit(1);
}
const dest = join(root, 'bin', `${process.platform}-${process.arch}`);
mkdirSync(dest, { recursive: true });
copyFileSync(built, join(dest, 'tuidriver'));
chmodSync(join(dest, 'tuidriver'), 0o755);
// Symbols are a third of the binary and of no use to the package's users.
try {
  execFileSync('strip', ['--strip-unneeded', join(dest, 'tuidriver')]);
} catch {
  console.warn('build-shim: strip failed or is missing; the binary keeps its symbols');
}
// The Linux binaries ship fully static (docs/platforms.md): no loader, no shared library.
if (process.platform === 'linux') {
  const headers = execFileSync('readelf', ['-lW', '-d', join(dest, 'tuidriver')], { encoding: 'utf8' });
  if (/INTERP|NEEDED/.test(headers)) {
    console.error(`build-shim: ${built} is not fully static (readelf shows INTERP or NEEDED); build it with scripts/build.sh`);
    rmSync(join(dest, 'tuidriver'));
    process.exit(1);
  }
}
// The checkout links its own platform package (package-lock.json), and the shim looks
// there first: give it the same binary, so no older one from build:platforms is used.
const pkg = join(root, 'npm', `tuidriver-${process.platform}-${process.arch}`);
if (existsSync(pkg)) {
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  copyFileSync(join(dest, 'tuidriver'), join(pkg, 'bin', 'tuidriver'));
  chmodSync(join(pkg, 'bin', 'tuidriver'), 0o755);
}
console.log(`build-shim: dist/, ${join('bin', `${process.platform}-${process.arch}`, 'tuidriver')}` +
  (existsSync(pkg) ? ` and ${join('npm', `tuidriver-${process.platform}-${process.arch}`, 'bin', 'tuidriver')}` : ''));
