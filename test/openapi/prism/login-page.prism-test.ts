import { afterAll, beforeAll, expect, test } from 'vitest';
import { UPSTREAM_HEADER } from '../../../scripts/prism/upstream-switch.js';
import { createSandbox, type Sandbox, startSandboxServer } from '../../../src/testing/index.js';

// Run by scripts/openapi-prism.ts through Prism's validation proxy. The document puts the login page
// at `/login` on a server of its own (the auth URL), so its requests go to the sandbox's auth URL.
const proxyUrl = process.env.MW_PRISM_PROXY_URL;
if (proxyUrl === undefined) throw new Error('run through npm run test:contract, which starts the proxy');

let sandbox: Sandbox;
let server: Awaited<ReturnType<typeof startSandboxServer>>;
beforeAll(async () => {
  sandbox = createSandbox();
  server = await startSandboxServer({ sandbox });
});
afterAll(async () => {
  sandbox.close();
  await server.close();
});

const open = (query: string) =>
  fetch(`${proxyUrl}/login?${query}`, { headers: { [UPSTREAM_HEADER]: server.authUrl } });

test('the login page opens with app_id and redirect_url, as an HTML page', async () => {
  const page = await open('app_id=app_demo_shop&redirect_url=https%3A%2F%2Fshop.example%2Fdone');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await page.text()).toContain('app_demo_shop');
});

test('a login link naming no known application gets an HTML page saying so', async () => {
  const page = await open('app_id=app_nobody&redirect_url=https%3A%2F%2Fshop.example%2Fdone');
  expect(page.status).toBe(400);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
});
