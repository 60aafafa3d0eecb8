import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import { createPostgresTransactionEvents } from '../../src/stores/postgres/index.js';
import { createRedisTransactionEvents } from '../../src/stores/redis/index.js';

/** The error `make` throws, synchronously: option checks come before any connection. */
function configError(make: () => unknown): WalletConfigError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(WalletConfigError);
    return error as WalletConfigError;
  }
  throw new Error('did not throw');
}

const pool = new pg.Pool({ connectionString: 'postgres://wallet:s3cret-password@127.0.0.1:1/none' });
const nodeRedis = { sendCommand: async (_args: string[]) => 'OK', duplicate: () => nodeRedis };

describe('createPostgresTransactionEvents option checks', () => {
  test('without a LISTEN source, or with both, the error names connectionString', () => {
    expect(configError(() => createPostgresTransactionEvents({})).option).toBe('connectionString');
    const both = configError(() =>
      createPostgresTransactionEvents({ pool, connectionString: 'postgres://127.0.0.1/db' }),
    );
    expect(both.option).toBe('connectionString');
    expect(both.message).toMatch(/exactly one of connectionString and pool/);
  });

  test('a single pg client is refused as pool: it could not listen again after its connection drops', () => {
    const client = new pg.Client({ connectionString: 'postgres://127.0.0.1/db' });
    const error = configError(() => createPostgresTransactionEvents({ pool: client as never }));
    expect(error.issues).toEqual([
      { path: 'pool', message: expect.stringMatching(/not a client.*connectionString/) },
    ]);
    expect(configError(() => createPostgresTransactionEvents({ pool: {} as never })).option).toBe('pool');
  });

  test('every problem is reported at once, each naming its option', () => {
    const error = configError(() =>
      createPostgresTransactionEvents({
        pool,
        db: 5 as never,
        channel: 'Transaction-Events',
        trustPeerStatus: 'yes' as never,
        onError: 'log' as never,
        chanel: 'x',
      } as never),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'chanel',
      'channel',
      'trustPeerStatus',
      'onError',
      'db',
    ]);
    expect(error.message).toMatch(
      /^Invalid createPostgresTransactionEvents options: chanel: is not an option/,
    );
  });

  test('options that are not an object name the function', () => {
    expect(configError(() => createPostgresTransactionEvents(undefined as never)).option).toBe(
      'createPostgresTransactionEvents',
    );
  });

  test('a refused option never repeats the connection string, which may hold a password', () => {
    const error = configError(() =>
      createPostgresTransactionEvents({ connectionString: 'postgres://u:s3cret-password@db/x', pool }),
    );
    expect(error.message).not.toContain('s3cret');
    expect(JSON.stringify(error.issues)).not.toContain('s3cret');
  });
});

describe('createRedisTransactionEvents option checks', () => {
  test('a client that is not node-redis or ioredis is refused, naming client', () => {
    expect(configError(() => createRedisTransactionEvents({ client: {} as never })).issues).toEqual([
      { path: 'client', message: expect.stringMatching(/node-redis 5 or ioredis/) },
    ]);
  });

  test('a client without duplicate() is refused: the subscriber needs a connection of its own', () => {
    const error = configError(() =>
      createRedisTransactionEvents({ client: { sendCommand: async (_args: string[]) => 'OK' } }),
    );
    expect(error.issues).toEqual([{ path: 'client', message: expect.stringMatching(/duplicate\(\)/) }]);
  });

  test('a bad channel, a bad trustPeerStatus and an unknown key are reported together', () => {
    const error = configError(() =>
      createRedisTransactionEvents({
        client: nodeRedis,
        channel: '',
        trustPeerStatus: 1 as never,
        prefix: 'x',
      } as never),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(['prefix', 'channel', 'trustPeerStatus']);
  });
});

test('a logger that is not an object is refused by both sources, naming logger', () => {
  for (const make of [
    () => createPostgresTransactionEvents({ pool, logger: 'console' as never }),
    () => createRedisTransactionEvents({ client: nodeRedis as never, logger: 5 as never }),
  ]) {
    expect(configError(make).issues).toEqual([
      { path: 'logger', message: 'must be an object with any of debug/info/warn/error methods' },
    ]);
  }
});
