import fc from 'fast-check';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { GroupCommit, SLOW_STATEMENT_MS } from '../../src/stores/postgres/group-commit.js';
import { heldStore, outcomesOf, type Write } from '../helpers/held-statements.js';

const MAX_IN_FLIGHT = 2;
const MAX_BATCH = 3;
const KEYS = ['a', 'b', 'c', 'd'] as const;

type Command =
  | { readonly kind: 'add'; readonly key: string }
  | { readonly kind: 'finish' | 'fail'; readonly index: number }
  | { readonly kind: 'wait'; readonly ms: number };

const commands: fc.Arbitrary<Command[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom(...KEYS) }) },
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
      const store = heldStore({ maxInFlight: MAX_IN_FLIGHT, maxBatch: MAX_BATCH });
      const group = new GroupCommit(store.write, (write: Write) => write.key, {
        maxBatch: MAX_BATCH,
        maxInFlight: MAX_IN_FLIGHT,
      });
      const outcomes = outcomesOf();
      const added: Write[] = [];
      const settle = () => vi.advanceTimersByTimeAsync(0);
      for (const command of script) {
        if (command.kind === 'add') {
          const write = { key: command.key, id: added.length + 1 };
          added.push(write);
          outcomes.hear(write, group.add(write));
        } else if (command.kind === 'wait') {
          await vi.advanceTimersByTimeAsync(command.ms);
        } else if (store.running.length > 0) {
          store.end(command.index, command.kind);
        }
        await settle();
        // No write waits while nothing runs (a lone write is sent at once), nor while a statement may
        // start beside slow ones: a write whose key no statement holds goes once all have run long.
        const waiting = added.filter((write) => !store.sent.includes(write));
        const busy = store.busyKeys();
        if (store.mayStart()) expect(waiting.filter((write) => !busy.has(write.key))).toEqual([]);
      }
      while (store.running.length > 0) {
        store.end(0, 'finish');
        await settle();
      }
      outcomes.expectAnswered(added, store.sent);
    }),
    { numRuns: 300 },
  );
});

type GroupName = 'records' | 'updates';

type TwoGroupCommand =
  | { readonly kind: 'add'; readonly group: GroupName; readonly key: string }
  | { readonly kind: 'finish' | 'fail'; readonly group: GroupName; readonly index: number }
  | { readonly kind: 'wait'; readonly ms: number };

const groupName = fc.constantFrom<GroupName>('records', 'updates');
const twoGroupCommands: fc.Arbitrary<TwoGroupCommand[]> = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        group: groupName,
        key: fc.constantFrom(...KEYS),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('finish' as const), group: groupName, index: fc.nat(3) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('fail' as const), group: groupName, index: fc.nat(3) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 30 }) }),
    },
  ),
  { maxLength: 80 },
);

test('a group yielding to another starts no statement while that one runs a statement, until a write of it has waited SLOW_STATEMENT_MS, and then at once', async () => {
  await fc.assert(
    fc.asyncProperty(twoGroupCommands, async (script) => {
      const bounds = { maxInFlight: MAX_IN_FLIGHT, maxBatch: MAX_BATCH };
      const addedAt = new Map<number, number>();
      const records = heldStore(bounds);
      const added = { records: [] as Write[], updates: [] as Write[] };
      /** How long the oldest update not yet sent has waited. */
      const oldestUpdateWait = () =>
        Math.max(
          0,
          ...added.updates
            .filter((write) => !updates.sent.includes(write))
            .map((write) => performance.now() - (addedAt.get(write.id) ?? Number.NaN)),
        );
      const updates = heldStore(bounds, () => {
        // Started while a record statement runs: only once an update has waited its turn out.
        if (records.running.length > 0) expect(oldestUpdateWait()).toBeGreaterThanOrEqual(SLOW_STATEMENT_MS);
      });
      const stores = { records, updates };
      const recordGroup = new GroupCommit(records.write, (write: Write) => write.key, bounds);
      const groups = {
        records: recordGroup,
        updates: new GroupCommit(updates.write, (write: Write) => write.key, bounds, recordGroup),
      };
      const outcomes = outcomesOf();
      let ids = 0;
      for (const command of script) {
        if (command.kind === 'add') {
          const write = { key: command.key, id: ++ids };
          addedAt.set(write.id, performance.now());
          added[command.group].push(write);
          outcomes.hear(write, groups[command.group].add(write));
        } else if (command.kind === 'wait') {
          await vi.advanceTimersByTimeAsync(command.ms);
        } else if (stores[command.group].running.length > 0) {
          stores[command.group].end(command.index, command.kind);
        }
        await vi.advanceTimersByTimeAsync(0);
        // Records never wait on updates. Updates that may start (nothing of theirs runs) wait only
        // while a record statement runs and their oldest has waited less than SLOW_STATEMENT_MS.
        const waitingRecords = added.records.filter((write) => !records.sent.includes(write));
        const recordKeys = records.busyKeys();
        if (records.mayStart())
          expect(waitingRecords.filter((write) => !recordKeys.has(write.key))).toEqual([]);
        const waitingUpdates = added.updates.filter((write) => !updates.sent.includes(write));
        const yielding = records.running.length > 0 && oldestUpdateWait() < SLOW_STATEMENT_MS;
        if (updates.running.length === 0 && !yielding) expect(waitingUpdates).toEqual([]);
      }
      while (records.running.length + updates.running.length > 0) {
        for (const store of [records, updates]) if (store.running.length > 0) store.end(0, 'finish');
        await vi.advanceTimersByTimeAsync(0);
      }
      // Ended with no time passing: the updates held for records went as records went idle.
      outcomes.expectAnswered(added.records, records.sent);
      outcomes.expectAnswered(added.updates, updates.sent);
    }),
    { numRuns: 300 },
  );
});
