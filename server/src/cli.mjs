// Command-line parsing shared by the two bins: clear errors, no surprises.
import { parseArgs } from 'node:util';
import { INSTANCE_RE, defaultInstance } from './instance.mjs';

/**
 * Parses argv with `options` (node:util parseArgs shape) and prints `usage` on --help.
 * Exits 2 with a message on bad input.
 */
export function parseCli(argv, options, usage) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (e) {
    fail(`${e.message}\n\n${usage}`);
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed.values;
}

/** `value` as an integer in [min, max], or exit 2 naming the option. */
export function intOption(name, value, min, max) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) fail(`--${name} must be an integer from ${min} to ${max}, not "${value}"`);
  return n;
}

/**
 * `--warm ENGINE=N` values as [engine, n] pairs (n from 1 to 16), or exit 2
 * naming the bad one. An engine named twice is refused too.
 */
export function warmOption(values = []) {
  const pairs = new Map();
  for (const v of values) {
    const m = /^([A-Za-z0-9_.-]{1,64})=(\d{1,2})$/.exec(v);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 16) fail(`--warm takes ENGINE=N with N from 1 to 16 (e.g. --warm claude=2), not "${v}"`);
    if (pairs.has(m[1])) fail(`--warm names ${m[1]} twice`);
    pairs.set(m[1], Number(m[2]));
  }
  return [...pairs];
}

export function fail(msg) {
  process.stderr.write(`${msg}\n`);
  process.exit(2);
}

/**
 * `--instance NAME` (else `$TUIDRIVER_INSTANCE`, else this host's name): the name every
 * session id starts with (docs/scaling.md), or exit 2 when it is no DNS label.
 */
export function instanceOption(value = process.env.TUIDRIVER_INSTANCE || undefined) {
  if (value === undefined) return defaultInstance();
  if (!INSTANCE_RE.test(value)) fail(`--instance must be a DNS label (a-z, 0-9 and -, 1 to 32 characters, no - at either end), not "${value}"`);
  return value;
}
