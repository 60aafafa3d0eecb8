import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningServer, startRedis } from './servers.js';
import { type Instance, postEvent, startInstance } from './webhook-instances.js';

let redis: RunningServer;
const instances: Instance[] = [];

beforeAll(async () => {
  redis = await startRedis();
  instances.push(
    ...(await Promise.all([
      startInstance({ REDIS_URL: redis.url }),
      startInstance({ REDIS_URL: redis.url }),
    ])),
  );
});

afterAll(async () => {
  for (const { child } of instances) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await redis?.stop();
});

test('two processes sharing the Redis dedupe store run each event callback exactly once across both', async () => {
  const events = Array.from({ length: 40 }, (_, n) => ({
    event: 'transaction',
    transaction_id: `tx_shared_${n}`,
    reference_id: `order-${n}`,
    transaction_status: n % 3 === 0 ? 'failed' : 'completed',
    amount: 10 + n,
    currency: 'KES',
  }));
  // As the service does: a delivery answered 503 (another one holds the event's lease) comes again.
  const deliver = async (which: number, event: (typeof events)[number]): Promise<number> => {
    for (;;) {
      const { status } = await postEvent(instances[which] as Instance, event);
      if (status !== 503) return status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  // The first half: every event four times, twice to each instance, all at once.
  const concurrent = events
    .slice(0, 20)
    .flatMap((event) => [0, 1, 0, 1].map((which) => deliver(which, event)));
  // The second half: a first delivery to one instance, then its redeliveries to both at once.
  const redelivered = events.slice(20).map(async (event, n) => {
    const first = await deliver(n % 2, event);
    return [first, ...(await Promise.all([1, 0, 1].map((which) => deliver(which, event))))];
  });
  const statuses = [...(await Promise.all(concurrent)), ...(await Promise.all(redelivered)).flat()];
  expect(new Set(statuses)).toEqual(new Set([200]));

  await new Promise((resolve) => setTimeout(resolve, 200));
  const processed = instances.flatMap(({ output }) =>
    [...output().matchAll(/processed (\S+) by/g)].map((m) => m[1]),
  );
  expect(processed.sort()).toEqual(
    events.map((event) => `${event.transaction_id}:${event.transaction_status}`).sort(),
  );
  // Both instances did part of the work: the store, not one instance, kept the duplicates out.
  expect(instances.every(({ output }) => output().includes('processed'))).toBe(true);
});
