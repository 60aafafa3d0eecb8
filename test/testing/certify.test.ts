import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type CertifyCheckId,
  type CertifyReport,
  certifyHandler,
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { type Defect, referenceShop, zooShop } from './certify-zoo.js';

let sandbox: Sandbox;
let server: SandboxServer;

beforeEach(async () => {
  sandbox = createSandbox();
  server = await startSandboxServer({ sandbox, port: 0 });
});
afterEach(async () => {
  sandbox.close();
  await server.close();
});

const failed = (report: CertifyReport) => report.checks.filter((c) => c.verdict === 'fail').map((c) => c.id);
const TIMEOUT_MS = 3_000;

/** Every check whose point is that an acknowledged genuine event took effect. */
const NEEDS_EFFECT: CertifyCheckId[] = [
  'burst',
  'concurrent-copies',
  'copy-waits-for-first',
  'ack-after-effect',
  'out-of-order',
  'forged-amount',
  'forged-currency',
  'forged-reference',
  'slow-read-back',
];

/** What each handler of the zoo must fail, and nothing else. */
const INTENDED: Record<Defect, CertifyCheckId[]> = {
  none: [],
  'no-dedupe': ['concurrent-copies', 'replay-much-later'],
  'dedupe-without-lease': ['copy-waits-for-first'],
  'no-read-back': [
    'forged-completed',
    'forged-unknown-transaction',
    'forged-amount',
    'forged-currency',
    'forged-reference',
  ],
  'ack-before-commit': ['copy-waits-for-first', 'ack-after-effect'],
  'too-slow': ['burst'],
  'get-only': ['route-accepts-post'],
  'behind-csrf': ['route-accepts-post'],
  'login-redirect': ['route-accepts-post'],
  'drops-hand-off': NEEDS_EFFECT,
};

describe('certifyHandler grades a handler by its answers and its effects', () => {
  test('the reference shop (createWebhookHandler with verifyWith) fails no check of at least 12', async () => {
    const shop = referenceShop(server.baseUrl);
    const report = await certifyHandler({ sandbox, ...shop, timeoutMs: TIMEOUT_MS });
    expect(report.mode).toBe('in-process');
    expect(report.checks.length).toBeGreaterThanOrEqual(12);
    expect(report.notRun).toEqual([]);
    expect(failed(report)).toEqual([]);
    for (const check of report.checks) {
      if (check.verdict === 'pass') expect(check.fix).toBeUndefined();
      else expect(check.fix).toMatch(/\w/);
    }
  }, 60_000);

  test.each(Object.keys(INTENDED) as Defect[])(
    'the zoo handler with defect "%s" fails exactly its intended checks',
    async (defect) => {
      const shop = zooShop(server.baseUrl, defect);
      const report = await certifyHandler({ sandbox, ...shop, timeoutMs: TIMEOUT_MS });
      const details = report.checks.map((c) => `${c.verdict} ${c.id}: ${c.detail}`).join('\n');
      expect(failed(report).sort(), details).toEqual([...INTENDED[defect]].sort());
    },
    60_000,
  );

  test('a route that refuses genuine events stops certify after the route checks, saying which did not run', async () => {
    const report = await certifyHandler({
      sandbox,
      ...zooShop(server.baseUrl, 'behind-csrf'),
      timeoutMs: TIMEOUT_MS,
    });
    expect(report.checks.map((c) => c.id)).toEqual(['route-accepts-post', 'get-not-processed']);
    expect(report.checks[0]?.detail).toMatch(/HTTP 403: refused \(CSRF/);
    expect(report.notRun).toContain('forged-completed');
  });

  test('bad options throw WalletConfigError naming the option', async () => {
    await expect(certifyHandler({ sandbox, handler: 'x' as never, effects: () => 0 })).rejects.toMatchObject({
      option: 'handler',
    });
    await expect(
      certifyHandler({ sandbox, ...referenceShop(server.baseUrl), timeoutMs: 5 }),
    ).rejects.toMatchObject({ option: 'timeoutMs', message: expect.stringMatching(/100 to 60000/) });
  });
});
