import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import { ALICE, codeOf, DEMO_KEY, deposit, type Running, runSandbox } from './helpers.js';

const C2B = '/merchants/transactions/c2b';
const PROVIDERS = '/merchants/accounts/providers';

let run: Running;
beforeEach(async () => {
  run = await runSandbox();
});
afterEach(() => run.close());

const providers = () => run.api({ path: PROVIDERS, key: DEMO_KEY, token: ALICE });
const pay = (reference_id: string) =>
  run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ reference_id }) });

describe('fault injection', () => {
  test('latency delays the answer and then handles the request normally', async () => {
    run.sandbox.faults.inject({ kind: 'latency', ms: 120 });
    const started = performance.now();
    const answer = await providers();
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(answer.status).toBe(200);
  });

  test('respond answers a chosen status and body without applying the request', async () => {
    run.sandbox.faults.inject({
      route: 'deposit',
      kind: 'respond',
      status: 503,
      body: { down: true },
      headers: { 'retry-after': '1' },
    });
    const answer = await pay('r-503');
    expect([answer.status, answer.body, answer.headers.get('retry-after')]).toEqual([
      503,
      { down: true },
      '1',
    ]);
    expect(run.sandbox.transactions()).toHaveLength(0);
  });

  test('respond with a string body sends it as text', async () => {
    run.sandbox.faults.inject({ kind: 'respond', status: 502, body: '<html>bad gateway</html>' });
    const answer = await providers();
    expect([answer.status, answer.body]).toEqual([502, '<html>bad gateway</html>']);
  });

  test('error answers a documented code in the configured shape, here internal_server_error on providers', async () => {
    run.sandbox.faults.inject({ route: 'providers', kind: 'error', code: 'internal_server_error' });
    const answer = await providers();
    expect([answer.status, answer.body]).toEqual([
      500,
      { code: 'internal_server_error', message: 'internal server error' },
    ]);
  });

  test('an error fault carries an x-request-id like any answer of the service; a respond fault only its own headers', async () => {
    run.sandbox.faults.inject({ route: 'providers', kind: 'error', code: 'internal_server_error' });
    expect((await providers()).headers.get('x-request-id')).toMatch(/^req_\d+$/);
    run.sandbox.faults.inject({ route: 'providers', kind: 'respond', status: 503, body: 'down' });
    expect((await providers()).headers.get('x-request-id')).toBeNull();
  });

  test('drop-before closes the connection and applies nothing', async () => {
    run.sandbox.faults.inject({ kind: 'drop-before' });
    await expect(pay('r-drop-before')).rejects.toThrow();
    expect(run.sandbox.transactions()).toHaveLength(0);
    expect((await pay('r-drop-before')).status).toBe(200);
  });

  test('drop-after applies the request but never answers: the outcome is unknown to the client', async () => {
    run.sandbox.faults.inject({ kind: 'drop-after' });
    await expect(pay('r-drop-after')).rejects.toThrow();
    expect(run.sandbox.transactions()).toHaveLength(1);
    expect(codeOf(await pay('r-drop-after'))).toBe('reference_already_used');
  });

  test('reset-mid-body sends headers and part of the body, then resets', async () => {
    run.sandbox.faults.inject({ kind: 'reset-mid-body' });
    const response = await fetch(`${run.server.baseUrl}${PROVIDERS}`, {
      headers: { 'x-api-key': DEMO_KEY, authorization: `Bearer ${ALICE}` },
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  test('a fault is one-shot by default', async () => {
    const handle = run.sandbox.faults.inject({ kind: 'error', code: 'internal_server_error' });
    expect((await providers()).status).toBe(500);
    expect((await providers()).status).toBe(200);
    expect(handle.fired).toBe(1);
    expect(run.sandbox.faults.pending).toBe(0);
  });

  test('every: N fires on every N-th matching request until removed', async () => {
    const handle = run.sandbox.faults.inject({ kind: 'error', code: 'internal_server_error', every: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await providers()).status);
    expect(statuses).toEqual([200, 200, 500, 200, 200, 500]);
    handle.remove();
    expect((await providers()).status).toBe(200);
  });

  test('times limits how often a fault fires', async () => {
    run.sandbox.faults.inject({ kind: 'error', code: 'internal_server_error', times: 2 });
    const statuses = [(await providers()).status, (await providers()).status, (await providers()).status];
    expect(statuses).toEqual([500, 500, 200]);
  });

  test('a route-matched fault leaves other routes alone', async () => {
    run.sandbox.faults.inject({ route: 'deposit', kind: 'error', code: 'psp_error' });
    expect((await providers()).status).toBe(200);
    expect(codeOf(await pay('r-route'))).toBe('psp_error');
  });

  test('clear removes every fault', async () => {
    run.sandbox.faults.inject({ kind: 'drop-before', times: 5 });
    run.sandbox.faults.clear();
    expect((await providers()).status).toBe(200);
  });

  test('a bad fault spec is a WalletConfigError naming the field', () => {
    const inject = (spec: unknown) => () => run.sandbox.faults.inject(spec as never);
    expect(inject({ kind: 'explode' })).toThrow(WalletConfigError);
    expect(inject({ kind: 'explode' })).toThrow(/fault\.kind/);
    expect(inject({ kind: 'latency', ms: -1 })).toThrow(/fault\.ms/);
    expect(inject({ kind: 'respond', status: 99 })).toThrow(/fault\.status/);
    expect(inject({ kind: 'error', code: 'nope' })).toThrow(/fault\.code/);
    expect(inject({ kind: 'drop-before', every: 0 })).toThrow(/fault\.every/);
    expect(inject({ kind: 'drop-before', route: 'login' })).toThrow(/fault\.route/);
  });
});
