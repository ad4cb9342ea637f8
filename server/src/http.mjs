// HTTP helpers shared by the MCP endpoint (mcp.mjs) and the REST server (serve.mjs):
// reading a JSON body, and the answers to a caller without the token.

/**
 * OAuth discovery (/.well-known/oauth-*) finds nothing here, so a client without the
 * token reports the 401 instead of starting a login. True when it answered.
 */
export function noOAuth(req, res, url) {
  if (!url.pathname.startsWith('/.well-known/')) return false;
  res.writeHead(404, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: 'no OAuth here: send the token as Authorization: Bearer TOKEN' }));
  return true;
}

/**
 * A plain 401: `WWW-Authenticate: Bearer` without a resource_metadata link, so a client
 * asks its user for the token instead of starting OAuth discovery.
 */
export function unauthorized(res) {
  res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
    .end(JSON.stringify({ error: 'missing or wrong token: send Authorization: Bearer TOKEN' }));
}

/** Reads a JSON request body of at most `max` bytes; errors carry an HTTP `status`. */
export function readJson(req, max) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    let failed = false;
    req.on('data', (c) => {
      if (failed) return;
      size += c.length;
      if (size > max) {
        failed = true;
        reject(Object.assign(new Error(`request body over ${max} bytes`), { status: 413 }));
        req.resume();
        return;
      }
      parts.push(c);
    });
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(parts).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(Object.assign(new Error('the request body is not valid JSON'), { status: 400 }));
      }
    });
    req.on('error', (e) => {
      if (!failed) reject(Object.assign(e, { status: 400 }));
    });
  });
}
