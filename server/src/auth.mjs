// The bearer token both servers check, and the browser origin check.
import { createHash, timingSafeEqual } from 'node:crypto';

/** The page's cookie (tuidriver-serve sets it from /?token=). */
export const COOKIE = 'tuidriver_token';

/** Checks a request's token: `Authorization: Bearer T`, else `?token=T`, else the page's cookie. */
export function makeAuth(token) {
  const want = createHash('sha256').update(token).digest();
  const same = (t) => typeof t === 'string' && timingSafeEqual(createHash('sha256').update(t).digest(), want);
  return (req, url) => {
    const h = req.headers.authorization;
    if (typeof h === 'string') return h.startsWith('Bearer ') && same(h.slice(7).trim());
    const q = url.searchParams.get('token');
    if (q !== null) return same(q);
    const c = parseCookies(req.headers.cookie)[COOKIE];
    return c !== undefined && same(c);
  };
}

function parseCookies(header) {
  const out = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    try {
      out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      /* a malformed cookie is no token */
    }
  }
  return out;
}


/**
 * Whether a request may come from its page: no `Origin` (not a browser) or this server's
 * own pages. A page elsewhere must not ride on the cookie or reach a loopback server.
 */
export function sameOrigin(req) {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
