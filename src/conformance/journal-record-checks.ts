import { expectRejects, expectSame, expectThat } from './check.js';
import { body, intent, type JournalCheck, sameIntent } from './journal-fixtures.js';

/** Checks of `record`, `get` and `list`: what a journal keeps of an intent, and from which record. */
export const recordChecks: Record<string, JournalCheck> = {
  'record stores a sending intent with its endpoint, body and timestamps': async (journal) => {
    const recorded = await journal.record(intent);
    sameIntent(
      recorded,
      { referenceId: 'ref-1', endpoint: 'deposit', body, state: 'sending', transactionId: undefined },
      'record',
    );
    expectThat(!Number.isNaN(Date.parse(recorded.createdAt)), 'createdAt is an ISO date');
    expectSame(recorded.updatedAt, recorded.createdAt, 'updatedAt of a new intent');
    sameIntent(await journal.get('ref-1'), { body, state: 'sending' }, 'get');
  },
  'recording the same reference id again keeps the first intent': async (journal) => {
    const first = await journal.record(intent);
    await journal.update('ref-1', { state: 'accepted', transactionId: 'tx-1' });
    const again = await journal.record({ ...intent, body: { ...body, amount: 1 } });
    sameIntent(
      again,
      { body, state: 'accepted', transactionId: 'tx-1', createdAt: first.createdAt },
      'second record',
    );
  },
  'concurrent records of one reference id keep one intent, and count every record': async (journal) => {
    const all = await Promise.all(Array.from({ length: 10 }, () => journal.record(intent)));
    expectSame(new Set(all.map((one) => one.createdAt)).size, 1, 'distinct createdAt values');
    expectSame(
      all.map((one) => one.records).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      'records counted',
    );
    expectSame((await journal.list('sending')).length, 1, 'sending intents');
  },
  'list answers the intents in one state, oldest first, up to the limit': async (journal) => {
    for (const n of [1, 2, 3, 4]) {
      await journal.record({
        referenceId: `ref-${n}`,
        endpoint: 'deposit',
        body: { reference_id: `ref-${n}` },
      });
    }
    await journal.update('ref-2', { state: 'unknown' });
    expectSame(
      (await journal.list('sending')).map((one) => one.referenceId),
      ['ref-1', 'ref-3', 'ref-4'],
      'sending',
    );
    expectSame(
      (await journal.list('sending', { limit: 2 })).map((one) => one.referenceId),
      ['ref-1', 'ref-3'],
      'limit 2',
    );
    expectSame(
      (await journal.list('unknown')).map((one) => one.referenceId),
      ['ref-2'],
      'unknown',
    );
    expectSame(await journal.list('accepted'), [], 'accepted');
  },
  'record keeps the sending merchant, and an intent without one reads merchant undefined': async (
    journal,
  ) => {
    sameIntent(await journal.record({ ...intent, merchant: 'mw1:abc' }), { merchant: 'mw1:abc' }, 'record');
    sameIntent(await journal.get('ref-1'), { merchant: 'mw1:abc' }, 'get');
    const other = { referenceId: 'ref-2', endpoint: 'withdraw', body: { reference_id: 'ref-2' } } as const;
    sameIntent(await journal.record(other), { merchant: undefined }, 'record without a merchant');
  },
  "record keeps a deposit's user e-mail from the first record, and one without reads undefined": async (
    journal,
  ) => {
    sameIntent(
      await journal.record({ ...intent, userEmail: 'ada@x.io' }),
      { userEmail: 'ada@x.io' },
      'record',
    );
    sameIntent(await journal.get('ref-1'), { userEmail: 'ada@x.io' }, 'get');
    sameIntent(
      await journal.record({ ...intent, userEmail: 'eve@x.io' }),
      { userEmail: 'ada@x.io', records: 2 },
      'recorded again with another e-mail',
    );
    const other = { referenceId: 'ref-2', endpoint: 'withdraw', body: { reference_id: 'ref-2' } } as const;
    sameIntent(await journal.record(other), { userEmail: undefined }, 'record without a user');
  },
  "record keeps the caller's metadata from the first record": async (journal) => {
    const metadata = { orderId: 'o-42', channel: 'web' };
    sameIntent(await journal.record({ ...intent, metadata }), { metadata }, 'record');
    sameIntent(await journal.get('ref-1'), { metadata }, 'get');
    sameIntent(
      await journal.record({ ...intent, metadata: { orderId: 'o-43' } }),
      { metadata },
      'recorded again',
    );
    const other = { referenceId: 'ref-2', endpoint: 'withdraw', body: { reference_id: 'ref-2' } } as const;
    sameIntent(await journal.record(other), { metadata: undefined }, 'record without metadata');
  },
  'a refused or closed intent stays as it is when recorded again, counting the record': async (journal) => {
    await journal.record(intent);
    await journal.update('ref-1', { state: 'refused', reason: 'insufficient_balance' });
    sameIntent(
      await journal.record({ ...intent, body: { ...body, amount: 1 }, merchant: 'mw1:b' }),
      { state: 'refused', reason: 'insufficient_balance', body, merchant: undefined, records: 2 },
      'refused, recorded again',
    );
    await journal.update('ref-1', { state: 'closed', reason: 'settled by hand' });
    sameIntent(await journal.record(intent), { state: 'closed', records: 3 }, 'closed, recorded again');
    expectSame(await journal.list('sending'), [], 'sending intents');
  },
  'bad arguments are refused': async (journal) => {
    await expectRejects(() => journal.list('lost' as 'sending'), 'list of an unknown state');
    await expectRejects(
      () => journal.record({ ...intent, referenceId: '' }),
      'record with an empty reference id',
    );
    await journal.record(intent);
    await expectRejects(
      () => journal.update('ref-1', { state: 'done' as 'accepted' }),
      'update to an unknown state',
    );
    sameIntent(await journal.get('ref-1'), { state: 'sending' }, 'intent after refused update');
  },
};
