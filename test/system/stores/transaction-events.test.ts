import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, describe, expect, test } from 'vitest';
import { WalletResponseValidationError } from '../../../src/errors.js';
import type { TransactionEventContext, TransactionEventLike } from '../../../src/polling/event-source.js';
import { waitForTransaction } from '../../../src/polling/poll.js';
import type { TransactionResult } from '../../../src/schemas/responses.js';
import { createPostgresTransactionEvents } from '../../../src/stores/postgres/index.js';
import { createRedisTransactionEvents } from '../../../src/stores/redis/index.js';
import type {
  SharedTransactionEvents,
  TransactionEventsErrorInfo,
} from '../../../src/stores/shared-transaction-events.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';
import { usePostgresPool } from './postgres-pool.js';
import { useRedisClients } from './redis-clients.js';

/** Polling this slow never ends a wait within the test: only an event can. */
const SLOW = { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 };

function result(id: string, status: TransactionResult['transaction_status']): TransactionResult {
  return {
    transaction_id: id,
    reference_id: `order-${id}`,
    transaction_status: status,
    amount: '250.00',
    currency: 'KES',
    failure_reason: null,
  };
}

/** A status endpoint that answers `status` for every id and counts the reads. */
function statusEndpoint(status: TransactionResult['transaction_status']) {
  const reads: string[] = [];
  return {
    reads,
    getTransaction: async (id: string) => {
      reads.push(id);
      return result(id, status);
    },
  };
}

function webhook(id: string): Request {
  const body = {
    event: 'transaction',
    transaction_id: id,
    reference_id: `order-${id}`,
    transaction_status: 'completed',
    amount: 250,
    currency: 'KES',
  };
  return new Request('http://127.0.0.1/webhooks', { method: 'POST', body: JSON.stringify(body) });
}

/** Resolves with the first event `events` delivers for `id`. */
function nextEvent(events: SharedTransactionEvents, id: string) {
  return new Promise<[TransactionEventLike, TransactionEventContext | undefined]>((resolve) => {
    const stop = events.subscribe((event, context) => {
      if (event.transaction_id !== id) return;
      stop();
      resolve([event, context]);
    });
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms)),
  ]);

interface Reported {
  readonly errors: [unknown, TransactionEventsErrorInfo][];
  readonly onError: (error: unknown, info: TransactionEventsErrorInfo) => void;
}
function reported(): Reported {
  const errors: [unknown, TransactionEventsErrorInfo][] = [];
  return { errors, onError: (error, info) => void errors.push([error, info]) };
}

/** How a backend makes an instance's event source on connections of its own, and writes raw messages. */
interface Backend {
  readonly name: string;
  instance(
    channel: string,
    options?: { trustPeerStatus?: boolean; onError?: Reported['onError'] },
  ): Promise<SharedTransactionEvents>;
  sendRaw(channel: string, message: string): Promise<void>;
  /** How many connections are subscribed to `channel`. */
  listeners(channel: string): Promise<number>;
}

const postgres = usePostgresPool({ max: 10 });
const redis = useRedisClients();
const closers: (() => Promise<unknown>)[] = [];
let channels = 0;
const freshChannel = () => `events_${++channels}`;
const latencies: Record<string, number[]> = {};

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  for (const [name, values] of Object.entries(latencies)) {
    const sorted = [...values].sort((a, b) => a - b);
    process.stdout.write(
      `transaction events, ${name}: webhook on A to wait ended on B in ${sorted.map((ms) => ms.toFixed(1)).join(', ')} ms\n`,
    );
  }
});

const listenUrl = (channel: string) => `${postgres.url}?application_name=listen_${channel}`;

