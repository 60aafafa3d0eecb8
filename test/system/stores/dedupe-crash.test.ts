import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { usePostgresPool } from './postgres-pool.js';
import { type RunningServer, startRedis } from './servers.js';
import { type Instance, postEvent as post, startInstance as start } from './webhook-instances.js';

const LEASE_MS = 1_500;
const children: ChildProcess[] = [];
const postgres = usePostgresPool({ migrate: { dedupeTable: 'crash_dedupe' } });
let redis: RunningServer;

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const instance = await start({ LEASE_MS: String(LEASE_MS), ...env });
  children.push(instance.child);
  return instance;
}

async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await redis?.stop();
});

describe.each([
  ['Redis', () => ({ REDIS_URL: redis.url, PREFIX: 'crash:' })],
  ['PostgreSQL', () => ({ DATABASE_URL: postgres.url, DEDUPE_TABLE: 'crash_dedupe' })],
])('on %s, a handler killed in the middle of a callback loses no event', (_name, storeEnv) => {
  test('a redelivery meanwhile is answered in_progress, and one after the lease is processed once', async () => {
    const event = {
      event: 'transaction',
      transaction_id: `tx_crash_${_name}`,
      reference_id: 'order-crash',
      transaction_status: 'completed',
      amount: 25,
      currency: 'KES',
    };
    const id = `${event.transaction_id}:completed`;
    const [dying, survivor] = await Promise.all([
      startInstance({ ...storeEnv(), HANG: '1' }),
      startInstance(storeEnv()),
    ]);
    void post(dying, event).catch(() => undefined);
    await until('the first callback to start', () => dying.output().includes(`started ${id}`));

    const meanwhile = await post(survivor, event);
    expect(meanwhile.status).toBe(503);
    expect(await meanwhile.json()).toMatchObject({ error: 'in_progress' });
    expect(Number(meanwhile.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    dying.child.kill('SIGKILL');
    // The service keeps redelivering while it gets 503s; once the lease ends, one is processed.
    const deadline = Date.now() + LEASE_MS * 10;
    let answer: unknown;
    for (;;) {
      const response = await post(survivor, event);
      if (response.status === 200) {
        answer = await response.json();
        break;
      }
      expect(response.status).toBe(503);
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer).toEqual({ received: true });
    expect(survivor.output()).toContain(`processed ${id}`);
    const again = await post(survivor, event);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(survivor.output().match(new RegExp(`processed ${id}`, 'g'))).toHaveLength(1);
  });
});
