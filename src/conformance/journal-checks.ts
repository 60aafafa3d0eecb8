import type { PaymentIntent, PaymentJournal } from '../journal/types.js';
import { type ConformanceCheck, expectRejects, expectSame, expectThat } from './check.js';

/** Makes an empty journal for one check (a fresh table, key prefix or instance). */
export type JournalFactory = () => PaymentJournal | Promise<PaymentJournal>;

const body = {
  reference_id: 'ref-1',
  amount: 250.5,
  currency: 'KES',
  payment_provider: { name: 'mpesa', phone: '+254700000000' },
};
const intent = { referenceId: 'ref-1', endpoint: 'deposit', body } as const;

function sameIntent(actual: PaymentIntent | undefined, expected: Partial<PaymentIntent>, what: string): void {
  expectThat(actual !== undefined, `${what}: intent missing`);
  for (const [key, value] of Object.entries(expected)) {
    expectSame(actual[key as keyof PaymentIntent], value, `${what}: ${key}`);
  }
}

const checks: Record<string, (journal: PaymentJournal) => Promise<void>> = {
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
  'settledBy is kept from the update that settles the payment, by id or by transaction id, and never changes':
    async (journal) => {
      await journal.record(intent);
      await journal.update('ref-1', { state: 'accepted', transactionId: 'tx-1', settledBy: 'answer' });
      sameIntent(await journal.get('ref-1'), { settledBy: undefined }, 'accepted');
      const settled = await journal.updateByTransactionId('tx-1', {
        state: 'completed',
        transactionStatus: 'completed',
        settledBy: 'webhook',
      });
      sameIntent(settled, { state: 'completed', settledBy: 'webhook' }, 'settled by webhook');
      await journal.update('ref-1', {
        state: 'completed',
        transactionStatus: 'completed',
        settledBy: 'sweeper',
      });
      sameIntent(await journal.get('ref-1'), { settledBy: 'webhook' }, 'after a later update');
    },
  'update records the outcome and keeps the fields it leaves out': async (journal) => {
    await journal.record(intent);
    await journal.update('ref-1', { state: 'unknown', reason: 'connection reset' });
    const accepted = await journal.update('ref-1', {
      state: 'accepted',
      transactionId: 'tx-1',
      transactionStatus: 'pending',
    });
    sameIntent(
      accepted,
      {
        state: 'accepted',
        transactionId: 'tx-1',
        transactionStatus: 'pending',
        reason: 'connection reset',
        body,
      },
      'update',
    );
    sameIntent(await journal.get('ref-1'), { state: 'accepted', transactionId: 'tx-1' }, 'get after update');
  },
  'a definite outcome never goes back to sending or unknown': async (journal) => {
    await journal.record(intent);
    await journal.update('ref-1', { state: 'refused', reason: 'insufficient_funds' });
    await journal.update('ref-1', { state: 'unknown' });
    await journal.update('ref-1', { state: 'sending' });
    sameIntent(
      await journal.get('ref-1'),
      { state: 'refused', reason: 'insufficient_funds' },
      'refused intent',
    );
  },
  'updateByTransactionId finds the intent by its transaction id': async (journal) => {
    await journal.record(intent);
    await journal.record({
      referenceId: 'ref-2',
      endpoint: 'withdraw',
      body: { reference_id: 'ref-2', amount: 5 },
    });
    await journal.update('ref-2', { state: 'accepted', transactionId: 'tx-2', transactionStatus: 'pending' });
    const updated = await journal.updateByTransactionId('tx-2', {
      state: 'completed',
      transactionStatus: 'completed',
    });
    sameIntent(
      updated,
      { referenceId: 'ref-2', endpoint: 'withdraw', state: 'completed', transactionStatus: 'completed' },
      'by transaction id',
    );
    sameIntent(
      await journal.get('ref-1'),
      { state: 'sending', transactionStatus: undefined },
      'other intent',
    );
  },
  'updates of an unknown reference or transaction id answer undefined': async (journal) => {
    expectSame(await journal.update('nope', { state: 'accepted' }), undefined, 'update of unknown reference');
    expectSame(
      await journal.updateByTransactionId('tx-nope', { state: 'completed', transactionStatus: 'completed' }),
      undefined,
      'unknown tx',
    );
    expectSame(await journal.get('nope'), undefined, 'get of unknown reference');
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
  'an update whose ifState does not hold changes nothing and answers the intent as it is': async (
    journal,
  ) => {
    await journal.record(intent);
    await journal.update('ref-1', { state: 'refused', transactionId: 'tx-1' });
    const kept = await journal.update('ref-1', {
      state: 'closed',
      reason: 'by hand',
      transactionStatus: 'pending',
      ifState: ['sending', 'unknown'],
    });
    sameIntent(kept, { state: 'refused', reason: undefined, transactionStatus: undefined }, 'kept');
    const closed = await journal.update('ref-1', {
      state: 'closed',
      reason: 'by hand',
      ifState: ['refused'],
    });
    sameIntent(closed, { state: 'closed', reason: 'by hand', transactionId: 'tx-1' }, 'changed');
    expectSame(
      (await journal.list('closed')).map((one) => one.referenceId),
      ['ref-1'],
      'closed intents',
    );
  },
  'of concurrent conditional transitions of one intent exactly one changes it': async (journal) => {
    await journal.record(intent);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        journal.update('ref-1', { state: 'closed', reason: `closer-${n}`, ifState: ['sending'] }),
      ),
    );
    const reasons = new Set(results.map((one) => one?.reason));
    sameIntent(await journal.get('ref-1'), { state: 'closed' }, 'after the race');
    const winner = (await journal.get('ref-1'))?.reason;
    expectThat(winner !== undefined && reasons.has(winner), 'the winning reason was answered');
    expectSame(
      results.filter((one) => one?.reason === winner && one.state === 'closed').length >= 1,
      true,
      'the winner saw its change',
    );
    expectSame(
      results.filter((one) => one?.state === 'closed' && one.reason !== winner).length,
      0,
      'no other closer saw its own change',
    );
  },
  'an accepted intent only learns its outcome: a later refusal, close or doubt changes only its fields':
    async (journal) => {
      await journal.record(intent);
      await journal.update('ref-1', {
        state: 'accepted',
        transactionId: 'tx-1',
        transactionStatus: 'pending',
      });
      await journal.update('ref-1', { state: 'refused', reason: 'insufficient_balance' });
      await journal.update('ref-1', { state: 'closed', reason: 'by hand' });
      await journal.update('ref-1', { state: 'unknown' });
      sameIntent(await journal.get('ref-1'), { state: 'accepted', transactionId: 'tx-1' }, 'accepted intent');
      expectSame(await journal.list('refused'), [], 'refused intents');
      await journal.update('ref-1', { state: 'failed', transactionStatus: 'failed' });
      sameIntent(
        await journal.get('ref-1'),
        { state: 'failed', transactionStatus: 'failed' },
        'failed intent',
      );
      expectSame((await journal.list('accepted')).length, 0, 'accepted intents after it failed');
      expectSame((await journal.list('failed')).length, 1, 'failed intents');
    },
  'a final outcome is for good: completed and failed never change, and their status stays': async (
    journal,
  ) => {
    await journal.record(intent);
    await journal.update('ref-1', {
      state: 'completed',
      transactionId: 'tx-1',
      transactionStatus: 'completed',
    });
    await journal.update('ref-1', { state: 'failed', transactionStatus: 'failed' });
    await journal.update('ref-1', { state: 'accepted', transactionStatus: 'pending' });
    await journal.update('ref-1', { state: 'refused', reason: 'late refusal' });
    sameIntent(
      await journal.get('ref-1'),
      { state: 'completed', transactionStatus: 'completed' },
      'completed',
    );
    expectSame((await journal.list('completed')).length, 1, 'completed intents');
  },
  'an update whose state and final status disagree is refused, and changes nothing': async (journal) => {
    await journal.record(intent);
    await expectRejects(
      () => journal.update('ref-1', { state: 'accepted', transactionStatus: 'completed' }),
      'accepted with a completed status',
    );
    await expectRejects(
      () => journal.update('ref-1', { transactionStatus: 'failed' }),
      'a failed status without its state',
    );
    await expectRejects(
      () => journal.update('ref-1', { state: 'completed' }),
      'completed without its status',
    );
    sameIntent(await journal.get('ref-1'), { state: 'sending', transactionStatus: undefined }, 'intent');
  },
  'a closed intent never goes back to sending or unknown through an update': async (journal) => {
    await journal.record(intent);
    await journal.update('ref-1', { state: 'closed', reason: 'never sent' });
    await journal.update('ref-1', { state: 'unknown' });
    sameIntent(await journal.get('ref-1'), { state: 'closed', reason: 'never sent' }, 'closed intent');
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

/**
 * The checks every {@link PaymentJournal} adapter passes. Each check runs against a fresh journal
 * from `factory`. Test-runner agnostic: run them in any runner, e.g. with vitest or `node:test`:
 *
 * @example
 * for (const check of journalConformanceChecks(() => createMyJournal())) test(check.name, check.run);
 */
export function journalConformanceChecks(factory: JournalFactory): ConformanceCheck[] {
  return Object.entries(checks).map(([name, check]) => ({
    name,
    run: async () => check(await factory()),
  }));
}
