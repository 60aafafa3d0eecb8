import { expect, test } from 'vitest';
import { GroupCommit, isDataError } from '../../src/stores/postgres/group-commit.js';

interface Write {
  readonly key: string;
  readonly poisoned?: boolean;
}

/** An error as `pg` reports PostgreSQL's, with its SQLSTATE in `code`. */
function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * A store whose statements fail whole, with `failure`, when they hold a poisoned write, as
 * PostgreSQL fails a statement holding U+0000 in a jsonb; it records each statement's keys.
 */
function poisonedStore(failure: () => Error) {
  const statements: string[][] = [];
  const write = async (items: readonly Write[]) => {
    statements.push(items.map((item) => item.key));
    if (items.some((item) => item.poisoned)) throw failure();
    return items.map((item) => `stored ${item.key}`);
  };
  return { statements, write };
}

const untranslatable = () => serverError('22P05', 'unsupported Unicode escape sequence');

test('a batch that fails on one write’s value is written again write by write: only that write fails', async () => {
  const store = poisonedStore(untranslatable);
  const group = new GroupCommit(store.write, (item: Write) => item.key);
  const outcomes = await Promise.allSettled([
    group.add({ key: 'a' }),
    group.add({ key: 'b', poisoned: true }),
    group.add({ key: 'c' }),
  ]);
  expect(outcomes).toEqual([
    { status: 'fulfilled', value: 'stored a' },
    { status: 'rejected', reason: expect.objectContaining({ code: '22P05' }) },
    { status: 'fulfilled', value: 'stored c' },
  ]);
  expect(store.statements).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
});

test('a batch that fails otherwise rejects every write in it, and is not written again', async () => {
  for (const failure of [
    () => serverError('40P01', 'deadlock detected'),
    () => serverError('57014', 'canceling statement due to statement timeout'),
    () => new Error('Connection terminated unexpectedly'),
  ]) {
    const store = poisonedStore(failure);
    const group = new GroupCommit(store.write, (item: Write) => item.key);
    const outcomes = await Promise.allSettled([
      group.add({ key: 'a' }),
      group.add({ key: 'b', poisoned: true }),
    ]);
    const message = failure().message;
    expect(outcomes).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ message }) },
      { status: 'rejected', reason: expect.objectContaining({ message }) },
    ]);
    expect(store.statements).toEqual([['a', 'b']]);
  }
});

test('a lone write that fails on its value is not written again', async () => {
  const store = poisonedStore(untranslatable);
  const group = new GroupCommit(store.write, (item: Write) => item.key);
  await expect(group.add({ key: 'a', poisoned: true })).rejects.toMatchObject({ code: '22P05' });
  expect(store.statements).toEqual([['a']]);
});

test('writes written again keep call order: a later write of one of their keys follows them', async () => {
  const store = poisonedStore(untranslatable);
  const group = new GroupCommit(store.write, (item: Write) => item.key, { maxInFlight: 1 });
  const first = [group.add({ key: 'a' }), group.add({ key: 'b', poisoned: true })];
  await Promise.resolve();
  const later = group.add({ key: 'a' });
  await Promise.allSettled([...first, later]);
  expect(store.statements).toEqual([['a', 'b'], ['a'], ['b'], ['a']]);
});

test('a data error is an error whose code is of SQLSTATE class 22, and nothing else', () => {
  for (const code of ['22P05', '22021', '22003', '22P02', '22001'])
    expect([code, isDataError(serverError(code, 'data'))]).toEqual([code, true]);
  for (const error of [
    serverError('23505', 'unique violation'),
    serverError('40P01', 'deadlock detected'),
    serverError('22', 'not a SQLSTATE'),
    serverError('ECONNRESET', 'reset'),
    { code: 22021 },
    new Error('no code'),
    undefined,
    null,
  ])
    expect(isDataError(error)).toBe(false);
});
