import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { WalletConfigError, WalletRequestValidationError } from '../../src/index.js';
import { createPostgresJournal } from '../../src/stores/postgres/index.js';

/** A fake pg Pool: an event emitter that records every statement, on itself and its clients. */
function fakePool() {
  const statements: string[] = [];
  const query = async (text: string) => {
    statements.push(text);
    return { rows: [], rowCount: 1 };
  };
  const clients: EventEmitter[] = [];
  const pool = Object.assign(new EventEmitter(), {
    idleCount: 0,
    query,
    async connect() {
      const client = Object.assign(new EventEmitter(), { query, release: () => {} });
      clients.push(client);
      return client;
    },
  });
  return { pool, statements, clients };
}

describe('the PostgreSQL journal bounds its transactions and survives dropped connections', () => {
  test('the settlement transaction sets its statement, lock and idle-in-transaction bounds with BEGIN', async () => {
    const { pool, statements } = fakePool();
    const journal = createPostgresJournal({ db: pool, transactionTimeouts: { lockMs: 1_500 } });
    // The settlement transaction lends a client once the callback writes through it.
    await journal.settleInTransaction?.('r', 'lease', async (transaction) => {
      await transaction.query('SELECT 1');
    });
    expect(statements[0]).toBe(
      'BEGIN; SET LOCAL statement_timeout = 30000; SET LOCAL lock_timeout = 1500; SET LOCAL idle_in_transaction_session_timeout = 10000',
    );
  });

  test("on a connection that is not pg's, each grouped record and outcome update runs in a transaction that sets the same bounds with BEGIN, and commits", async () => {
    const { pool, statements } = fakePool();
    const journal = createPostgresJournal({ db: pool, transactionTimeouts: { statementMs: 2_000 } });
    await journal.record({ referenceId: 'r', endpoint: 'withdraw', body: {} });
    await journal.update('r', { state: 'completed', transactionId: 't', transactionStatus: 'completed' });
    const begin =
      'BEGIN; SET LOCAL statement_timeout = 2000; SET LOCAL lock_timeout = 5000; SET LOCAL idle_in_transaction_session_timeout = 10000';
    // The fake answers no row, so each write also reads back, in its transaction, what it did not answer.
    const readBack = expect.stringMatching(/^SELECT .* WHERE reference_id = ANY/s);
    expect(statements).toEqual([
      begin,
      expect.stringMatching(/^INSERT INTO/),
      readBack,
      'COMMIT',
      begin,
      expect.stringMatching(/^UPDATE/),
      readBack,
      'COMMIT',
    ]);
  });

  test('bad bounds are refused with a WalletConfigError naming the field', () => {
    const { pool } = fakePool();
    for (const [transactionTimeouts, field] of [
      [{ lockMs: -1 }, 'transactionTimeouts.lockMs'],
      [{ statementMs: 1.5 }, 'transactionTimeouts.statementMs'],
      [{ idleMs: 10 }, 'transactionTimeouts.idleMs'],
      ['fast', 'transactionTimeouts'],
    ] as const) {
      const make = () =>
        createPostgresJournal({ db: pool, transactionTimeouts: transactionTimeouts as never });
      expect(make).toThrow(WalletConfigError);
      expect(make).toThrow(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
  });

  test('a logger that is not an object is refused with the WalletConfigError every store gives, naming logger', () => {
    const { pool } = fakePool();
    for (const logger of ['console', null, 42]) {
      const make = () => createPostgresJournal({ db: pool, logger: logger as never });
      expect(make).toThrow(WalletConfigError);
      expect(make).toThrow('logger: must be an object with any of debug/info/warn/error methods');
    }
  });

  test("a pool with no 'error' listener, and a settlement's client, report a dropped connection to the logger, not to the process", async () => {
    const { pool, clients } = fakePool();
    const warned: string[] = [];
    const journal = createPostgresJournal({ db: pool, logger: { warn: (message) => warned.push(message) } });
    // An EventEmitter with no 'error' listener throws what it is given: these do not.
    expect(() =>
      pool.emit('error', new Error('terminating connection due to administrator command')),
    ).not.toThrow();
    // The settlement transaction lends a client once the callback writes through it.
    await journal.settleInTransaction?.('r', 'lease', async (transaction) => {
      await transaction.query('SELECT 1');
    });
    expect(() => clients[0]?.emit('error', new Error('Connection terminated unexpectedly'))).not.toThrow();
    expect(warned).toHaveLength(2);
    expect(warned[0]).toMatch(/dropped a connection \(the journal pool\)/);
    expect(warned[1]).toMatch(/dropped a connection \(settlement transaction\)/);
  });

  test('a pool whose owner listens for errors is left to that listener', () => {
    const { pool } = fakePool();
    const own: unknown[] = [];
    pool.on('error', (error) => own.push(error));
    const warned: string[] = [];
    createPostgresJournal({ db: pool, logger: { warn: (message) => warned.push(message) } });
    pool.emit('error', new Error('gone'));
    expect(own).toHaveLength(1);
    expect(warned).toEqual([]);
  });

  test('a sending lease that is not a positive whole number of milliseconds is refused, naming it', async () => {
    const { pool } = fakePool();
    const journal = createPostgresJournal({ db: pool, groupCommit: false });
    await expect(
      journal.record({ referenceId: 'r', endpoint: 'withdraw', body: {}, sendingLeaseMs: 0 }),
    ).rejects.toThrow(WalletRequestValidationError);
    await expect(
      journal.record({ referenceId: 'r', endpoint: 'withdraw', body: {}, sendingLeaseMs: 0 }),
    ).rejects.toMatchObject({ issues: [{ path: 'sendingLeaseMs' }] });
  });
});
