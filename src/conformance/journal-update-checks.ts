import { expectRejects, expectSame, expectThat } from './check.js';
import { body, intent, type JournalCheck, sameIntent } from './journal-fixtures.js';

/** Checks of `update` and `updateByTransactionId`: outcomes, conditions, races and the states that stick. */
export const updateChecks: Record<string, JournalCheck> = {
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
};
