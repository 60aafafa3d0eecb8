import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DoctorDeps } from '../../../src/cli/doctor/check.js';
import type { DoctorConfig } from '../../../src/cli/doctor/config.js';
import { formatReport } from '../../../src/cli/doctor/format.js';
import { DOCTOR_CHECKS, type DoctorReport, runDoctor } from '../../../src/cli/doctor/run-doctor.js';
import { plain } from '../../../src/cli/style.js';
import { createMemoryJournal, WalletClient } from '../../../src/index.js';
import { closedPortUrl } from '../../helpers/http-server.js';
import { type Fixtures, journalWithPendingPayment, newKey, routeOrigin, startFixtures } from './fixtures.js';

let fx: Fixtures;
beforeAll(async () => {
  fx = await startFixtures();
});
afterAll(() => fx?.close());

/** Every secret of `config`, which no line of the report may hold. */
function secretsOf(config: DoctorConfig): string[] {
  const keys = Object.values((config.keyring?.keys ?? {}) as Record<string, string>);
  return [config.apiKey, ...keys].filter((secret): secret is string => typeof secret === 'string');
}

function failing(report: DoctorReport) {
  return report.checks
    .filter((check) => check.status === 'fail')
    .map((check) => `${check.id}/${check.problem}`);
}

async function diagnose(change: (good: DoctorConfig) => DoctorConfig, deps: Partial<DoctorDeps> = {}) {
  const config = change(fx.good);
  const report = await runDoctor(config, { ...fx.deps, ...deps });
  const printed = JSON.stringify(report) + formatReport(report, plain);
  for (const secret of secretsOf(config)) expect(printed).not.toContain(secret);
  expect(report.checks).toHaveLength(DOCTOR_CHECKS.length);
  return report;
}

test('the good configuration passes every check it has settings for', async () => {
  const report = await diagnose((good) => good);
  expect(report.ok).toBe(true);
  expect(report.checks.map((check) => [check.id, check.status])).toEqual([
    ['base-url', 'pass'],
    ['environment', 'pass'],
    ['api-key', 'pass'],
    ['clock-skew', 'pass'],
    ['webhook-url', 'pass'],
    ['login-redirect', 'pass'],
    ['keyring', 'pass'],
    ['store-schema', 'skip'],
    ['sweeper', 'pass'],
    ['shared-keys', 'pass'],
  ]);
});

