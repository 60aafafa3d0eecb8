import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { ROOT, RUNTIMES, type Runtime, runSmoke } from './runtimes.js';

// Each runtime gets its own sandbox, so fault counts and balances never depend on test order.
let sandbox: Sandbox | undefined;
let server: SandboxServer | undefined;

async function startSandbox(): Promise<Record<string, string>> {
  sandbox = createSandbox(undefined, { autoSettleMs: 100 });
  server = await startSandboxServer({ sandbox, port: 0 });
  // The smoke's second withdrawal is applied, then its connection dropped: the retry meets its own reference_id.
  sandbox.faults.inject({ kind: 'drop-after', route: 'withdraw', every: 2, times: 1 });
  return { SMOKE_BASE_URL: server.baseUrl, SMOKE_AUTH_URL: server.authUrl };
}

afterEach(async () => {
  sandbox?.close();
  await server?.close();
  sandbox = undefined;
  server = undefined;
});

/** Checked in each test rather than in a hook, so a missing build fails every test instead of skipping it. */
function requireBuild(): void {
  for (const entry of ['index.js', 'index.cjs', 'login.js', 'webhooks.js', 'webhooks.cjs']) {
    if (!existsSync(join(ROOT, 'dist', entry))) {
      throw new Error(
        `dist/${entry} is missing: run "npm run build" first (.ci/run builds before the system tests)`,
      );
    }
  }
}

function expectedEsm(runtime: Runtime) {
  const native = runtime.name !== 'node';
  return {
    runtime: { name: runtime.name, version: runtime.version },
    providers: ['mpesa', 'airtel'],
    // Node gets the SDK's node:http transport; Bun and Deno go through their own fetch.
    transport: native ? 'fetch' : 'node:http',
    deposit: { transaction_status: 'completed', amount: 150, currency: 'KES' },
    withdrawal: { transaction_status: 'completed', amount: 300, hasDate: true },
    status: { transaction_status: 'completed', amount: '150.00', reference_id: 'smoke-dep-1' },
    fetchOption: { transaction_status: 'completed', fetchCalls: 1 },
    pending: { first: 'pending', final: 'completed' },
    delivered: { transaction_status: 'completed', verified: true, confirmed: 'completed' },
    served: {
      via: { node: 'node:http + toNodeHandler', bun: 'Bun.serve', deno: 'Deno.serve' }[runtime.name],
      status: 200,
      body: { received: true },
    },
    apiError: { narrowed: true, status: 422, endpoint: 'deposit' },
    outcomeUnknown: {
      name: 'WalletOutcomeUnknownError',
      isOutcomeUnknown: true,
      isWalletError: true,
      referenceId: 'smoke-wd-unknown',
    },
    loginUrl: '{authUrl}/login?app_id=app_demo_shop&redirect_url=https%3A%2F%2Fshop.example.com%2Fdone',
    loginError: { field: 'appId', isLoginError: true, isWalletError: true },
    parsed: {
      type: 'transaction',
      status: 'failed',
      amount: '5.00',
      badReason: 'unknown_event',
      badIsWebhookError: true,
    },
    handler: {
      first: { received: true },
      again: { received: true, duplicate: true },
      broken: [400, 'invalid_json'],
      seen: ['txn_7'],
    },
    vault: {
      deposit: 'completed',
      sealed: true,
      plaintextAtRest: false,
      movedRow: 'WalletTokenDecryptionError',
    },
  };
}

const EXPECTED_CJS = {
  defaults: ['mpesa', 'airtel'],
  status: 'completed',
  missing: { narrowed: true, status: 404, cjsWalletError: true, esmWalletError: true },
  loginUrl:
    'https://auth.example.com/wallet/login?app_id=app_demo_shop&redirect_url=https%3A%2F%2Fshop.example.com%2Fdone',
  parsed: 'user_authorized',
  handler: [405, 'POST'],
};

describe.each(Object.keys(RUNTIMES))('%s', (label) => {
  test('the built ESM entries work against the sandbox', async () => {
    requireBuild();
    const runtime = RUNTIMES[label]?.() as Runtime;
    // The label is a promise to the docs: Node 20 is whatever `node` runs this suite.
    if (runtime.name === 'node') expect(`node ${runtime.version.split('.')[0]}`).toBe(label);
    const { result } = await runSmoke(runtime, 'smoke.mjs', await startSandbox());
    expect(result).toEqual(expectedEsm(runtime));
  });
});

describe.each(Object.keys(RUNTIMES).filter((label) => label.startsWith('node')))('%s', (label) => {
  test('the built CJS entries work with require', async () => {
    requireBuild();
    const runtime = RUNTIMES[label]?.() as Runtime;
    const { result } = await runSmoke(runtime, 'smoke.cjs', await startSandbox());
    expect(result).toEqual({ version: runtime.version, ...EXPECTED_CJS });
  });
});

test('the CommonJS build loads its lazy chunks with require(), never import(), which Jest-style module sandboxes refuse', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const files = (await readdir(join(ROOT, 'dist'))).filter((name) => name.endsWith('.cjs'));
  expect(files.length).toBeGreaterThan(1);
  const importing: string[] = [];
  for (const name of files) {
    if (/\bimport\(/.test(await readFile(join(ROOT, 'dist', name), 'utf8'))) importing.push(name);
  }
  expect(importing).toEqual([]);
});

/** What the Worker answers: the ESM smoke's checks that a Worker can run, on the global fetch. */
function expectedWorker() {
  const esm = expectedEsm(RUNTIMES['node 22']?.() as Runtime);
  const { deposit, withdrawal, status, pending, apiError, outcomeUnknown, loginUrl, handler, vault } = esm;
  return {
    runtime: { name: 'workerd', userAgent: 'Cloudflare-Workers' },
    providers: esm.providers,
    // The global fetch, counted: the Node transport's chunk is never loaded on workerd.
    transport: 'fetch',
    fetchCalls: true,
    withResponse: { status: 200, attempts: 1 },
    ...{ deposit, withdrawal, status, pending, apiError, outcomeUnknown, loginUrl, handler, vault },
  };
}

describe.each([
  ['workerd', ''],
  ['workerd with nodejs_compat', 'nodejs_compat'],
])('%s (Cloudflare Workers, through miniflare)', (_label, compat) => {
  test('a Worker bundled with esbuild --platform=neutral works against the sandbox', async () => {
    requireBuild();
    // miniflare needs Node 22 or later: it runs on the Node 22 of test/runtimes.
    const node22 = RUNTIMES['node 22']?.() as Runtime;
    const { result } = await runSmoke(
      node22,
      '../worker/run-worker.mjs',
      { ...(await startSandbox()), SMOKE_COMPAT: compat },
      90_000,
    );
    expect(result).toEqual({ ...expectedWorker(), compatibilityFlags: compat ? [compat] : [] });
  }, 120_000);
});

test('the Worker of docs/runtimes.md, bundled with its command, makes a deposit on workerd', async () => {
  requireBuild();
  const node22 = RUNTIMES['node 22']?.() as Runtime;
  const { result } = await runSmoke(node22, '../worker/run-docs-worker.mjs', await startSandbox(), 90_000);
  expect(result).toMatchObject({
    status: 200,
    body: { transaction_status: 'completed', amount: 150, currency: 'KES' },
  });
  const reference = (result.body as { reference_id: string }).reference_id;
  expect(sandbox?.transactions().filter((one) => one.reference_id === reference)).toHaveLength(1);
}, 120_000);
