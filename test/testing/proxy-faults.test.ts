import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import { ALICE, codeOf, DEMO_KEY, deposit, type Running, runSandbox } from './helpers.js';

const C2B = '/merchants/transactions/c2b';

let run: Running;
beforeEach(async () => {
  run = await runSandbox();
});
afterEach(() => run.close());

const pay = (reference_id: string) =>
  run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ reference_id }) });
const held = (reference_id: string) =>
  run.sandbox.transactions().filter((t) => t.reference_id === reference_id);

describe('faults of a proxy between the client and the service', () => {
  test('answer-after applies the request, then answers the given redirect in place of the service', async () => {
    run.sandbox.faults.inject({ kind: 'answer-after', status: 303, headers: { location: '/elsewhere' } });
    const answer = await pay('r-303');
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/elsewhere']);
    expect(held('r-303')).toHaveLength(1);
    expect(codeOf(await pay('r-303'))).toBe('reference_already_used');
  });

  test('answer-after can answer a CDN 524 page after applying', async () => {
    run.sandbox.faults.inject({ kind: 'answer-after', status: 524, body: '<html>timeout</html>' });
    const answer = await pay('r-524');
    expect([answer.status, answer.body]).toEqual([524, '<html>timeout</html>']);
    expect(held('r-524')).toHaveLength(1);
  });

  test("mismatch applies the request, then answers the service's body with the given fields changed", async () => {
    run.sandbox.faults.inject({ kind: 'mismatch', fields: { amount: 999, reference_id: 'someone-else' } });
    const answer = await pay('r-mismatch');
    const [transaction] = held('r-mismatch');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      transaction_id: transaction?.transaction_id,
      reference_id: 'someone-else',
      amount: 999,
    });
    expect(transaction?.amount).not.toBe(999);
  });

  test('oversized applies the request, then pads the JSON answer with spaces to the given size', async () => {
    run.sandbox.faults.inject({ kind: 'oversized', bytes: 100_000 });
    const answer = await pay('r-big');
    expect(answer.headers.get('content-length')).toBe('100000');
    expect(answer.body).toMatchObject({ reference_id: 'r-big' });
    expect(held('r-big')).toHaveLength(1);
  });

  test('stale-socket resets the connection without applying the request', async () => {
    run.sandbox.faults.inject({ kind: 'stale-socket' });
    await expect(pay('r-stale')).rejects.toThrow();
    expect(held('r-stale')).toHaveLength(0);
    expect((await pay('r-stale')).status).toBe(200);
  });

  test('a bad spec of one of them is a WalletConfigError naming the field', () => {
    const inject = (spec: unknown) => () => run.sandbox.faults.inject(spec as never);
    expect(inject({ kind: 'answer-after', status: 700 })).toThrow(WalletConfigError);
    expect(inject({ kind: 'answer-after', status: 700 })).toThrow(/fault\.status/);
    expect(inject({ kind: 'mismatch', fields: null })).toThrow(/fault\.fields/);
    expect(inject({ kind: 'oversized', bytes: 0 })).toThrow(/fault\.bytes/);
    expect(inject({ kind: 'oversized', bytes: 1.5 })).toThrow(/fault\.bytes/);
  });
});
