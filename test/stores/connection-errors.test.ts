import { EventEmitter } from 'node:events';
import { expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import { guardConnection, guardShared } from '../../src/stores/connection-errors.js';
import { createRedisJournal } from '../../src/stores/redis/journal.js';

const drop = Object.assign(new Error('terminating connection due to administrator command'), {
  code: '57P01',
});

function warnings() {
  const seen: string[] = [];
  return { seen, logger: { warn: (message: string) => void seen.push(message) } };
}

test('a pool shared by several stores reports each drop to the logger of every store that guarded it, once each', () => {
  const pool = new EventEmitter();
  const journal = warnings();
  const dedupe = warnings();
  guardShared(pool, journal.logger, 'the journal pool');
  guardShared(pool, dedupe.logger, 'the dedupe pool');
  guardShared(pool, dedupe.logger, 'the dedupe pool');
  guardShared(pool, undefined, 'the token store pool');
  expect(pool.listenerCount('error')).toBe(1);
  expect(() => pool.emit('error', drop)).not.toThrow();
  expect(journal.seen).toEqual([expect.stringMatching(/dropped a connection \(the journal pool\)/)]);
  expect(dedupe.seen).toHaveLength(1);
});

test("a pool with the application's own 'error' listener is left to it", () => {
  const pool = new EventEmitter();
  pool.on('error', () => {});
  const store = warnings();
  guardShared(pool, store.logger, 'the journal pool');
  expect(pool.listenerCount('error')).toBe(1);
  pool.emit('error', drop);
  expect(store.seen).toEqual([]);
});

test('a logger that throws does not turn a drop back into a crash', () => {
  const client = new EventEmitter();
  guardConnection(
    client,
    {
      warn: () => {
        throw new Error('log sink down');
      },
    },
    'settlement transaction',
  );
  expect(() => client.emit('error', drop)).not.toThrow();
});

test('the Redis journal reports a drop of its client to its logger, and refuses a logger that is not one', () => {
  const client = Object.assign(new EventEmitter(), {
    sendCommand: async (_args: readonly string[], _options?: unknown) => [],
  });
  const journal = warnings();
  createRedisJournal({ client, logger: journal.logger });
  expect(() => client.emit('error', drop)).not.toThrow();
  expect(journal.seen).toEqual([expect.stringMatching(/dropped a connection \(the Redis client\)/)]);
  expect(() => createRedisJournal({ client, logger: 'console' as never })).toThrow(WalletConfigError);
});