describe('each misconfiguration is named by exactly one failing check', () => {
  const cases: [string, (good: DoctorConfig) => DoctorConfig, string, (() => Partial<DoctorDeps>)?][] = [
    [
      'a wrong API key',
      (good) => ({ ...good, apiKey: 'sk_sandbox_not_issued_0001' }),
      'api-key/invalid_api_key',
    ],
    [
      'a sandbox key on a live URL',
      (good) => ({ ...good, baseUrl: 'https://api.wallet.example.com' }),
      'environment/sandbox_key_on_live_url',
      () => ({ fetch: routeOrigin('https://api.wallet.example.com', fx.api.baseUrl) }),
    ],
    [
      'a live key on a sandbox URL',
      (good) => ({ ...good, apiKey: 'sk_live_0123456789abcdef' }),
      'environment/live_key_on_sandbox_url',
    ],
    [
      'an http base URL',
      (good) => ({ ...good, baseUrl: 'http://api.wallet.example.com' }),
      'base-url/plain_http',
    ],
    [
      'a base URL that is not the API',
      (good) => ({ ...good, baseUrl: `${fx.routes.url}/v1` }),
      'base-url/not_the_api',
    ],
    [
      'a webhook route answering 404',
      (good) => ({ ...good, webhookUrl: `${fx.routes.url}/webhooks` }),
      'webhook-url/webhook_not_found',
    ],
    [
      'a webhook route answering 405',
      (good) => ({ ...good, webhookUrl: `${fx.routes.url}/method` }),
      'webhook-url/webhook_method_not_allowed',
    ],
    [
      'a webhook route behind CSRF protection',
      (good) => ({ ...good, webhookUrl: `${fx.routes.url}/csrf` }),
      'webhook-url/webhook_csrf',
    ],
    [
      'a webhook route behind a login',
      (good) => ({ ...good, webhookUrl: `${fx.routes.url}/behind-login` }),
      'webhook-url/webhook_login_redirect',
    ],
    [
      'a webhook route answering 200 to an empty body',
      (good) => ({ ...good, webhookUrl: `${fx.routes.url}/lenient` }),
      'webhook-url/webhook_accepts_empty_body',
    ],
    [
      'a GET-only webhook route',
      (good) => ({ ...good, webhookUrl: `${fx.routes.url}/get-only` }),
      'webhook-url/webhook_get_only',
    ],
    [
      'a webhook host that does not resolve',
      (good) => ({ ...good, webhookUrl: 'https://hooks.shop.invalid/wallet' }),
      'webhook-url/webhook_unresolvable',
      () => ({
        lookup: () =>
          Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
      }),
    ],
    [
      'a login redirect host not allowed',
      (good) => ({ ...good, loginRedirectUrl: 'https://evil.example.net/connected' }),
      'login-redirect/redirect_host_not_allowed',
    ],
    [
      'a keyring without its primary',
      (good) => ({ ...good, keyring: { keys: { k1: newKey() } } }),
      'keyring/keyring_no_primary',
    ],
    [
      'a keyring whose primary names no key',
      (good) => ({ ...good, keyring: { primary: 'k9', keys: { k1: newKey() } } }),
      'keyring/keyring_no_primary',
    ],
    [
      'a 16-byte key',
      (good) => ({ ...good, keyring: { primary: 'k1', keys: { k1: newKey(16) } } }),
      'keyring/keyring_key_size',
    ],
    ['a stale sweeper', (good) => good, 'sweeper/sweeper_stale', () => ({ journal: undefined as never })],
    [
      'a clock 10 minutes fast',
      (good) => good,
      'clock-skew/clock_skew',
      () => ({ now: () => Date.now() + 600_000 }),
    ],
  ];

  for (const [name, change, expected, deps] of cases) {
    test(name, async () => {
      let extra = deps?.() ?? {};
      if (expected.startsWith('sweeper/'))
        extra = { journal: await journalWithPendingPayment(2 * 3_600_000) };
      const report = await diagnose(change, extra);
      expect(failing(report)).toEqual([expected]);
      expect(report.ok).toBe(false);
      const failed = report.checks.find((check) => check.status === 'fail');
      expect(failed?.fix).toEqual(expect.any(String));
    });
  }

  test('an unreachable host', async () => {
    const baseUrl = await closedPortUrl();
    const report = await diagnose((good) => ({ ...good, baseUrl }));
    expect(failing(report)).toEqual(['base-url/unreachable']);
    expect(report.checks.find((check) => check.id === 'base-url')?.detail).toContain('ECONNREFUSED');
    expect(report.checks.filter((check) => check.status === 'skip').map((check) => check.id)).toEqual([
      'environment',
      'api-key',
      'clock-skew',
      'store-schema',
    ]);
  });
});

test('checks whose prerequisite failed are skipped and say which', async () => {
  const report = await diagnose((good) => ({ ...good, baseUrl: 'http://api.wallet.example.com' }));
  expect(report.checks.find((check) => check.id === 'api-key')).toMatchObject({
    status: 'skip',
    detail: 'skipped until base-url and environment pass',
  });
});

test('the only request with a body is the empty POST to the webhook URL; the API gets one read', async () => {
  const seen: string[] = [];
  const recording: typeof globalThis.fetch = (input, init) => {
    seen.push(
      `${init?.method ?? 'GET'} ${String(input)} ${init?.body == null ? '' : JSON.stringify(init.body)}`.trim(),
    );
    return fetch(input, init);
  };
  await diagnose((good) => good, { fetch: recording });
  expect(seen).toEqual([
    `GET ${fx.api.baseUrl}/merchants/transactions/status/merchant-wallet-doctor-probe`,
    `POST ${fx.routes.url}/ok ""`,
  ]);
  expect(fx.sandbox.transactions()).toEqual([]);
});

