// The bearer token both servers check.
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

