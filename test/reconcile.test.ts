import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { WalletClient } from '../src/client/client.js';
import {
  WalletAbortError,
  WalletApiError,
  WalletError,
  WalletRequestValidationError,
} from '../src/errors.js';
import type { RequestOptions } from '../src/index.js';
import { type ReconcileProgress, type ReconcileResult, reconcile } from '../src/reconcile/reconcile.js';
import type { TransactionResult } from '../src/schemas/responses.js';

function txn(id: string, status = 'completed'): TransactionResult {
  return {
    transaction_id: id,
    transaction_status: status as TransactionResult['transaction_status'],
    amount: '10.00',
    currency: 'KES',
    failure_reason: status === 'failed' ? 'declined' : null,
  };
}

/** A status API on a real socket that counts the requests it is serving at once. */
const server = {
  http: undefined as Server | undefined,
  baseUrl: '',
  inFlight: 0,
  maxInFlight: 0,
  served: [] as string[],
};

beforeAll(async () => {
  server.http = createServer((request, response) => {
    const id = decodeURIComponent(request.url?.split('/').pop() ?? '');
    server.inFlight++;
    server.maxInFlight = Math.max(server.maxInFlight, server.inFlight);
    server.served.push(id);
    // Uneven answer times make completion order differ from request order.
    setTimeout(
      () => {
        server.inFlight--;
        const [status, body] = id.startsWith('missing')
          ? [404, { code: 'transaction_not_found', message: 'transaction not found' }]
          : id.startsWith('broken')
            ? [500, { code: 'internal_server_error', message: 'internal server error' }]
            : [200, txn(id, id.startsWith('failed') ? 'failed' : 'completed')];
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      5 + ((id.length * 7) % 23),
    );
  });
  await new Promise<void>((resolve) => server.http?.listen(0, '127.0.0.1', resolve));
  server.baseUrl = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.http?.closeAllConnections();
  await new Promise((resolve) => server.http?.close(resolve));
});

beforeEach(() => {
  server.maxInFlight = 0;
  server.served = [];
});

const wallet = () =>
  new WalletClient({ apiKey: 'sk_test_reconcile', baseUrl: server.baseUrl, maxRetries: 0 });

async function collect(results: AsyncIterable<ReconcileResult>): Promise<ReconcileResult[]> {
  const all: ReconcileResult[] = [];
  for await (const result of results) all.push(result);
  return all;
}

/** A client whose reads settle only when the test says so. */
function manualClient() {
  const reads = new Map<
    string,
    {
      resolve: (r: TransactionResult) => void;
      reject: (e: unknown) => void;
      signal?: AbortSignal | undefined;
    }
  >();
  return {
    reads,
    getTransaction(id: string, options?: RequestOptions): Promise<TransactionResult> {
      return new Promise((resolve, reject) => {
        reads.set(id, { resolve, reject, signal: options?.signal });
      });
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('reconcile against a real HTTP server', () => {
  test('never has more than `concurrency` requests in flight, and does reach it', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `txn_${i}`);

    const results = await collect(reconcile(wallet(), ids, { concurrency: 6 }));

    expect(results).toHaveLength(60);
    expect(server.maxInFlight).toBeLessThanOrEqual(6);
    expect(server.maxInFlight).toBe(6);
  });

  test('one failing id never stops the rest; each failure is a result carrying its WalletError', async () => {
    const ids = ['txn_a', 'missing_b', 'txn_c', 'broken_d', 'failed_e', 'txn_f'];
    const progress: ReconcileProgress[] = [];

    const results = await collect(
      reconcile(wallet(), ids, { concurrency: 3, onProgress: (p) => progress.push({ ...p }) }),
    );

    const byId = new Map(results.map((r) => [r.transactionId, r]));
    expect([...byId.keys()].sort()).toEqual([...ids].sort());
    expect(byId.get('txn_a')?.status?.transaction_status).toBe('completed');
    expect(byId.get('failed_e')?.status?.transaction_status).toBe('failed');
    const missing = byId.get('missing_b')?.error;
    expect(missing).toBeInstanceOf(WalletApiError);
    expect((missing as WalletApiError).code).toBe('transaction_not_found');
    expect(byId.get('broken_d')?.error).toMatchObject({ code: 'internal_server_error', status: 500 });
    expect(progress.at(-1)).toEqual({ done: 6, failed: 2, inFlight: 0 });
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('reads ids from an async source', async () => {
    async function* fromCursor() {
      for (let i = 0; i < 12; i++) {
        await tick();
        yield `txn_async_${i}`;
      }
    }

    const results = await collect(reconcile(wallet(), fromCursor(), { concurrency: 4 }));

    expect(results.map((r) => r.transactionId).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `txn_async_${i}`).sort(),
    );
    expect(server.maxInFlight).toBeLessThanOrEqual(4);
  });
});

describe('reconcile logic', () => {
  test('yields results in completion order, not input order', async () => {
    const client = manualClient();
    const iterator = reconcile(client, ['a', 'b', 'c'], { concurrency: 3 });
    const first = iterator.next();
    await tick();

    client.reads.get('c')?.resolve(txn('c'));
    expect((await first).value?.transactionId).toBe('c');
    const second = iterator.next();
    client.reads.get('a')?.resolve(txn('a'));
    expect((await second).value?.transactionId).toBe('a');
    const third = iterator.next();
    client.reads.get('b')?.reject(new WalletError('boom'));
    const last = (await third).value;
    expect(last?.transactionId).toBe('b');
    expect(last?.error?.message).toBe('boom');
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  test('pulls ids lazily: no more than `concurrency` ahead of what was consumed', async () => {
    let pulled = 0;
    function* endless() {
      for (let i = 0; ; i++) {
        pulled++;
        yield `id_${i}`;
      }
    }
    const client = manualClient();
    const iterator = reconcile(client, endless(), { concurrency: 3 });

    const first = iterator.next();
    await tick();
    expect(pulled).toBe(3);
    client.reads.get('id_1')?.resolve(txn('id_1'));
    await first;
    expect(pulled).toBe(3);
    const second = iterator.next();
    await tick();
    expect(pulled).toBe(4);

    await iterator.return?.();
    await expect(second).resolves.toBeDefined();
  });

  test('leaving the loop early closes the source, aborts reads in flight and pulls nothing more', async () => {
    let closed = false;
    let pulled = 0;
    async function* endless() {
      try {
        for (let i = 0; ; i++) {
          pulled++;
          yield `id_${i}`;
        }
      } finally {
        closed = true;
      }
    }
    const client = manualClient();
    const results: string[] = [];

    const loop = (async () => {
      for await (const result of reconcile(client, endless(), { concurrency: 2 })) {
        results.push(result.transactionId);
        if (results.length === 2) break;
      }
    })();
    await tick();
    client.reads.get('id_0')?.resolve(txn('id_0'));
    await tick();
    client.reads.get('id_1')?.resolve(txn('id_1'));
    await loop;
    const pulledAtBreak = pulled;
    await tick();

    expect(results).toEqual(['id_0', 'id_1']);
    expect(closed).toBe(true);
    expect(pulled).toBe(pulledAtBreak);
    expect(client.reads.size).toBeGreaterThan(2);
    const inFlight = [...client.reads].filter(([id]) => !results.includes(id)).map(([, read]) => read);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(inFlight.every((read) => read.signal?.aborted)).toBe(true);
    // A read abandoned by the break may still fail later; that must not be an unhandled rejection.
    for (const read of client.reads.values()) read.reject(new WalletAbortError('status', 'late'));
    await tick();
  });

  test('return() while a next() waits for a read ends both at once', async () => {
    const client = manualClient();
    const iterator = reconcile(client, ['a', 'b']);

    const waiting = iterator.next();
    await tick();
    const returned = iterator.return?.();

    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
    await expect(returned).resolves.toEqual({ done: true, value: undefined });
    expect(client.reads.get('a')?.signal?.aborted).toBe(true);
  });

  test('an abort rejects the iteration at once with WalletAbortError and stops pulling', async () => {
    let pulled = 0;
    function* endless() {
      for (let i = 0; ; i++) {
        pulled++;
        yield `id_${i}`;
      }
    }
    const client = manualClient();
    const controller = new AbortController();
    const iterator = reconcile(client, endless(), { concurrency: 4, signal: controller.signal });

    const next = iterator.next();
    await tick();
    controller.abort('operator stop');
    const error = await next.catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WalletAbortError);
    expect((error as WalletAbortError).cause).toBe('operator stop');
    expect(pulled).toBe(4);
    expect([...client.reads.values()].every((read) => read.signal?.aborted)).toBe(true);
    await tick();
    expect(pulled).toBe(4);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  test('an already aborted signal reads nothing', async () => {
    let pulled = 0;
    const ids = {
      *[Symbol.iterator]() {
        pulled++;
        yield 'a';
      },
    };
    const client = manualClient();

    await expect(collect(reconcile(client, ids, { signal: AbortSignal.abort() }))).rejects.toBeInstanceOf(
      WalletAbortError,
    );
    expect(pulled).toBe(0);
    expect(client.reads.size).toBe(0);
  });

  test('a source that throws rejects the iteration with its own error', async () => {
    const failure = new Error('cursor lost');
    async function* flaky() {
      yield 'a';
      throw failure;
    }
    const client = {
      getTransaction: async (id: string) => txn(id),
    };

    await expect(collect(reconcile(client, flaky()))).rejects.toBe(failure);
  });

  test('an error that is not a WalletError becomes one, keeping the original as cause', async () => {
    const bug = new TypeError('socket is not a function');
    const client = {
      getTransaction: (): Promise<TransactionResult> => {
        throw bug;
      },
    };

    const [result] = await collect(reconcile(client, ['a']));

    expect(result?.error).toBeInstanceOf(WalletError);
    expect(result?.error?.cause).toBe(bug);
  });

  test.each([
    ['concurrency 0', ['a'], { concurrency: 0 }, 'options.concurrency'],
    ['a fractional concurrency', ['a'], { concurrency: 1.5 }, 'options.concurrency'],
    ['concurrency above 1000', ['a'], { concurrency: 1001 }, 'options.concurrency'],
    ['a string concurrency', ['a'], { concurrency: '8' }, 'options.concurrency'],
    ['a single id string instead of a list', 'txn_1', {}, 'ids'],
    ['a number as ids', 42, {}, 'ids'],
    ['a signal that is not an AbortSignal', ['a'], { signal: {} }, 'options.signal'],
    ['an onProgress that is not a function', ['a'], { onProgress: 1 }, 'options.onProgress'],
  ])(
    '%s is rejected by next() with WalletRequestValidationError naming it',
    async (_, ids, options, path) => {
      const client = manualClient();
      const iterator = reconcile(client, ids as string[], options as never);

      const error = await iterator.next().catch((e: unknown) => e);

      expect(error).toBeInstanceOf(WalletRequestValidationError);
      expect((error as WalletRequestValidationError).issues.map((issue) => issue.path)).toContain(path);
      expect(client.reads.size).toBe(0);
    },
  );
});