const backends: Backend[] = [
  {
    name: 'PostgreSQL, listening on a connection string',
    instance: (channel, options) =>
      createPostgresTransactionEvents({
        connectionString: listenUrl(channel),
        db: postgres.pool,
        channel,
        ...options,
      }),
    sendRaw: async (channel, message) =>
      void (await postgres.pool.query('SELECT pg_notify($1, $2)', [channel, message])),
    listeners: async (channel) =>
      Number(
        (
          await postgres.pool.query(
            'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1',
            [`listen_${channel}`],
          )
        ).rows[0].n,
      ),
  },
  {
    name: 'PostgreSQL, listening on a client of a pool',
    instance: async (channel, options) => {
      const own = new pg.Pool({ connectionString: listenUrl(channel), max: 2 });
      closers.push(() => own.end());
      return createPostgresTransactionEvents({ pool: own, channel, ...options });
    },
    sendRaw: async (channel, message) =>
      void (await postgres.pool.query('SELECT pg_notify($1, $2)', [channel, message])),
    listeners: async (channel) =>
      Number(
        (
          await postgres.pool.query(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
            [`listen_${channel}`],
          )
        ).rows[0].n,
      ),
  },
  {
    name: 'Redis through node-redis',
    instance: async (channel, options) => {
      const client = await createClient({ url: redis.url }).connect();
      closers.push(() => client.close());
      return createRedisTransactionEvents({ client, channel, ...options });
    },
    sendRaw: async (channel, message) => void (await redis.nodeRedis.publish(channel, message)),
    listeners: async (channel) => Number((await redis.nodeRedis.pubSubNumSub(channel))[channel]),
  },
  {
    name: 'Redis through ioredis',
    instance: async (channel, options) => {
      const client = new IoRedis(redis.url);
      closers.push(async () => client.disconnect());
      return createRedisTransactionEvents({ client, channel, ...options });
    },
    sendRaw: async (channel, message) => void (await redis.nodeRedis.publish(channel, message)),
    listeners: async (channel) => Number((await redis.nodeRedis.pubSubNumSub(channel))[channel]),
  },
];