test('a sweeper that keeps up passes: a payment due for less than the limit', async () => {
  const report = await diagnose((good) => good, { journal: await journalWithPendingPayment(5 * 60_000) });
  expect(report.checks.find((check) => check.id === 'sweeper')).toMatchObject({
    status: 'pass',
    detail: '1 intent(s) due, none for longer than 15 min',
  });
});

test('no redirect allow-list is a warning, not a failure', async () => {
  const report = await diagnose(({ allowedRedirectHosts: _, ...good }) => good);
  expect(report.ok).toBe(true);
  expect(report.checks.find((check) => check.id === 'login-redirect')).toMatchObject({
    status: 'warn',
    problem: 'no_redirect_allow_list',
  });
});

test('a base URL whose certificate this machine does not trust is named by the base-url check as TLS', async () => {
  const tls = (name: string) => readFileSync(new URL(`../../fixtures/tls/${name}`, import.meta.url));
  // The test certificate is valid for 127.0.0.1 but signed by no authority this process trusts.
  const server = createHttpsServer({ key: tls('localhost.key'), cert: tls('localhost.crt') }, (_, res) => {
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const report = await diagnose((good) => ({ ...good, baseUrl }));
    expect(failing(report)).toEqual(['base-url/tls']);
    expect(report.checks[0]?.detail).toMatch(/the TLS handshake failed \((\w|_)+\)/);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a secret in the webhook URL path or query is not printed', async () => {
  const secret = 'whsec4f9a8b7c6d5e4f3a2b1c';
  const report = await diagnose((good) => ({
    ...good,
    webhookUrl: `${fx.routes.url}/hooks/${secret}?key=${secret}`,
  }));
  expect(failing(report)).toEqual(['webhook-url/webhook_not_found']);
  expect(report.checks.find((check) => check.id === 'webhook-url')?.detail).toBe(
    `${fx.routes.url}/hooks/… answers 404 to a POST: no route at this path`,
  );
  expect(JSON.stringify(report)).not.toContain(secret);
});

test('a journal holding one API key under two merchant identities (two base URLs) warns shared_api_key, naming fingerprints only', async () => {
  const journal = createMemoryJournal();
  const apiKey = fx.good.apiKey as string;
  const byAddress = new WalletClient({ apiKey, baseUrl: fx.api.baseUrl, journal });
  const byName = new WalletClient({
    apiKey,
    baseUrl: fx.api.baseUrl.replace('127.0.0.1', 'localhost'),
    journal,
  });
  for (const [n, wallet] of [byAddress, byName].entries()) {
    await journal.record({
      referenceId: `order-shared-${n}`,
      endpoint: 'withdraw',
      body: { reference_id: `order-shared-${n}` },
      merchant: wallet.merchant,
      keyFingerprint: wallet.keyFingerprint,
    });
  }
  const report = await diagnose((good) => good, { journal });
  expect(report.ok).toBe(true);
  const check = report.checks.find((one) => one.id === 'shared-keys');
  expect(check).toMatchObject({
    status: 'warn',
    problem: 'shared_api_key',
    fix: expect.stringMatching(/one base URL/),
  });
  expect(check?.detail).toContain(byAddress.keyFingerprint);
  expect(check?.detail).toContain(byAddress.merchant);
  expect(check?.detail).toContain(byName.merchant);
});

test('one identity per API key passes the shared-keys check', async () => {
  const journal = createMemoryJournal();
  const wallet = new WalletClient({ apiKey: fx.good.apiKey as string, baseUrl: fx.api.baseUrl, journal });
  await journal.record({
    referenceId: 'order-one',
    endpoint: 'withdraw',
    body: { reference_id: 'order-one' },
    merchant: wallet.merchant,
    keyFingerprint: wallet.keyFingerprint,
  });
  const report = await diagnose((good) => good, { journal });
  expect(report.checks.find((one) => one.id === 'shared-keys')).toMatchObject({ status: 'pass' });
});
