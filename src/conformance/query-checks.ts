import { WalletRequestValidationError } from '../errors.js';
import { listIntents } from '../journal/query.js';
import type { IntentPage, PaymentJournal } from '../journal/types.js';
import { type ConformanceCheck, expectSame, expectThat, pause } from './check.js';
import type { JournalFactory } from './journal-checks.js';

const intentOf = (reference: string, endpoint: 'deposit' | 'withdraw' = 'withdraw') =>
  ({ referenceId: reference, endpoint, body: { reference_id: reference } }) as const;

const references = (page: IntentPage) => page.intents.map((intent) => intent.referenceId);

/** Records `count` intents a few milliseconds apart, so their recording times differ. */
async function recordSeveral(journal: PaymentJournal, count: number, prefix = 'ref'): Promise<string[]> {
  const recorded: string[] = [];
  for (let n = 0; n < count; n++) {
    const reference = `${prefix}-${n}`;
    await journal.record(intentOf(reference, n % 2 === 0 ? 'deposit' : 'withdraw'));
    recorded.push(reference);
    await pause(3);
  }
  return recorded;
}

async function rejectsNaming(run: () => Promise<unknown>, field: string): Promise<void> {
  let error: unknown;
  try {
    await run();
  } catch (caught) {
    error = caught;
  }
  expectThat(error instanceof WalletRequestValidationError, `a bad ${field} is refused with a typed error`);
  expectThat(String((error as Error).message).includes(field), `the error names ${field}`);
}

const checks: Record<string, (journal: PaymentJournal) => Promise<void>> = {
  'list(query) pages through every intent oldest first, with a cursor, without repeats': async (journal) => {
    const recorded = await recordSeveral(journal, 5);
    const first = await journal.list({ limit: 2 });
    expectSame(references(first), recorded.slice(0, 2), 'first page');
    expectThat(first.next !== undefined, 'a next cursor after a full page');
    const second = await journal.list({ limit: 2, after: first.next });
    expectSame(references(second), recorded.slice(2, 4), 'second page');
    const last = await journal.list({ limit: 2, after: second.next });
    expectSame(references(last), recorded.slice(4), 'last page');
    expectSame(last.next, undefined, 'no cursor after the last page');
    const streamed: string[] = [];
    for await (const intent of listIntents(journal, { limit: 2 })) streamed.push(intent.referenceId);
    expectSame(streamed, recorded, 'listIntents streams every intent');
  },
  'list(query) filters by state, endpoint and recording time': async (journal) => {
    const recorded = await recordSeveral(journal, 6);
    await journal.update('ref-1', { state: 'refused', reason: 'insufficient_balance' });
    await journal.update('ref-2', { state: 'unknown' });
    expectSame(references(await journal.list({ state: 'refused' })), ['ref-1'], 'one state');
    expectSame(
      references(await journal.list({ state: ['refused', 'unknown'] })),
      ['ref-1', 'ref-2'],
      'two states',
    );
    expectSame(
      references(await journal.list({ endpoint: 'deposit' })),
      ['ref-0', 'ref-2', 'ref-4'],
      'deposits',
    );
    const third = (await journal.get('ref-2'))?.createdAt as string;
    const fifth = (await journal.get('ref-4'))?.createdAt as string;
    expectSame(
      references(await journal.list({ since: third, until: fifth })),
      recorded.slice(2, 4),
      'a window',
    );
    expectSame(references(await journal.list({ since: new Date(fifth) })), recorded.slice(4), 'since a Date');
  },
  'intents recorded while paging are neither repeated nor make the pager skip older ones': async (
    journal,
  ) => {
    const recorded = await recordSeveral(journal, 4);
    const seen: string[] = [];
    let after: string | undefined;
    let extra = 0;
    do {
      const page = await journal.list({ limit: 1, after });
      seen.push(...references(page));
      after = page.next;
      if (extra < 3) await journal.record(intentOf(`late-${extra++}`));
    } while (after !== undefined);
    expectSame(new Set(seen).size, seen.length, 'no intent seen twice');
    expectSame(seen.slice(0, recorded.length), recorded, 'every earlier intent, in order');
  },
  'bad queries are refused naming the field': async (journal) => {
    await rejectsNaming(() => journal.list({ limit: 0 }), 'limit');
    await rejectsNaming(() => journal.list({ limit: 1001 }), 'limit');
    await rejectsNaming(() => journal.list({ state: 'paid' as 'accepted' }), 'state');
    await rejectsNaming(() => journal.list({ endpoint: 'refund' as 'deposit' }), 'endpoint');
    await rejectsNaming(() => journal.list({ since: 'yesterday' }), 'since');
    await rejectsNaming(() => journal.list({ since: '2026-02-01', until: '2026-01-01' }), 'since');
    await rejectsNaming(() => journal.list({ after: 'not-a-cursor' }), 'after');
  },
};

/**
 * The checks of a journal's query form, `list({ state, endpoint, since, until, after, limit })`:
 * filters, keyset paging with its cursor, streaming with `listIntents`, and typed errors.
 *
 * @example
 * for (const check of queryConformanceChecks(() => createMemoryJournal())) test(check.name, check.run);
 */
export function queryConformanceChecks(factory: JournalFactory): ConformanceCheck[] {
  return Object.entries(checks).map(([name, check]) => ({ name, run: async () => check(await factory()) }));
}
