/**
 * A store for group-commit tests whose statements end only when a command ends them. Each statement
 * checks, as it starts, the bounds a group keeps: at most `maxInFlight` running, one beside others
 * only once each has run `SLOW_STATEMENT_MS`, at most `maxBatch` writes, never two of one key, and
 * never a key another running statement holds.
 */
import { expect } from 'vitest';
import { SLOW_STATEMENT_MS } from '../../src/stores/postgres/group-commit.js';

/** A write a test adds: the row it names, and its number in the order writes were added. */
export interface Write {
  readonly key: string;
  readonly id: number;
}

/** A statement the store is running: its writes, when it started, and how to end it. */
export interface Running {
  readonly items: readonly Write[];
  readonly startedAt: number;
  readonly finish: () => void;
  readonly fail: () => void;
}

/** The store; `started` hears each statement as it starts, before it is counted as running. */
export function heldStore(
  bounds: { readonly maxInFlight: number; readonly maxBatch: number },
  started: (items: readonly Write[]) => void = () => {},
) {
  const running: Running[] = [];
  /** Every write sent, in the order statements started. */
  const sent: Write[] = [];
  const write = (items: readonly Write[]) =>
    new Promise<number[]>((resolve, reject) => {
      const startedAt = performance.now();
      for (const other of running)
        expect(startedAt - other.startedAt).toBeGreaterThanOrEqual(SLOW_STATEMENT_MS);
      expect(running.length).toBeLessThan(bounds.maxInFlight);
      expect(items.length).toBeGreaterThan(0);
      expect(items.length).toBeLessThanOrEqual(bounds.maxBatch);
      const keys = items.map((item) => item.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const other of running) for (const item of other.items) expect(keys).not.toContain(item.key);
      started(items);
      sent.push(...items);
      running.push({
        items: [...items],
        startedAt,
        finish: () => resolve(items.map((item) => item.id * 10)),
        fail: () => reject(new Error(`statement of ${keys.join(',')} failed`)),
      });
    });
  const end = (index: number, how: 'finish' | 'fail') => {
    const [statement] = running.splice(index % running.length, 1);
    statement?.[how]();
  };
  /** Whether a statement may start now: fewer than `maxInFlight` run, each for `SLOW_STATEMENT_MS`. */
  const mayStart = () =>
    running.length < bounds.maxInFlight &&
    running.every((statement) => performance.now() - statement.startedAt >= SLOW_STATEMENT_MS);
  /** The keys the running statements hold. */
  const busyKeys = () => new Set(running.flatMap((statement) => statement.items.map((item) => item.key)));
  return { running, sent, write, end, mayStart, busyKeys };
}

/** What each write's promise settled with, by its id. */
export function outcomesOf() {
  const outcomes = new Map<number, PromiseSettledResult<number>>();
  const hear = (write: Write, promise: Promise<number>) => {
    promise.then(
      (value) => outcomes.set(write.id, { status: 'fulfilled', value }),
      (reason: unknown) => outcomes.set(write.id, { status: 'rejected', reason }),
    );
  };
  /**
   * Every write of `added` was sent once by `store`, the writes of each key in the order they were
   * made, and each was answered by its own statement: its own result, or its statement's failure.
   */
  const expectAnswered = (added: readonly Write[], sent: readonly Write[]) => {
    expect([...sent].sort((x, y) => x.id - y.id)).toEqual(added);
    for (const key of new Set(added.map((write) => write.key))) {
      const ids = sent.filter((write) => write.key === key).map((write) => write.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
    for (const write of added) {
      const outcome = outcomes.get(write.id);
      expect(outcome).toBeDefined();
      if (outcome?.status === 'fulfilled') expect(outcome.value).toBe(write.id * 10);
      else expect(String(outcome?.reason)).toContain(write.key);
    }
  };
  return { hear, expectAnswered };
}
