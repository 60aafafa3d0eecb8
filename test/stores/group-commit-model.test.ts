import fc from 'fast-check';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { GroupCommit, SLOW_STATEMENT_MS } from '../../src/stores/postgres/group-commit.js';

const MAX_IN_FLIGHT = 2;
const MAX_BATCH = 3;
const KEYS = ['a', 'b', 'c', 'd'] as const;

interface Write {
  readonly key: string;
  readonly id: number;
}

/** A statement the store is running: its writes, when it started, and how to end it. */
interface Running {
  readonly items: readonly Write[];
  readonly startedAt: number;
  readonly finish: () => void;
  readonly fail: () => void;
}

/** A store whose statements end only when a command ends them, and what it saw. */
function heldStore() {
  const running: Running[] = [];
  /** Every write sent, in the order statements started. */
  const sent: Write[] = [];
  const write = (items: readonly Write[]) =>
    new Promise<number[]>((resolve, reject) => {
      const startedAt = performance.now();
      // A statement starts beside others only once each of them has run SLOW_STATEMENT_MS.
      for (const other of running)
        expect(startedAt - other.startedAt).toBeGreaterThanOrEqual(SLOW_STATEMENT_MS);
      expect(running.length).toBeLessThan(MAX_IN_FLIGHT);
      expect(items.length).toBeGreaterThan(0);
      expect(items.length).toBeLessThanOrEqual(MAX_BATCH);
      const keys = items.map((item) => item.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const other of running) for (const item of other.items) expect(keys).not.toContain(item.key);
      sent.push(...items);
      const statement: Running = {
        items: [...items],
        startedAt,
        finish: () => resolve(items.map((item) => item.id * 10)),
        fail: () => reject(new Error(`statement of ${keys.join(',')} failed`)),
      };
      running.push(statement);
    });
  const end = (index: number, how: 'finish' | 'fail') => {
    const [statement] = running.splice(index % running.length, 1);
    statement?.[how]();
  };
  return { running, sent, write, end };
}

type Command =
  | { readonly kind: 'add'; readonly key: string }
  | { readonly kind: 'burst'; readonly keys: readonly string[] }
  | { readonly kind: 'finish' | 'fail'; readonly index: number }
  | { readonly kind: 'wait'; readonly ms: number };

const commands: fc.Arbitrary<Command[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom(...KEYS) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('burst' as const),
        keys: fc.array(fc.constantFrom(...KEYS), { minLength: 2, maxLength: 6 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('finish' as const), index: fc.nat(3) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), index: fc.nat(3) }) },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 30 }) }),
    },
  ),
  { maxLength: 60 },
);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

test('group commit: statements within their bounds, writes of one key in call order, each write answered by its own statement', async () => {
  await fc.assert(
    fc.asyncProperty(commands, async (script) => {
      const store = heldStore();
      const group = new GroupCommit(store.write, (write: Write) => write.key, {
        maxBatch: MAX_BATCH,
        maxInFlight: MAX_IN_FLIGHT,
      });
      const outcomes = new Map<number, PromiseSettledResult<number>>();
      const added: Write[] = [];
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const add = (key: string) => {
        const write = { key, id: added.length + 1 };
        added.push(write);
        group.add(write).then(
          (value) => outcomes.set(write.id, { status: 'fulfilled', value }),
          (reason: unknown) => outcomes.set(write.id, { status: 'rejected', reason }),
        );
        return write;
      };
      for (const command of script) {
        if (command.kind === 'add') {
          add(command.key);
        } else if (command.kind === 'burst') {
          // Writes added in one run of code, while nothing runs or waits, go in one statement: the
          // first write of each key, up to maxBatch; the first write is not sent alone.
          const idle = store.running.length === 0 && store.sent.length === added.length;
          const burst = command.keys.map(add);
          await settle();
          const firsts = burst.filter((write, n) => !command.keys.slice(0, n).includes(write.key));
          if (idle)
            expect(store.running.map((statement) => statement.items)).toEqual([firsts.slice(0, MAX_BATCH)]);
        } else if (command.kind === 'wait') {
          await vi.advanceTimersByTimeAsync(command.ms);
        } else if (store.running.length > 0) {
          store.end(command.index, command.kind);
        }
        await settle();
        // No write waits while nothing runs (a lone write is sent at once), nor while a statement may
        // start beside slow ones: a write whose key no statement holds goes once all have run long.
        const waiting = added.filter((write) => !store.sent.includes(write));
        const busy = new Set(store.running.flatMap((statement) => statement.items.map((item) => item.key)));
        const now = performance.now();
        const mayStart =
          store.running.length < MAX_IN_FLIGHT &&
          store.running.every((statement) => now - statement.startedAt >= SLOW_STATEMENT_MS);
        if (mayStart) expect(waiting.filter((write) => !busy.has(write.key))).toEqual([]);
      }
      while (store.running.length > 0) {
        store.end(0, 'finish');
        await settle();
      }
      // Every write was sent once, the writes of each key in the order they were made.
      expect([...store.sent].sort((x, y) => x.id - y.id)).toEqual(added);
      for (const key of KEYS) {
        const ids = store.sent.filter((write) => write.key === key).map((write) => write.id);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
      }
      // Each write is answered by its own statement: its own result, or its statement's failure.
      expect(outcomes.size).toBe(added.length);
      for (const write of added) {
        const outcome = outcomes.get(write.id);
        if (outcome?.status === 'fulfilled') expect(outcome.value).toBe(write.id * 10);
        else expect(String(outcome?.reason)).toContain(write.key);
      }
    }),
    { numRuns: 300 },
  );
});
