import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  closeIntent,
  createMemoryJournal,
  type PaymentJournal,
  WalletAbortError,
  WalletApiError,
  WalletJournalError,
  WalletOutcomeUnknownError,
  WalletRequestValidationError,
} from '../../src/index.js';
import { outcomesWritten } from '../helpers/written-behind.js';
import { KEYS, startServerTarget, type Target, TOKENS } from '../integration/harness.js';

let target: Target;
beforeAll(async () => {
  target = await startServerTarget();
});
afterAll(() => target.close());
beforeEach(() => target.sandbox.faults.clear());

const applied = (referenceId: string) =>
  target.sandbox.transactions().filter((one) => one.reference_id === referenceId);
let serial = 0;
const ref = (name: string) => `truth-${name}-${++serial}`;

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call should have failed'),
    (caught: unknown) => caught,
  );
}

/** A journal whose writes are replaced by `overrides`, the rest kept. */
function journalWith(overrides: Partial<PaymentJournal>, inner = createMemoryJournal()): PaymentJournal {
  return { ...inner, ...overrides };
}

const never = () => new Promise<never>(() => {});

describe('a first send refused on credentials is refused in the journal, and recover() never pays it', () => {
  test('a deposit with a revoked user token, re-paid under a new reference after reconnecting, is charged once', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const first = ref('revoked');
    const error = await failureOf(
      wallet.deposit(
        { reference_id: first, amount: 7, currency: 'KES' },
        { userToken: 'tok_revoked_by_user' },
      ),
    );
    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).not.toBeInstanceOf(WalletOutcomeUnknownError);
    const code = (error as WalletApiError).code;
    expect(['authorization_token_not_found', 'application_not_authorized']).toContain(code);
    expect(await journal.get(first)).toMatchObject({ state: 'refused', reason: code });

    // The merchant does as the docs say: refused, so pay again under a new reference.
    const second = ref('reconnected');
    await wallet.deposit({ reference_id: second, amount: 7, currency: 'KES' }, { userToken: TOKENS.alice });
    const report = await wallet.recover({ userTokenFor: () => TOKENS.alice });
    expect(report.intents).toEqual([]);
    expect(applied(first)).toHaveLength(0);
    expect(applied(second)).toHaveLength(1);
  });

  test('a withdrawal refused for its API key is refused in the journal with that code', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('fetch', { journal, apiKey: 'sk_sandbox_no_such_key' });
    const reference_id = ref('bad-key');
    const error = await failureOf(
      wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' }),
    );
    expect(error).toMatchObject({ name: 'WalletApiError', code: 'invalid_api_key' });
    expect(await journal.get(reference_id)).toMatchObject({ state: 'refused', reason: 'invalid_api_key' });
    expect((await target.client('fetch', { journal }).recover()).intents).toEqual([]);
  });

  test('the same credential refusal of a re-send leaves the earlier unknown outcome unknown', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal, maxRetries: 0 });
    const reference_id = ref('resend-401');
    target.sandbox.faults.inject({ kind: 'respond', route: 'withdraw', status: 502, every: 1 });
    const unknown = await failureOf(
      wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' }),
    );
    expect(unknown).toBeInstanceOf(WalletOutcomeUnknownError);
    target.sandbox.faults.clear();
    target.sandbox.faults.inject({ kind: 'error', route: 'withdraw', code: 'invalid_api_key', every: 1 });
    const again = await failureOf(wallet.resolveOutcome(unknown as WalletOutcomeUnknownError));
    expect(again).toBeInstanceOf(WalletOutcomeUnknownError);
    expect((again as Error).message).toMatch(/do not retry it with a new reference_id/);
    expect(await journal.get(reference_id)).toMatchObject({ state: 'unknown' });
  });
});

