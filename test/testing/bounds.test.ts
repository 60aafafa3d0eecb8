import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import {
  CONTROL_KEY_HEADER,
  createSandbox,
  defaultSandboxSeed,
  SANDBOX_LIMITS,
  type Sandbox,
  type SandboxOptions,
  startSandboxServer,
} from '../../src/testing/index.js';
import { ALICE, type ApiAnswer, callApi, DEMO_KEY, deposit, type Running, runSandbox } from './helpers.js';

const KEY = 'control-key-for-bounds';

let run: Running;
beforeEach(async () => {
  run = await runSandbox(undefined, { controlKey: KEY });
});
afterEach(() => run.close());

function control(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  return callApi(run.server.baseUrl, {
    method,
    path: `/_sandbox${path}`,
    headers: { [CONTROL_KEY_HEADER]: KEY },
    ...(body === undefined ? {} : { body }),
  });
}

/** A deposit and a withdrawal still work, and the clock still reads as a sane date. */
async function expectStillServing(): Promise<void> {
  const paid = await run.api({
    path: '/merchants/transactions/c2b',
    key: DEMO_KEY,
    token: ALICE,
    body: deposit(),
  });
  expect(paid.status).toBe(200);
  expect(paid.body).toMatchObject({ transaction_status: 'completed' });
  const sent = await run.api({
    path: '/merchants/transactions/b2c',
    key: DEMO_KEY,
    body: { email: 'alice@example.com', amount: 5, currency: 'KES' },
  });
  expect(sent.status).toBe(200);
  expect(String((sent.body as { date_completed: number }).date_completed)).toMatch(/^20\d{12}$/);
  const clock = await control('GET', '/clock');
  expect(clock.status).toBe(200);
  expect(clock.body).toMatchObject({ now: expect.stringMatching(/^20\d\d-/), offset_ms: 0 });
}

describe('the control API refuses numbers out of bounds and keeps serving', () => {
  test.each([
    ['an advance of 1e300 ms', { by: 1e300 }],
    ['an advance of 1e15 ms', { by: 1e15 }],
    ['an advance of 1e15 ms as text', { by: '1000000000000000' }],
    ['an advance of a million days', { by: '1000000d' }],
  ])('%s is a 400 naming "by" and the bound', async (_name, body) => {
    const answer = await control('POST', '/clock/advance', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'invalid_request',
      message: `by: must be at most ${SANDBOX_LIMITS.clockAdvanceMs.max} ms (ten years)`,
    });
    await expectStillServing();
  });

  test('an advance of exactly ten years is accepted and dates keep four-digit years', async () => {
    const answer = await control('POST', '/clock/advance', { by: SANDBOX_LIMITS.clockAdvanceMs.max });
    expect(answer.status).toBe(200);
    expect((answer.body as { now: string }).now).toMatch(/^20\d\d-/);
  });

  test.each([
    [
      'a latency of 1e300 ms',
      { kind: 'latency', ms: 1e300 },
      'fault.ms: must be a number from 0 to 600000 ms',
    ],
    [
      'an oversized body of 1e300 bytes',
      { kind: 'oversized', bytes: 1e300 },
      'fault.bytes: must be an integer from 1 to 67108864 bytes',
    ],
    [
      'every 1e300th request',
      { kind: 'drop-before', every: 1e300 },
      `fault.every: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`,
    ],
    [
      'times 2^60',
      { kind: 'drop-before', times: 2 ** 60 },
      `fault.times: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`,
    ],
  ])('a fault with %s is a 400 naming the field, and none is armed', async (_name, fault, message) => {
    const answer = await control('POST', '/faults', { route: 'deposit', ...fault });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request', message } });
    expect(run.sandbox.faults.pending).toBe(0);
    await expectStillServing();
  });

  test('a delivery delay, a plan count or a balance out of bounds is a 400 naming the field', async () => {
    const answers = await Promise.all([
      control('POST', '/webhooks/plan', { mode: 'late', delayMs: 1e300 }),
      control('POST', '/webhooks/plan', { mode: 'drop', count: 1e300 }),
      control('POST', '/balances', { email: 'alice@example.com', currency: 'KES', amount: 1e300 }),
    ]);
    expect(answers.map((a) => [a.status, (a.body as { message: string }).message])).toEqual([
      [400, expect.stringMatching(/^delivery\.delayMs: must be at most \d+ ms \(ten years\)$/)],
      [400, `plan.count: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`],
      [400, 'amount: must be a number from 0 to 1000000000000 with at most two decimals'],
    ]);
    expect(run.sandbox.balances().users['alice@example.com']?.KES).toBe(5000);
    await expectStillServing();
  });
});

