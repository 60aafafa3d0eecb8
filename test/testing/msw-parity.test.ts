import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createSandbox,
  defaultSandboxSeed,
  type Sandbox,
  type SandboxServer,
  sandboxHandlers,
  startSandboxServer,
} from '../../src/testing/index.js';

const MSW_URLS = { baseUrl: 'https://wallet.test', authUrl: 'https://wallet.test/auth' };
const KEY = 'sk_sandbox_demo_shop';
const JSON_TYPE = 'application/json';

interface Step {
  method: string;
  path: string;
  auth?: boolean;
  headers?: Record<string, string>;
  body?: string;
  fault?: Parameters<Sandbox['faults']['inject']>[0];
}

const json = (value: unknown) => JSON.stringify(value);
const steps: Step[] = [
  {
    method: 'GET',
    path: '/merchants/accounts/providers',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob' },
  },
  { method: 'GET', path: '/merchants/accounts/providers', headers: { 'x-api-key': KEY } },
  { method: 'GET', path: '/merchants/accounts/providers', headers: {} },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_alice', 'content-type': JSON_TYPE },
    body: json({ reference_id: 'p-1', amount: 10, currency: 'KES' }),
  },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_alice', 'content-type': JSON_TYPE },
    body: json({ reference_id: 'p-1', amount: 10, currency: 'KES' }),
  },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob', 'content-type': JSON_TYPE },
    body: json({ reference_id: 'p-2', amount: 900, currency: 'KES', payment_provider: 'mpesa' }),
  },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob', 'content-type': JSON_TYPE },
    body: json({ reference_id: 'p-3', amount: 900, currency: 'KES', payment_provider: 'flakypay' }),
  },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob', 'content-type': JSON_TYPE },
    body: '{bad json',
  },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob', 'content-type': 'text/plain' },
    body: '{}',
  },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob', 'content-type': JSON_TYPE },
    body: json({ pad: 'x'.repeat(70_000) }),
  },
  {
    method: 'POST',
    path: '/merchants/transactions/b2c',
    headers: { 'x-api-key': KEY, 'content-type': JSON_TYPE },
    body: json({
      email: 'bob@example.com',
      amount: 25,
      currency: 'KES',
      reference_id: 'p-4',
      payment_provider: 'mpesa',
    }),
  },
  {
    method: 'POST',
    path: '/merchants/transactions/b2c',
    headers: { 'x-api-key': 'sk_sandbox_closed_shop', 'content-type': JSON_TYPE },
    body: json({ email: 'bob@example.com', amount: 25, currency: 'KES' }),
  },
  { method: 'GET', path: '/merchants/transactions/status/txn_000001', headers: { 'x-api-key': KEY } },
  { method: 'GET', path: '/merchants/transactions/status/txn_000002', headers: { 'x-api-key': KEY } },
  {
    method: 'GET',
    path: '/merchants/transactions/status/txn_000001',
    headers: { 'x-api-key': 'sk_sandbox_other_shop' },
  },
  { method: 'GET', path: '/merchants/transactions/status/nope', headers: { 'x-api-key': KEY } },
  { method: 'DELETE', path: '/merchants/transactions/status/nope', headers: { 'x-api-key': KEY } },
  { method: 'GET', path: '/nowhere', headers: {} },
  {
    method: 'GET',
    path: '/auth/login?app_id=app_demo_shop&redirect_url=https%3A%2F%2Fshop.example%2Fcb',
    headers: {},
  },
  {
    method: 'GET',
    path: '/auth/login?app_id=app_nope&redirect_url=https%3A%2F%2Fshop.example%2Fcb',
    headers: {},
  },
  {
    method: 'POST',
    path: '/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'app_id=app_demo_shop&redirect_url=https%3A%2F%2Fshop.example%2Fcb&decision=deny',
  },
  {
    method: 'GET',
    path: '/merchants/accounts/providers',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob' },
    fault: { kind: 'error', code: 'internal_server_error' },
  },
  {
    method: 'GET',
    path: '/merchants/accounts/providers',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob' },
    fault: { kind: 'respond', status: 503, body: 'down' },
  },
  {
    method: 'GET',
    path: '/merchants/accounts/providers',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob' },
    fault: { kind: 'drop-before' },
  },
  {
    method: 'POST',
    path: '/merchants/transactions/c2b',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_alice', 'content-type': JSON_TYPE },
    body: json({ reference_id: 'p-5', amount: 10, currency: 'KES' }),
    fault: { kind: 'drop-after' },
  },
  {
    method: 'GET',
    path: '/merchants/accounts/providers',
    headers: { 'x-api-key': KEY, authorization: 'Bearer tok_sandbox_bob' },
    fault: { kind: 'reset-mid-body' },
  },
  { method: 'GET', path: '/merchants/transactions/status/txn_000004', headers: { 'x-api-key': KEY } },
];

