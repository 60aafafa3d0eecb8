import { expect, test } from 'vitest';
import { defaultUserAgent } from '../../src/transport/user-agent.js';
import { PACKAGE_VERSION } from '../helpers/api-server.js';

const sdk = `merchant-wallet/${PACKAGE_VERSION}`;

test.each([
  ['Node', { process: { versions: { node: '20.20.2' } } }, `${sdk} node/20.20.2`],
  ['Bun', { process: { versions: { node: '22.6.0', bun: '1.2.3' } } }, `${sdk} bun/1.2.3`],
  [
    'Deno',
    { Deno: { version: { deno: '2.1.4' } }, process: { versions: { node: '22.0.0' } } },
    `${sdk} deno/2.1.4`,
  ],
  ['a worker runtime', { navigator: { userAgent: 'Cloudflare-Workers' } }, sdk],
])('on %s the user-agent names the SDK version and the runtime', (_runtime, globals, expected) => {
  expect(defaultUserAgent(globals)).toBe(expected);
});

test('in a browser no user-agent is set, since the browser owns that header', () => {
  const browser = { navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' } };

  expect(defaultUserAgent(browser)).toBeUndefined();
});

test('the default user-agent of this process carries the package.json version', () => {
  expect(defaultUserAgent()).toBe(`${sdk} node/${process.versions.node}`);
});
