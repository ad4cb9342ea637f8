// The instance name: which tuidriver-serve (or tuidriver-mcp) holds a session. Every
// session id and MCP session id starts with it (`NAME.hex`), so a router in front of
// several instances sends each request to the one that holds its session
// (docs/scaling.md). Names are DNS labels, so that a pod's hostname in a StatefulSet
// (`tuidriver-0`) is one as it is.
import { hostname } from 'node:os';

/** A valid instance name: a DNS label, lowercase. */
export const INSTANCE_RE = /^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/;

/** This host's name as an instance name: its first label, lowercased, other characters as `-`. */
export function defaultInstance(host = hostname()) {
  const name = host.split('.')[0].toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32).replace(/-+$/, '');
  return INSTANCE_RE.test(name) ? name : 'local';
}

/** The instance an id names (`NAME.rest`), or null for an id without one (ids before instances). */
export function instanceOf(id) {
  const dot = id.indexOf('.');
  return dot > 0 ? id.slice(0, dot) : null;
}

/**
 * A request's `?instance=NAME` (how a router is told where a request without a session
 * id in its path goes: /ws, /mcp, GET /sessions) when it names another instance: the
 * sentence saying so (a 421), else null. Misrouting fails loudly instead of landing
 * on sessions that are not the ones asked for.
 */
export function misdirected(url, instance) {
  const want = url.searchParams.get('instance');
  if (want === null || want === instance) return null;
  return `this is instance ${instance}, not ${want}: the router sent this request to the wrong instance`;
}
