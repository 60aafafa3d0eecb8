import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  WalletApiError,
  WalletClient,
  type WalletClientOptions,
  waitForTransaction,
} from '../../src/index.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const TRANSPORTS: Record<string, WalletClientOptions> = {
  'node:http': {},
  fetch: { fetch: (input, init) => globalThis.fetch(input, init) },
};

const completed = {
  transaction_id: 'tx_A',
  transaction_status: 'completed',
  amount: '10.00',
  currency: 'KES',
  failure_reason: null,
};

/** The answers still to give, in turn; each request takes the next one and is time-stamped in virtual time. */
let script: Array<{ status: number; headers?: Record<string, string>; body: unknown }> = [];
const requestTimes: number[] = [];

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    requestTimes.push(Date.now());
    const next = script.shift() ?? { status: 500, body: { code: 'internal_server_error' } };
    request.resume();
    response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    response.end(JSON.stringify(next.body));
  });
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
  requestTimes.length = 0;
});

/** The client, counting each status read it finishes, so a test knows when the poll has its answer. */
function countingReader(options: WalletClientOptions) {
  const client = new WalletClient({ apiKey: 'sk_test_key', baseUrl: server.url, maxRetries: 0, ...options });
  const reader = {
    finished: 0,
    getTransaction: (id: string, read?: { signal?: AbortSignal; timeoutMs?: number }) =>
      client.getTransaction(id, read).finally(() => {
        reader.finished++;
      }),
  };
  return reader;
}

/**
 * Lets real socket I/O run (at least a few turns) while timers stay frozen. The bound is real time
 * (`performance.now` is not faked), so a loaded machine gets as many turns as it needs.
 */
async function settleIo(until: () => boolean): Promise<void> {
  const giveUpAt = performance.now() + 10_000;
  for (let turn = 0; turn < 5 || (!until() && performance.now() < giveUpAt); turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(until()).toBe(true);
}

describe.each(Object.keys(TRANSPORTS))('waitForTransaction over the %s transport', (transport) => {
  test.each([429, 503])(
    'after a %i with Retry-After: 1 the next read waits at least a second',
    async (status) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      script = [
        { status, headers: { 'retry-after': '1' }, body: { code: 'internal_server_error' } },
        { status: 200, body: completed },
      ];
      const reader = countingReader(TRANSPORTS[transport] ?? {});

      const waiting = waitForTransaction(reader, 'tx_A', { initialDelayMs: 10, maxDelayMs: 10 });
      await settleIo(() => reader.finished === 1);
      await settleIo(() => true);
      await vi.advanceTimersByTimeAsync(990);
      await settleIo(() => true);
      expect(requestTimes).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(10);

      await expect(waiting).resolves.toMatchObject({ transaction_status: 'completed' });
      expect(requestTimes).toHaveLength(2);
      expect((requestTimes[1] ?? 0) - (requestTimes[0] ?? 0)).toBeGreaterThanOrEqual(1_000);
    },
  );

  test('a Retry-After longer than the time left ends the wait at its deadline, not later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    script = [{ status: 429, headers: { 'retry-after': '3600' }, body: {} }];
    const reader = countingReader(TRANSPORTS[transport] ?? {});
    const started = Date.now();

    const waiting = waitForTransaction(reader, 'tx_A', { timeoutMs: 5_000 }).catch((error: unknown) => error);
    await settleIo(() => reader.finished === 1);
    await settleIo(() => true);
    await vi.advanceTimersByTimeAsync(5_000);

    const error = await waiting;
    expect(error).toMatchObject({ name: 'WalletPollTimeoutError', timeoutMs: 5_000 });
    expect((error as Error).cause).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(Date.now() - started).toBe(5_000);
    expect(requestTimes).toHaveLength(1);
  });
});

test('a Retry-After on any other status does not slow polling down', async () => {
  vi.useFakeTimers();
  const reader = {
    reads: 0,
    async getTransaction() {
      if (++this.reads === 1) {
        throw new WalletApiError({
          code: 'unknown_error',
          message: 'bad gateway',
          status: 502,
          endpoint: 'status',
          body: '',
          retryAfterMs: 60_000,
        });
      }
      return completed as typeof completed & { transaction_status: 'completed' };
    },
  };

  const waiting = waitForTransaction(reader, 'tx_A', { initialDelayMs: 10, maxDelayMs: 10 });
  await vi.advanceTimersByTimeAsync(10);

  await expect(waiting).resolves.toMatchObject({ transaction_status: 'completed' });
  expect(reader.reads).toBe(2);
});