describe('a failed record tells the caller whether an intent remains, and recover() agrees', () => {
  test('a record committed whose reply was lost is closed as never sent: nothing is sent, then or later', async () => {
    const inner = createMemoryJournal();
    const journal = journalWith(
      {
        async record(intent) {
          await inner.record(intent);
          throw new Error('connection lost after COMMIT');
        },
      },
      inner,
    );
    const wallet = target.client('node', { journal });
    const reference_id = ref('lost-reply');
    const error = await failureOf(
      wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 3, currency: 'KES' }),
    );
    expect(error).toBeInstanceOf(WalletJournalError);
    expect(error).toMatchObject({ operation: 'record', mayBeSentLater: false, merchant: wallet.merchant });
    expect((error as Error).message).toMatch(/nothing was sent and nothing will be/);
    expect(await inner.get(reference_id)).toMatchObject({ state: 'closed' });
    expect((await target.client('node', { journal: inner }).recover()).intents).toEqual([]);
    expect(applied(reference_id)).toHaveLength(0);

    // Paying again under the same reference pays it once; the journal records the outcome over the close.
    await target.client('node', { journal: inner }).withdraw({
      reference_id,
      email: 'bob@example.com',
      amount: 3,
      currency: 'KES',
    });
    await outcomesWritten(inner, reference_id);
    expect(await inner.get(reference_id)).toMatchObject({ state: 'completed' });
    expect(applied(reference_id)).toHaveLength(1);
  });

  test('a record that cannot be closed either says an intent may remain, to retry with the same reference', async () => {
    const inner = createMemoryJournal();
    const journal = journalWith(
      {
        async record(intent) {
          await inner.record(intent);
          throw new Error('connection lost after COMMIT');
        },
        async update() {
          throw new Error('database down');
        },
      },
      inner,
    );
    const reference_id = ref('unclosed');
    const error = await failureOf(
      target
        .client('node', { journal })
        .withdraw({ reference_id, email: 'bob@example.com', amount: 4, currency: 'KES' }),
    );
    expect(error).toMatchObject({ name: 'WalletJournalError', mayBeSentLater: true });
    expect((error as Error).message).toMatch(/Retry it only with the same reference_id, never a new one/);
    // It was told the intent may still be sent: recover() sending it is what the caller expects.
    expect(await inner.get(reference_id)).toMatchObject({ state: 'sending' });
    // Once the sending lease of the call that recorded it has ended (the process restarted later).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_001 });
    const report = await target
      .client('node', { journal: inner })
      .recover()
      .finally(() => vi.useRealTimers());
    expect(report.counts.applied).toBe(1);
    expect(applied(reference_id)).toHaveLength(1);
  });

  test('a record the store refused outright, with no intent to close, says to retry under the same reference', async () => {
    const journal = journalWith({
      async record() {
        throw new Error('unique violation on an unrelated index');
      },
    });
    const error = await failureOf(
      target.client('node', { journal }).withdraw({ email: 'bob@example.com', amount: 4, currency: 'KES' }),
    );
    // An earlier call's record that timed out could still land: only the same reference is safe.
    expect(error).toMatchObject({ name: 'WalletJournalError', operation: 'record', mayBeSentLater: true });
  });
});

describe('a call under a reference an earlier call recorded knows that call may have sent it', () => {
  test('a credential refusal of the retry after an unknown outcome stays unknown, for the caller and the journal', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal, maxRetries: 0 });
    const reference_id = ref('retry-401');
    target.sandbox.faults.inject({ kind: 'drop-after', route: 'withdraw' });
    const first = await failureOf(
      wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' }),
    );
    expect(first).toBeInstanceOf(WalletOutcomeUnknownError);
    target.sandbox.faults.inject({ kind: 'error', route: 'withdraw', code: 'invalid_api_key' });
    const retry = await failureOf(
      wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' }),
    );
    expect(retry).toBeInstanceOf(WalletOutcomeUnknownError);
    expect((retry as Error).message).toMatch(/an earlier call with this reference_id may have been applied/);
    expect(await journal.get(reference_id)).toMatchObject({ state: 'unknown', records: 2 });
    expect(applied(reference_id)).toHaveLength(1);
  });

  test('a failed record of a reference an earlier call applied never says it is safe to pay again', async () => {
    const inner = createMemoryJournal();
    const reference_id = ref('applied-then-record-fails');
    await target
      .client('node', { journal: inner })
      .withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' });
    await outcomesWritten(inner, reference_id);
    const journal = journalWith(
      {
        async record() {
          throw new Error('connection refused');
        },
      },
      inner,
    );
    const error = await failureOf(
      target
        .client('node', { journal })
        .withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' }),
    );
    expect(error).toMatchObject({ name: 'WalletJournalError', mayBeSentLater: true });
    expect(await inner.get(reference_id)).toMatchObject({ state: 'completed' });
  });
});