describe('the programmatic API refuses numbers out of bounds with a WalletConfigError naming the field', () => {
  const refused = (act: () => unknown) => {
    try {
      act();
    } catch (error) {
      expect(error).toBeInstanceOf(WalletConfigError);
      return (error as WalletConfigError).message;
    }
    throw new Error('not refused');
  };

  test('clock.advance(1e300) and (1e15) move nothing', () => {
    const sandbox = createSandbox();
    expect(refused(() => sandbox.clock.advance(1e300))).toMatch(/^ms: must be a number from 0 to \d+ ms$/);
    expect(refused(() => sandbox.clock.advance(1e15))).toMatch(/^ms: must be a number from 0 to/);
    expect(sandbox.clock.offsetMs).toBe(0);
    expect(sandbox.clock.now().getUTCFullYear()).toBeLessThan(3000);
    sandbox.close();
  });

  test('an advance past the year 9999 is refused even within ten years', () => {
    const sandbox = createSandbox(undefined, { now: () => new Date('9999-06-01T00:00:00Z') });
    expect(refused(() => sandbox.clock.advance(365 * 86_400_000))).toBe(
      'ms: would move the sandbox clock past 9999-12-31',
    );
    expect(sandbox.clock.offsetMs).toBe(0);
    sandbox.close();
  });

  test('faults with ms or bytes of 1e300 are not armed', () => {
    const sandbox = createSandbox();
    expect(refused(() => sandbox.faults.inject({ kind: 'latency', ms: 1e300 }))).toMatch(/^fault\.ms: /);
    expect(refused(() => sandbox.faults.inject({ kind: 'oversized', bytes: 1e300 }))).toMatch(
      /^fault\.bytes: /,
    );
    expect(refused(() => sandbox.faults.inject({ kind: 'drop-before', every: Infinity }))).toMatch(
      /^fault\.every: /,
    );
    expect(sandbox.faults.pending).toBe(0);
    sandbox.close();
  });

  test.each<[string, SandboxOptions]>([
    ['options.maxBodyBytes', { maxBodyBytes: 1e300 }],
    ['options.autoSettleMs', { autoSettleMs: 1e300 }],
    ['options.webhooks.attempts', { webhooks: { attempts: 1_000_000 } }],
    ['options.webhooks.backoffMs', { webhooks: { backoffMs: 1e300 } }],
    ['options.webhooks.timeoutMs', { webhooks: { timeoutMs: 1e300 } }],
    ['options.now', { now: () => new Date(Number.NaN) }],
    ['options.now', { now: () => new Date('+020000-01-01T00:00:00Z') }],
  ])('createSandbox refuses %s out of bounds', (field, options) => {
    expect(refused(() => createSandbox(undefined, options))).toMatch(
      new RegExp(`^${field.replaceAll('.', '\\.')}: `),
    );
  });

  test('createSandbox given options where the seed goes says to pass them second, with a WalletConfigError', () => {
    for (const seed of [{ autoSettleMs: 100 }, { now: () => new Date() }, null, 'seed']) {
      expect(refused(() => createSandbox(seed as never))).toMatch(/^seed: .*pass options second/);
    }
  });

  test('seed balances, setBalance, planNext, delivery delays and waitFor time-outs are bounded', () => {
    const seed = defaultSandboxSeed();
    seed.users[0]!.balances = { KES: 1e300 };
    expect(refused(() => createSandbox(seed))).toMatch(
      /^seed\.users\[0\]\.balances\.KES: must be a number from 0/,
    );
    const sandbox: Sandbox = createSandbox();
    expect(
      refused(() => sandbox.setBalance({ appId: 'app_demo_shop', currency: 'KES', amount: 1e13 })),
    ).toMatch(/^amount: /);
    expect(refused(() => sandbox.webhooks.planNext({ mode: 'drop', count: 2 ** 60 }))).toMatch(
      /^plan\.count: /,
    );
    expect(refused(() => sandbox.webhooks.planNext({ mode: 'late', delayMs: 1e300 }))).toMatch(
      /^plan\.delayMs: /,
    );
    expect(refused(() => sandbox.webhooks.waitFor(() => true, { timeoutMs: 1e300 }))).toMatch(
      /^options\.timeoutMs: /,
    );
    sandbox.close();
  });
});

describe('a request that throws inside the sandbox changes nothing', () => {
  test('a withdrawal when the clock cannot tell the time answers 500 and moves no money', async () => {
    let broken = false;
    const sandbox = createSandbox(undefined, { now: () => (broken ? new Date(Number.NaN) : new Date()) });
    const server = await startSandboxServer({ sandbox, port: 0 });
    try {
      const before = sandbox.balances();
      broken = true;
      const sent = await callApi(server.baseUrl, {
        path: '/merchants/transactions/b2c',
        key: DEMO_KEY,
        body: { email: 'alice@example.com', amount: 5, currency: 'KES', reference_id: 'w-1' },
      });
      expect(sent.status).toBe(500);
      expect(sandbox.balances()).toEqual(before);
      expect(sandbox.transactions()).toEqual([]);
      broken = false;
      const again = await callApi(server.baseUrl, {
        path: '/merchants/transactions/b2c',
        key: DEMO_KEY,
        body: { email: 'alice@example.com', amount: 5, currency: 'KES', reference_id: 'w-1' },
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ transaction_id: 'txn_000001', reference_id: 'w-1' });
    } finally {
      sandbox.close();
      await server.close();
    }
  });
});
