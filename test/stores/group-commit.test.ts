import { afterEach, expect, test, vi } from 'vitest';
import { GroupCommit, SLOW_STATEMENT_MS } from '../../src/stores/postgres/group-commit.js';

afterEach(() => {
  vi.useRealTimers();
});

interface Write {
  readonly key: string;
  readonly value: number;
}

/** A store whose statements finish only when the test says so, recording each batch. */
function slowStore() {
  const batches: Write[][] = [];
  const pending: (() => void)[] = [];
  const write = (items: readonly Write[]) => {
    batches.push([...items]);
    return new Promise<number[]>((resolve) =>
      pending.push(() => resolve(items.map((item) => item.value * 10))),
    );
  };
  const finishOne = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { batches, write, finishOne };
}

/** Lets the code that added writes yield, as a caller awaiting its write does. */
const yielded = () => Promise.resolve();

test('writes arriving while a statement runs fill the next one, not a second statement beside it', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
  const store = slowStore();
  const group = new GroupCommit(store.write, (item: Write) => item.key, { maxInFlight: 2 });
  const first = group.add({ key: 'a', value: 1 });
  await yielded();
  vi.advanceTimersByTime(SLOW_STATEMENT_MS - 5);
  const later = [2, 3].map((value) => group.add({ key: `k${value}`, value }));
  await yielded();
  expect(store.batches).toHaveLength(1);
  const finished = store.finishOne();
  await vi.advanceTimersByTimeAsync(0);
  await finished;
  expect(await first).toBe(10);
  expect(store.batches[1]?.map((item) => item.value)).toEqual([2, 3]);
  // The timer that would have started a statement beside 'a' starts none beside the new one.
  vi.advanceTimersByTime(10);
  expect(store.batches).toHaveLength(2);
  const last = store.finishOne();
  await vi.advanceTimersByTimeAsync(0);
  await last;
  expect(await Promise.all(later)).toEqual([20, 30]);
});

test('a lone write is sent once its caller yields; writes arriving meanwhile share the next statement', async () => {
  const store = slowStore();
  const group = new GroupCommit(store.write, (item: Write) => item.key, { maxInFlight: 1 });
  const first = group.add({ key: 'a', value: 1 });
  expect(store.batches).toEqual([]);
  await yielded();
  expect(store.batches).toEqual([[{ key: 'a', value: 1 }]]);
  const later = [2, 3, 4].map((value) => group.add({ key: `k${value}`, value }));
  expect(store.batches).toHaveLength(1);
  await store.finishOne();
  expect(await first).toBe(10);
  expect(store.batches[1]?.map((item) => item.value)).toEqual([2, 3, 4]);
  await store.finishOne();
  expect(await Promise.all(later)).toEqual([20, 30, 40]);
});

test('writes added in one run of code share one statement, the first included', async () => {
  const store = slowStore();
  const group = new GroupCommit(store.write, (item: Write) => item.key, { maxInFlight: 2 });
  const writes = [1, 2, 3].map((value) => group.add({ key: `k${value}`, value }));
  await yielded();
  expect(store.batches.map((batch) => batch.map((item) => item.value))).toEqual([[1, 2, 3]]);
  await store.finishOne();
  expect(await Promise.all(writes)).toEqual([10, 20, 30]);
});

test('two writes of one key never share a statement, nor run at once, and apply in call order', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
  const store = slowStore();
  const group = new GroupCommit(store.write, (item: Write) => item.key, { maxInFlight: 2 });
  const writes = [group.add({ key: 'a', value: 1 })];
  await yielded();
  writes.push(
    group.add({ key: 'a', value: 2 }),
    group.add({ key: 'b', value: 3 }),
    group.add({ key: 'a', value: 4 }),
  );
  await yielded();
  // 'a' is running: its later writes wait, and so does 'b' until 'a' has run SLOW_STATEMENT_MS.
  expect(store.batches).toEqual([[{ key: 'a', value: 1 }]]);
  vi.advanceTimersByTime(SLOW_STATEMENT_MS - 1);
  expect(store.batches).toHaveLength(1);
  vi.advanceTimersByTime(1);
  // Then 'b' goes beside it, in a second statement on its own.
  expect(store.batches).toEqual([[{ key: 'a', value: 1 }], [{ key: 'b', value: 3 }]]);
  vi.useRealTimers();
  await store.finishOne();
  expect(store.batches[2]).toEqual([{ key: 'a', value: 2 }]);
  await store.finishOne();
  await store.finishOne();
  expect(store.batches[3]).toEqual([{ key: 'a', value: 4 }]);
  await store.finishOne();
  expect(await Promise.all(writes)).toEqual([10, 20, 30, 40]);
});

test('a batch holds at most maxBatch writes', async () => {
  const store = slowStore();
  const group = new GroupCommit(store.write, (item: Write) => item.key, { maxBatch: 2, maxInFlight: 1 });
  const writes = [1, 2, 3, 4, 5].map((value) => group.add({ key: `k${value}`, value }));
  await yielded();
  for (let n = 0; n < 3; n++) await store.finishOne();
  expect(store.batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
  expect(await Promise.all(writes)).toEqual([10, 20, 30, 40, 50]);
});

test('a failed statement rejects every write in it, and later writes still go through', async () => {
  let calls = 0;
  const group = new GroupCommit(
    async (items: readonly Write[]) => {
      calls += 1;
      if (calls === 2) throw new Error('connection lost');
      return items.map((item) => item.value);
    },
    (item) => item.key,
    { maxInFlight: 1 },
  );
  const first = group.add({ key: 'a', value: 1 });
  await yielded();
  const failing = [group.add({ key: 'b', value: 2 }), group.add({ key: 'c', value: 3 })];
  expect(await first).toBe(1);
  for (const write of failing) await expect(write).rejects.toThrow('connection lost');
  expect(await group.add({ key: 'b', value: 5 })).toBe(5);
});