describe.each(backends)('$name', (backend) => {
  async function pair(options: Parameters<Backend['instance']>[1] = {}) {
    const channel = freshChannel();
    const a = await backend.instance(channel, options);
    const b = await backend.instance(channel, options);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    return { channel, a, b };
  }

  test('a webhook verified on instance A ends a wait on instance B with the status A read back, without B reading it', async () => {
    const { a, b } = await pair();
    const handlerA = createWebhookHandler({
      verifyWith: statusEndpoint('completed'),
      onTransaction: a.publish,
    });
    for (let run = 0; run < 5; run++) {
      const id = `tx_across_${run}`;
      const endpointB = statusEndpoint('pending');
      const waiting = waitForTransaction(endpointB, id, { ...SLOW, events: b });
      await new Promise((resolve) => setTimeout(resolve, 20)); // B's first read answered pending
      const started = performance.now();
      expect((await handlerA(webhook(id))).status).toBe(200);
      const final = await waiting;
      const elapsed = performance.now() - started;
      latencies[backend.name] = [...(latencies[backend.name] ?? []), elapsed];
      expect(final).toMatchObject({ transaction_id: id, transaction_status: 'completed' });
      expect(endpointB.reads).toEqual([id]);
      // Real budgets belong in the benchmarks; this only says it came from the event, not a poll.
      expect(elapsed).toBeLessThan(1_000);
    }
  });

  test('an unverified event from another instance makes a wait read the status at once', async () => {
    const { a, b } = await pair();
    const handlerA = createWebhookHandler({ onTransaction: a.publish });
    const endpointB = statusEndpoint('pending');
    const waiting = waitForTransaction(endpointB, 'tx_hint', { ...SLOW, events: b });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const received = nextEvent(b, 'tx_hint');
    await handlerA(webhook('tx_hint'));
    expect((await within(received, 1_000))[1]).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(endpointB.reads).toEqual(['tx_hint', 'tx_hint']);
    void waiting.catch(() => undefined);
  });

  test('with trustPeerStatus false, a verified status from another instance arrives as a hint', async () => {
    const { a, b } = await pair({ trustPeerStatus: false });
    const received = nextEvent(b, 'tx_untrusted');
    await a.publish(
      { transaction_id: 'tx_untrusted' },
      { verified: true, status: result('tx_untrusted', 'completed') },
    );
    expect(await within(received, 1_000)).toEqual([{ transaction_id: 'tx_untrusted' }, undefined]);
  });

  test('malformed messages are dropped and reported, and the next good one is delivered', async () => {
    const errors = reported();
    const { channel, a, b } = await pair({ onError: errors.onError });
    const delivered: string[] = [];
    b.subscribe((event, context) => delivered.push(`${event.transaction_id}:${context?.verified ?? 'hint'}`));
    const status = result('tx_bad', 'completed');
    const malformed = [
      'not json',
      '[1]',
      JSON.stringify({ v: 2, origin: 'x', transaction_id: 'tx_bad' }),
      JSON.stringify({ v: 1, origin: 'x', transaction_id: '' }),
      JSON.stringify({ v: 1, origin: 'x', transaction_id: 'tx_bad', status: { ...status, amount: 250 } }),
      JSON.stringify({
        v: 1,
        origin: 'x',
        transaction_id: 'tx_bad',
        status: { ...status, transaction_status: 'settled' },
      }),
      JSON.stringify({
        v: 1,
        origin: 'x',
        transaction_id: 'tx_bad',
        status: result('tx_other', 'completed'),
      }),
    ];
    for (const message of malformed) await backend.sendRaw(channel, message);
    // Messages on one channel arrive in order: once both have the good one, both have read the rest.
    const good = Promise.all([nextEvent(a, 'tx_good'), nextEvent(b, 'tx_good')]);
    await backend.sendRaw(
      channel,
      JSON.stringify({ v: 1, origin: 'x', transaction_id: 'tx_good', status: result('tx_good', 'failed') }),
    );
    await within(good, 1_000);
    expect(delivered).toEqual(['tx_good:true']);
    // Both instances listen, and each drops and reports every malformed message.
    expect(
      errors.errors.map(([error, info]) => [error instanceof WalletResponseValidationError, info.stage]),
    ).toEqual([...malformed, ...malformed].map(() => [true, 'message']));
  });

  test('close() stops delivery and releases the listening connection', async () => {
    const { channel, a, b } = await pair();
    expect(await backend.listeners(channel)).toBe(2);
    const heard: string[] = [];
    b.subscribe((event) => heard.push(event.transaction_id));
    await b.close();
    await b.close();
    await a.publish({ transaction_id: 'tx_after_close' });
    await backend.sendRaw(
      channel,
      JSON.stringify({ v: 1, origin: 'x', transaction_id: 'tx_raw_after_close' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([]);
    await a.close();
    await expect.poll(() => backend.listeners(channel)).toBe(0);
  });
});

describe('PostgreSQL LISTEN after its connection drops', () => {
  test.each([
    [
      'a connection string',
      (channel: string, onError: Reported['onError']) =>
        createPostgresTransactionEvents({
          connectionString: listenUrl(channel),
          db: postgres.pool,
          channel,
          onError,
        }),
    ],
    [
      'a pool',
      (channel: string, onError: Reported['onError']) => {
        const own = new pg.Pool({ connectionString: listenUrl(channel), max: 2 });
        closers.push(() => own.end());
        return createPostgresTransactionEvents({ pool: own, channel, onError });
      },
    ],
  ] as const)(
    'listening through %s, a terminated backend is reported and replaced, and events flow again',
    async (_, make) => {
      const channel = freshChannel();
      const errors = reported();
      const a = await createPostgresTransactionEvents({
        connectionString: `${postgres.url}?application_name=publisher`,
        channel,
      });
      const b = await make(channel, errors.onError);
      closers.push(
        () => a.close(),
        () => b.close(),
      );
      const backend = async () =>
        (
          await postgres.pool.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
            [`listen_${channel}`],
          )
        ).rows as { pid: number }[];
      const [before] = await backend();
      await postgres.pool.query('SELECT pg_terminate_backend($1)', [before?.pid]);
      await expect.poll(() => errors.errors.map(([, info]) => info.stage)).toContain('connection');

      const started = performance.now();
      let delivered = false;
      b.subscribe((event) => {
        if (event.transaction_id === 'tx_after_drop') delivered = true;
      });
      // Events sent before B listens again are not heard by B (its waits poll); keep sending until one is.
      while (!delivered && performance.now() - started < 10_000) {
        await a.publish({ transaction_id: 'tx_after_drop' });
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(delivered).toBe(true);
      const [after] = await backend();
      expect(after?.pid).not.toBe(before?.pid);
      process.stdout.write(
        `transaction events: LISTEN back ${(performance.now() - started).toFixed(0)} ms after the backend was terminated\n`,
      );
    },
  );
});

describe('Redis subscribers after their connection is killed', () => {
  test.each(backends.filter((backend) => backend.name.startsWith('Redis')))(
    '$name subscribes again by itself, and events flow again',
    async (backend) => {
      const channel = freshChannel();
      const errors = reported();
      const a = await backend.instance(channel);
      const b = await backend.instance(channel, { onError: errors.onError });
      closers.push(
        () => a.close(),
        () => b.close(),
      );
      await redis.nodeRedis.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
      const started = performance.now();
      let delivered = false;
      b.subscribe((event) => {
        if (event.transaction_id === 'tx_after_kill') delivered = true;
      });
      while (!delivered && performance.now() - started < 10_000) {
        await a.publish({ transaction_id: 'tx_after_kill' });
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(delivered).toBe(true);
      expect(await backend.listeners(channel)).toBe(2);
    },
  );
});

describe('watchTransaction across instances', () => {
  test('a verified final event published on instance A ends a watch on instance B with that status', async () => {
    const channel = freshChannel();
    const a = await backends[2]?.instance(channel);
    const b = await backends[2]?.instance(channel);
    if (!a || !b) throw new Error('no Redis backend');
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const endpointB = statusEndpoint('pending');
    const seen: string[] = [];
    const watching = (async () => {
      const { watchTransaction } = await import('../../../src/polling/poll.js');
      for await (const status of watchTransaction(endpointB, 'tx_watched', { ...SLOW, events: b })) {
        seen.push(status.transaction_status);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await a.publish(
      { transaction_id: 'tx_watched' },
      { verified: true, status: result('tx_watched', 'failed') },
    );
    await within(watching, 1_000);
    expect(seen).toEqual(['pending', 'failed']);
    expect(endpointB.reads).toEqual(['tx_watched']);
  });
});

describe('a LISTEN that hears nothing', () => {
  test('is reported as a WalletConfigError naming the listening option within 2 s, and a healthy one is not', async () => {
    const channel = freshChannel();
    const real = new pg.Pool({ connectionString: listenUrl(channel), max: 2 });
    closers.push(() => real.end());
    // As through PgBouncer in transaction pooling: LISTEN succeeds, its notifications go elsewhere.
    const deafPool = {
      query: (text: string, values?: unknown[]) => real.query(text, values),
      connect: async () => {
        const client = await real.connect();
        return {
          query: (text: string, values?: unknown[]) => client.query(text, values),
          release: (destroy?: boolean | Error) => client.release(destroy),
          on: (event: string, listener: (...args: never[]) => void) =>
            event === 'notification' ? undefined : client.on(event as 'error', listener as () => void),
        };
      },
    };
    const deaf = reported();
    const healthy = reported();
    const sources = await Promise.all([
      createPostgresTransactionEvents({ pool: deafPool, channel, onError: deaf.onError }),
      createPostgresTransactionEvents({
        connectionString: listenUrl(channel),
        db: postgres.pool,
        channel,
        onError: healthy.onError,
      }),
    ]);
    closers.push(...sources.map((source) => () => source.close()));
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    expect(deaf.errors).toEqual([
      [
        expect.objectContaining({
          name: 'WalletConfigError',
          option: 'pool',
          message: expect.stringMatching(/PgBouncer transaction pooling/),
        }),
        { stage: 'connection' },
      ],
    ]);
    expect(healthy.errors).toEqual([]);
  });
});