describe('journal writes obey the call signal and timeoutMs', () => {
  test('a hanging record ends at the call timeout; the write may still land, so the error says so', async () => {
    const journal = journalWith({ record: never });
    const error = await failureOf(
      target
        .client('node', { journal })
        .withdraw({ email: 'bob@example.com', amount: 1, currency: 'KES' }, { timeoutMs: 200 }),
    );
    expect(error).toMatchObject({ name: 'WalletJournalError', operation: 'record', mayBeSentLater: true });
    expect((error as Error).cause).toMatchObject({ message: expect.stringMatching(/within 200 ms/) });
  });

  test('a hanging record ends when the call is aborted, with the abort as its cause', async () => {
    const journal = journalWith({ record: never });
    const controller = new AbortController();
    const paying = target
      .client('fetch', { journal })
      .withdraw({ email: 'bob@example.com', amount: 1, currency: 'KES' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = await failureOf(paying);
    expect(error).toBeInstanceOf(WalletJournalError);
    expect((error as Error).cause).toBeInstanceOf(WalletAbortError);
  });

  test("a hanging outcome write does not hold a success's answer: it ends at the timeout, logged, and close() waits for it", async () => {
    const inner = createMemoryJournal();
    const journal = journalWith({ update: never }, inner);
    const logger = { error: vi.fn() };
    const wallet = target.client('node', { journal, logger });
    const reference_id = ref('hung-update');
    const result = await wallet.withdraw(
      { reference_id, email: 'bob@example.com', amount: 1, currency: 'KES' },
      { timeoutMs: 300 },
    );
    expect(result.transaction_status).toBe('completed');
    expect(result.journalError).toBeUndefined();
    expect(logger.error).not.toHaveBeenCalled();
    await wallet.close();
    expect(logger.error).toHaveBeenCalledOnce();
    expect(String(logger.error.mock.calls[0]?.[0])).toContain(
      `could not record the outcome of reference_id "${reference_id}"`,
    );
    expect(await inner.get(reference_id)).toMatchObject({ state: 'sending' });
  });

  test('with onSettled the outcome is awaited: a hanging write ends at the timeout and the payment is returned with its journalError', async () => {
    const inner = createMemoryJournal();
    const journal = journalWith({ update: never }, inner);
    const onSettled = vi.fn();
    const reference_id = ref('hung-update-settled');
    const result = await target
      .client('node', { journal, onSettled })
      .withdraw({ reference_id, email: 'bob@example.com', amount: 1, currency: 'KES' }, { timeoutMs: 300 });
    expect(result.transaction_status).toBe('completed');
    expect(result.journalError).toMatchObject({ operation: 'update', mayBeSentLater: true });
    expect(await inner.get(reference_id)).toMatchObject({ state: 'sending' });
    expect(onSettled).not.toHaveBeenCalled();
  });
});

describe("no client re-sends another merchant's payment", () => {
  test('resolveOutcome through a client of another API key is refused and sends nothing', async () => {
    const wallet = target.client('node', { maxRetries: 0 });
    const reference_id = ref('other-merchant');
    target.sandbox.faults.inject({ kind: 'respond', route: 'withdraw', status: 502, every: 1 });
    const unknown = (await failureOf(
      wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 5, currency: 'KES' }),
    )) as WalletOutcomeUnknownError;
    expect(unknown.merchant).toBe(wallet.merchant);
    target.sandbox.faults.clear();
    const other = target.client('node', { apiKey: KEYS.other });
    expect(other.merchant).not.toBe(wallet.merchant);
    const refusal = await failureOf(other.resolveOutcome(unknown));
    expect(refusal).toBeInstanceOf(WalletRequestValidationError);
    expect((refusal as Error).message).toMatch(/error\.merchant: is mw1:[0-9a-f]{32}, another merchant/);
    expect(applied(reference_id)).toHaveLength(0);
    await wallet.resolveOutcome(unknown);
    expect(applied(reference_id)).toHaveLength(1);
  });

  test("recover() on a journal two merchants share resolves only its own merchant's intents", async () => {
    const journal = createMemoryJournal();
    const demo = target.client('node', { journal });
    const other = target.client('node', { journal, apiKey: KEYS.other });
    const mine = ref('mine');
    const theirs = ref('theirs');
    await journal.record({
      referenceId: mine,
      endpoint: 'withdraw',
      body: withdrawal(mine),
      merchant: demo.merchant,
    });
    await journal.record({
      referenceId: theirs,
      endpoint: 'withdraw',
      body: withdrawal(theirs),
      merchant: other.merchant,
    });
    const report = await demo.recover();
    expect(report.intents).toEqual([
      expect.objectContaining({ referenceId: mine, outcome: 'applied' }),
      expect.objectContaining({
        referenceId: theirs,
        outcome: 'skipped',
        reason: `recorded by another merchant (${other.merchant})`,
      }),
    ]);
    expect(applied(theirs)).toHaveLength(0);
  });

  test('the identity depends on API key and base URL, and never shows the key', () => {
    const a = target.client('node');
    const b = target.client('node', { baseUrl: `${target.baseUrl}/v2/` });
    expect(a.merchant).toMatch(/^mw1:[0-9a-f]{32}$/);
    expect(a.merchant).toBe(target.client('fetch').merchant);
    expect(b.merchant).not.toBe(a.merchant);
    expect(a.merchant).not.toContain(KEYS.demo);
  });
});