const HEADERS_COMPARED = [
  'content-type',
  'x-request-id',
  'allow',
  'location',
  'cache-control',
  'content-security-policy',
];

/** What a client can observe of one exchange. */
async function observe(origin: string, step: Step) {
  try {
    const response = await fetch(origin + step.path, {
      method: step.method,
      headers: step.headers ?? {},
      ...(step.body === undefined ? {} : { body: step.body }),
      redirect: 'manual',
    });
    const headers = Object.fromEntries(HEADERS_COMPARED.map((name) => [name, response.headers.get(name)]));
    try {
      return { status: response.status, headers, body: await response.text() };
    } catch {
      return { status: response.status, headers, body: '<body failed>' };
    }
  } catch {
    return { failed: 'network error' };
  }
}

let nodeSandbox: Sandbox;
let mswSandbox: Sandbox;
let server: SandboxServer;
let msw: ReturnType<typeof setupServer>;

beforeAll(async () => {
  // One fixed clock for both, so their answers match to the second.
  const now = () => new Date('2026-11-25T09:00:00Z');
  nodeSandbox = createSandbox(defaultSandboxSeed(), { now });
  mswSandbox = createSandbox(defaultSandboxSeed(), { now });
  server = await startSandboxServer({ sandbox: nodeSandbox, port: 0 });
  msw = setupServer(
    http.all(`${server.baseUrl}/*`, () => passthrough()),
    ...(await sandboxHandlers(mswSandbox, MSW_URLS)),
  );
  msw.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  msw.close();
  nodeSandbox.close();
  mswSandbox.close();
  await server.close();
});

describe('msw handlers and the node server answer alike', () => {
  test('the same requests give the same statuses, headers and bodies, faults included', async () => {
    for (const [index, step] of steps.entries()) {
      if (step.fault) {
        nodeSandbox.faults.inject(step.fault);
        mswSandbox.faults.inject(step.fault);
      }
      const viaNode = await observe(server.baseUrl, step);
      const viaMsw = await observe(MSW_URLS.baseUrl, step);
      expect(viaMsw, `step ${index}: ${step.method} ${step.path}`).toEqual(viaNode);
    }
    expect(mswSandbox.balances()).toEqual(nodeSandbox.balances());
    expect(mswSandbox.transactions()).toHaveLength(nodeSandbox.transactions().length);
  });

  test('an unrelated msw handler still runs beside the sandbox handlers', async () => {
    msw.use(http.get('https://other.test/ping', () => HttpResponse.json({ pong: true })));
    expect(await (await fetch('https://other.test/ping')).json()).toEqual({ pong: true });
  });
});

describe('msw stays optional', () => {
  test('only msw-handlers.ts mentions msw, and only as a type import and a lazy import()', () => {
    const dir = join(import.meta.dirname, '../../src/testing');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files).toContain(join('serve', 'msw-handlers.ts'));
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8');
      const staticImports = source.match(/^import\s+(?!type\b)[^;]*from\s+'msw[^']*'/gm) ?? [];
      expect(staticImports, file).toEqual([]);
      if (file !== join('serve', 'msw-handlers.ts')) expect(source.includes("'msw"), file).toBe(false);
    }
  });
});
