// Instance names (src/instance.mjs): the default from the host, ids naming their instance,
// and a request that a router sent to the wrong instance.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { INSTANCE_RE, defaultInstance, instanceOf, misdirected } from '../src/instance.mjs';
import { SessionManager } from '../src/sessions.mjs';

test('defaultInstance: the host\'s first label as a DNS label; a name with nothing usable is "local"', () => {
  assert.equal(defaultInstance('tuidriver-0'), 'tuidriver-0'); // a StatefulSet pod's hostname, as it is
  assert.equal(defaultInstance('Build_Box.example.com'), 'build-box');
  assert.equal(defaultInstance('-x-'), 'x');
  assert.equal(defaultInstance('a'.repeat(40) + '-b'), 'a'.repeat(32));
  assert.equal(defaultInstance('___'), 'local');
  assert.match(defaultInstance(), INSTANCE_RE);
});

test('INSTANCE_RE: lowercase DNS labels of 1 to 32 characters, no dot (it ends the name in an id)', () => {
  for (const ok of ['a', 'a1', 'serve-2', 'x'.repeat(32)]) assert.match(ok, INSTANCE_RE);
  for (const bad of ['', 'A', '-a', 'a-', 'a.b', 'a_b', 'x'.repeat(33)]) assert.doesNotMatch(bad, INSTANCE_RE);
});

test('instanceOf: the name before the first dot; ids from before instances name none', () => {
  assert.equal(instanceOf('serve-2.0123456789ab'), 'serve-2');
  assert.equal(instanceOf('0123456789ab'), null);
  assert.equal(instanceOf('.abc'), null);
});

test('misdirected: only ?instance naming another instance', () => {
  assert.equal(misdirected(new URL('http://x/ws'), 'a'), null);
  assert.equal(misdirected(new URL('http://x/ws?instance=a'), 'a'), null);
  assert.match(misdirected(new URL('http://x/ws?instance=b'), 'a'), /this is instance a, not b/);
});

test('SessionManager: ids are INSTANCE.hex; an id of another instance is refused naming it', () => {
  const mgr = new SessionManager({ instance: 'alpha' });
  assert.equal(mgr.instance, 'alpha');
  assert.throws(() => mgr.get('beta.0123456789ab'), { code: 'not_found', message: /held by instance beta, not by this one \(alpha\)/ });
  assert.throws(() => mgr.get('alpha.0123456789ab'), { code: 'not_found', message: /unknown session_id/ });
  assert.throws(() => mgr.get('0123456789ab'), { code: 'not_found', message: /unknown session_id/ });
  assert.throws(() => mgr.get('a/b'), { code: 'bad_request' });
});