function withdrawal(reference_id: string) {
  return { reference_id, email: 'bob@example.com', amount: 1, currency: 'KES' };
}

describe('recover() chooses what it looks at, and closeIntent lets an intent go', () => {
  test('olderThanMs leaves fresh intents alone, limit takes the oldest, and the rest are counted as left', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const ids = [ref('w1'), ref('w2'), ref('w3')];
    for (const id of ids)
      await journal.record({ referenceId: id, endpoint: 'withdraw', body: withdrawal(id) });
    const fresh = await wallet.recover({ olderThanMs: 60_000 });
    expect(fresh).toMatchObject({ intents: [], left: 3 });
    const first = await wallet.recover({ limit: 2 });
    expect(first.intents.map((one) => one.referenceId)).toEqual(ids.slice(0, 2));
    expect(first.left).toBe(1);
    const rest = await wallet.recover();
    expect(rest.intents.map((one) => one.referenceId)).toEqual(ids.slice(2));
    for (const id of ids) expect(applied(id)).toHaveLength(1);
  });

  test('newerThanMs leaves old intents out; closeIntent closes one for good with its reason', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const old = ref('old');
    await journal.record({ referenceId: old, endpoint: 'withdraw', body: withdrawal(old) });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await wallet.recover({ newerThanMs: 10 })).toMatchObject({ intents: [], left: 1 });
    const closed = await closeIntent(journal, old, 'paid by bank transfer, ticket 88');
    expect(closed).toMatchObject({ state: 'closed', reason: 'paid by bank transfer, ticket 88' });
    expect(await wallet.recover()).toMatchObject({ intents: [], left: 0 });
    expect(applied(old)).toHaveLength(0);
  });

  test('closeIntent refuses an intent that is not open, one that does not exist, and an empty reason', async () => {
    const journal = createMemoryJournal();
    const id = ref('done');
    await journal.record({ referenceId: id, endpoint: 'withdraw', body: withdrawal(id) });
    await journal.update(id, { state: 'accepted', transactionId: 'tx-1' });
    await expect(closeIntent(journal, id, 'by hand')).rejects.toThrow(/is accepted, not open/);
    await expect(closeIntent(journal, 'nope', 'by hand')).rejects.toThrow(
      /no intent has reference_id "nope"/,
    );
    await expect(closeIntent(journal, id, ' ')).rejects.toThrow(/reason: must be a non-empty string/);
    expect(await journal.get(id)).toMatchObject({ state: 'accepted' });
  });

  test('a deposit with no user token is skipped with the reason', async () => {
    const journal = createMemoryJournal();
    const id = ref('dep');
    await journal.record({
      referenceId: id,
      endpoint: 'deposit',
      body: { reference_id: id, amount: 1, currency: 'KES' },
    });
    const report = await target.client('node', { journal }).recover();
    expect(report.intents).toEqual([
      expect.objectContaining({
        referenceId: id,
        outcome: 'skipped',
        reason: expect.stringMatching(/no user token/),
      }),
    ]);
  });

  test('bad recover() options are refused naming the option', async () => {
    const wallet = target.client('node', { journal: createMemoryJournal() });
    for (const [options, path] of [
      [{ olderThanMs: -1 }, 'options.olderThanMs'],
      [{ newerThanMs: 0 }, 'options.newerThanMs'],
      [{ limit: 1.5 }, 'options.limit'],
      [{ userTokenFor: 'alice' }, 'options.userTokenFor'],
    ] as const) {
      const error = await failureOf(wallet.recover(options as never));
      expect(error).toBeInstanceOf(WalletRequestValidationError);
      expect((error as WalletRequestValidationError).issues[0]?.path).toBe(path);
    }
  });
});
