import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  createMemoryJournal,
  type PaymentJournal,
  WalletApiError,
  WalletClient,
  WalletConfigError,
  WalletJournalError,
  WalletOutcomeUnknownError,
  WalletRequestValidationError,
} from '../../src/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
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
const ref = (name: string) => `${name}-${++serial}`;

async function unknownOf(promise: Promise<unknown>): Promise<WalletOutcomeUnknownError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
  return error as WalletOutcomeUnknownError;
}

/** A journaled withdrawal answered 502 by a gateway: not applied, but unknown to the client. */
async function unknownWithdrawal(name: string) {
  const journal = createMemoryJournal();
  const wallet = target.client('node', { journal, maxRetries: 0 });
  const reference_id = ref(name);
  target.sandbox.faults.inject({ kind: 'respond', route: 'withdraw', status: 502, every: 1 });
  const error = await unknownOf(
    wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' }),
  );
  return { journal, wallet, reference_id, error };
}

describe('the journal records each deposit and withdrawal around sending it', () => {
  test('a deposit is recorded sending, then applied with its transaction id and status', async () => {
    const journal = createMemoryJournal();
    const record = vi.spyOn(journal, 'record');
    const wallet = target.client('node', { journal });
    const reference_id = ref('dep');
    const result = await wallet.deposit(
      { reference_id, amount: 5, currency: 'KES' },
      { userToken: TOKENS.alice },
    );
    await outcomesWritten(journal, reference_id);

    expect(record).toHaveBeenCalledWith({
      referenceId: reference_id,
      endpoint: 'deposit',
      body: { reference_id, amount: 5, currency: 'KES' },
      merchant: wallet.merchant,
      keyFingerprint: wallet.keyFingerprint,
      recordedBy: expect.any(String),
      // Held by its call's sending lease, which the outcome frees.
      sendingLeaseMs: 30_000,
    });
    expect((await journal.get(reference_id))?.leaseUntil).toBeUndefined();
    expect(await journal.get(reference_id)).toMatchObject({
      state: 'completed',
      transactionId: result.transaction_id,
      transactionStatus: result.transaction_status,
    });
    expect(result.journalError).toBeUndefined();
  });

  test('a refused withdrawal is recorded refused with its code', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const reference_id = ref('wd');
    await expect(
      wallet.withdraw({ reference_id, email: 'alice@example.com', amount: 999_999_999, currency: 'KES' }),
    ).rejects.toThrow(WalletApiError);
    expect(await journal.get(reference_id)).toMatchObject({
      state: 'refused',
      reason: 'insufficient_balance',
    });
  });

  test('an answer lost after the service applied it is recorded unknown, and the error keeps the body without secrets', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal, maxRetries: 0 });
    const reference_id = ref('lost');
    // Every attempt, so the retry of a reset on a reused connection meets the same loss.
    target.sandbox.faults.inject({ kind: 'drop-after', route: 'deposit', every: 1 });
    const error = await unknownOf(
      wallet.deposit({ reference_id, amount: 7, currency: 'KES' }, { userToken: TOKENS.bob }),
    );

    expect(error.body).toEqual({ reference_id, amount: 7, currency: 'KES' });
    const shown = JSON.stringify(error.toJSON());
    expect(shown).not.toContain(TOKENS.bob);
    expect(shown).not.toContain(KEYS.demo);
    expect((await journal.get(reference_id))?.state).toBe('unknown');
  });

  test('getTransaction updates the journal by transaction id', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const reference_id = ref('status');
    const result = await wallet.withdraw({
      reference_id,
      email: 'alice@example.com',
      amount: 1,
      currency: 'KES',
    });
    await journal.update(reference_id, { transactionStatus: 'pending' });
    await wallet.getTransaction(result.transaction_id);
    expect((await journal.get(reference_id))?.transactionStatus).toBe(result.transaction_status);
  });
});

describe('a journal that fails never turns a payment into a silent success or failure', () => {
  test('a journal that cannot record the intent stops the payment before anything is sent', async () => {
    const journal: PaymentJournal = {
      ...createMemoryJournal(),
      record: () => Promise.reject(new Error('disk full')),
    };
    const wallet = target.client('node', { journal });
    const reference_id = ref('norecord');
    const error = await wallet
      .deposit({ reference_id, amount: 3, currency: 'KES' }, { userToken: TOKENS.alice })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WalletJournalError);
    expect(error).toMatchObject({ operation: 'record', referenceId: reference_id });
    expect(applied(reference_id)).toEqual([]);
  });

  test("a journal that cannot write a success's outcome behind its answer keeps the answer and logs; the intent stays sending under its lease, and recover() settles it after", async () => {
    const memory = createMemoryJournal();
    const logger = { error: vi.fn() };
    let broken = true;
    const journal: PaymentJournal = {
      ...memory,
      update: (...args) => (broken ? Promise.reject(new Error('connection lost')) : memory.update(...args)),
    };
    const wallet = target.client('node', { journal, logger });
    const reference_id = ref('noupdate');
    const result = await wallet.withdraw({
      reference_id,
      email: 'alice@example.com',
      amount: 2,
      currency: 'KES',
    });

    expect(result.transaction_id).toMatch(/\S/);
    // Written behind the answer: the caller is not told of a write it did not wait for.
    expect(result.journalError).toBeUndefined();
    await vi.waitFor(() => expect(logger.error).toHaveBeenCalledOnce());
    expect((await memory.get(reference_id))?.state).toBe('sending');

    broken = false;
    // The call's sending lease still holds the intent: recover() leaves it until the lease ends.
    expect(await wallet.recover()).toMatchObject({ intents: [], left: 1 });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_001 });
    const report = await wallet.recover().finally(() => vi.useRealTimers());
    expect(report.counts.already_applied).toBe(1);
    // The service answered reference_already_used, which carries no status: accepted, not yet final.
    expect((await memory.get(reference_id))?.state).toBe('accepted');
    expect(applied(reference_id)).toHaveLength(1);
  });

  test("a success whose outcome's write-behind never landed is left to its lease by the sweeper, then re-sent and recorded accepted", async () => {
    const memory = createMemoryJournal();
    let lost = true;
    const journal: PaymentJournal = {
      ...memory,
      // The process died after the answer, before the outcome left it.
      update: (...args) => (lost ? Promise.reject(new Error('process gone')) : memory.update(...args)),
    };
    const wallet = target.client('node', { journal, logger: { error: () => {} } });
    const reference_id = ref('lost-behind');
    await wallet.withdraw({ reference_id, email: 'alice@example.com', amount: 2, currency: 'KES' });
    await wallet.close();
    lost = false;
    const sweeper = target.client('node', { journal });
    expect((await memory.get(reference_id))?.leaseUntil).toBeDefined();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 29_000 });
    expect((await sweeper.sweepOnce({ sendingGraceMs: 1 }).finally(() => vi.useRealTimers())).claimed).toBe(
      0,
    );
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_001 });
    const report = await sweeper.sweepOnce({ sendingGraceMs: 1 }).finally(() => vi.useRealTimers());
    expect(report.claimed).toBe(1);
    expect(await memory.get(reference_id)).toMatchObject({ state: 'accepted' });
    expect(applied(reference_id)).toHaveLength(1);
  });

  test('a refusal whose outcome cannot be recorded is a WalletJournalError that says it may be sent later, caused by the refusal', async () => {
    const journal: PaymentJournal = {
      ...createMemoryJournal(),
      update: () => Promise.reject(new Error('gone')),
    };
    const wallet = target.client('node', { journal, logger: { error: () => {} } });
    const error = await wallet
      .withdraw({
        reference_id: ref('refused'),
        email: 'alice@example.com',
        amount: 999_999_999,
        currency: 'KES',
      })
      .catch((e: unknown) => e);
    // The intent stays open, so recover() may send it: the caller must not pay under a new reference.
    expect(error).toBeInstanceOf(WalletJournalError);
    expect(error).toMatchObject({ operation: 'update', mayBeSentLater: true });
    expect((error as WalletJournalError).cause).toBeInstanceOf(WalletApiError);
  });

  test('a journal missing a method is a WalletConfigError naming it', () => {
    const { list: _list, ...partial } = createMemoryJournal();
    expect(() => target.client('node', { journal: partial as PaymentJournal })).toThrow(WalletConfigError);
    expect(() => target.client('node', { journal: partial as PaymentJournal })).toThrow(
      'Invalid WalletClient options: journal.list: must be a function',
    );
  });

  test('an optional journal method that is not a function is a WalletConfigError naming it, not a crash in a timer later', () => {
    for (const method of ['renewSending', 'claimDue', 'now'] as const) {
      const journal = { ...createMemoryJournal(), [method]: true } as unknown as PaymentJournal;
      expect(() => target.client('node', { journal })).toThrow(
        `Invalid WalletClient options: journal.${method}: must be a function`,
      );
    }
    const { renewSending: _, ...withoutRenewal } = createMemoryJournal();
    expect(() => target.client('node', { journal: withoutRenewal })).not.toThrow();
  });
});

describe('close() waits for the journaled payments in flight', () => {
  test('a payment answered after close() began has its outcome written, and its onSettled run, before close resolves', async () => {
    for (const settled of [false, true]) {
      const journal = createMemoryJournal();
      const onSettled = vi.fn();
      const wallet = target.client('node', { journal, ...(settled ? { onSettled } : {}) });
      const reference_id = ref(settled ? 'close-settled' : 'close-behind');
      const fault = target.sandbox.faults.inject({ kind: 'latency', route: 'withdraw', ms: 150, every: 1 });
      const paid = wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 1, currency: 'KES' });
      await vi.waitFor(async () => expect(await journal.get(reference_id)).toBeDefined());
      await wallet.close();
      fault.remove();
      expect(await journal.get(reference_id), String(settled)).toMatchObject({ state: 'completed' });
      if (settled) expect(onSettled).toHaveBeenCalledTimes(1);
      await expect(paid).resolves.toMatchObject({ reference_id });
    }
  });
});

describe('resolveOutcome answers whether an unknown payment was applied', () => {
  test('a deposit applied before its answer was lost resolves alreadyApplied, applied once', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal, maxRetries: 0 });
    const reference_id = ref('resolve-applied');
    // Every attempt, so the retry of a reset on a reused connection meets the same loss.
    const fault = target.sandbox.faults.inject({ kind: 'drop-after', route: 'deposit', every: 1 });
    const error = await unknownOf(
      wallet.deposit({ reference_id, amount: 4, currency: 'KES' }, { userToken: TOKENS.alice }),
    );
    fault.remove();

    await expect(wallet.resolveOutcome(error, { userToken: TOKENS.alice })).resolves.toEqual({
      applied: true,
      alreadyApplied: true,
      result: undefined,
    });
    expect(applied(reference_id)).toHaveLength(1);
    expect(await journal.get(reference_id)).toMatchObject({
      state: 'accepted',
      reason: 'reference_already_used',
    });
  });

  test('a withdrawal that never arrived is applied by the re-send, exactly once', async () => {
    const wallet = target.client('node', { maxRetries: 0 });
    const reference_id = ref('resolve-new');
    const fault = target.sandbox.faults.inject({ kind: 'drop-before', route: 'withdraw', every: 1 });
    const error = await unknownOf(
      wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 3, currency: 'KES' }),
    );
    expect(applied(reference_id)).toEqual([]);
    fault.remove();

    const resolution = await wallet.resolveOutcome(error);
    expect(resolution).toMatchObject({ applied: true, alreadyApplied: false, result: { reference_id } });
    expect(applied(reference_id)).toHaveLength(1);
  });

  test('a business refusal of the re-send is thrown as the WalletApiError: not applied', async () => {
    const wallet = target.client('node', { maxRetries: 0 });
    const reference_id = ref('resolve-refused');
    const body = { reference_id, email: 'bob@example.com', amount: 999_999_999, currency: 'KES' };
    const unknown = new WalletOutcomeUnknownError({
      endpoint: 'withdraw',
      referenceId: reference_id,
      attempts: 1,
      reason: 'test',
      body,
    });

    await expect(wallet.resolveOutcome(unknown)).rejects.toMatchObject({
      name: 'WalletApiError',
      code: 'insufficient_balance',
    });
    expect(applied(reference_id)).toEqual([]);
  });

  test('an unknown outcome whose body lacks its reference id is refused, nothing sent', async () => {
    const wallet = target.client('node', { maxRetries: 0 });
    const before = target.sandbox.transactions().length;
    // An error rebuilt from a log may lack its reference id, whatever its type says.
    const withBody = (referenceId: string | undefined, body: Record<string, unknown>) =>
      new WalletOutcomeUnknownError({
        endpoint: 'withdraw',
        referenceId: referenceId as string,
        attempts: 1,
        reason: 'test',
        body,
      });
    const body = { email: 'bob@example.com', amount: 1, currency: 'KES' };
    for (const unknown of [
      withBody(ref('resolve-no-ref'), body),
      withBody(ref('resolve-other-ref'), { ...body, reference_id: 'another-order' }),
      withBody(undefined, { ...body, reference_id: 'order-without-error-id' }),
    ]) {
      const refused = await wallet.resolveOutcome(unknown).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(WalletRequestValidationError);
      expect((refused as WalletRequestValidationError).issues[0]?.path).toBe('body.reference_id');
    }
    expect(target.sandbox.transactions()).toHaveLength(before);
  });

  test('a re-send that gets no answer stays unknown and says so', async () => {
    const wallet = target.client('node', { maxRetries: 0 });
    const reference_id = ref('resolve-still');
    const body = { reference_id, email: 'bob@example.com', amount: 1, currency: 'KES' };
    const unknown = new WalletOutcomeUnknownError({
      endpoint: 'withdraw',
      referenceId: reference_id,
      attempts: 1,
      reason: 'test',
      body,
    });
    const fault = target.sandbox.faults.inject({ kind: 'drop-after', route: 'withdraw', every: 1 });

    const again = await unknownOf(wallet.resolveOutcome(unknown));
    expect(again.body).toEqual(body);
    fault.remove();
    await expect(wallet.resolveOutcome(again)).resolves.toMatchObject({ alreadyApplied: true });
    expect(applied(reference_id)).toHaveLength(1);
  });

  test('a re-send that provably never arrived leaves the journal entry unknown, and recover() still finds it', async () => {
    const { journal, wallet, reference_id, error } = await unknownWithdrawal('resend-unsent');
    expect((await journal.get(reference_id))?.state).toBe('unknown');

    // The same merchant, whose connection is refused before a byte is sent.
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const offline = new WalletClient({
      apiKey: KEYS.demo,
      baseUrl: wallet.baseUrl,
      journal,
      maxRetries: 0,
      fetch: async () => {
        throw refused;
      },
    });
    await unknownOf(offline.resolveOutcome(error));

    expect((await journal.get(reference_id))?.state).toBe('unknown');
    target.sandbox.faults.clear();
    const report = await wallet.recover();
    expect(report.intents).toEqual([
      expect.objectContaining({ referenceId: reference_id, outcome: 'applied' }),
    ]);
    expect(applied(reference_id)).toHaveLength(1);
  });

  test('a re-send refused by a gateway without a business code stays unknown, in the error and the journal', async () => {
    const { journal, wallet, reference_id, error } = await unknownWithdrawal('resend-429');
    target.sandbox.faults.clear();
    target.sandbox.faults.inject({ kind: 'respond', route: 'withdraw', status: 429, body: '', every: 1 });

    const again = await unknownOf(wallet.resolveOutcome(error));
    expect(again.cause).toMatchObject({ name: 'WalletApiError', code: 'unknown_error', status: 429 });
    expect((await journal.get(reference_id))?.state).toBe('unknown');
    const report = await wallet.recover();
    expect(report.intents).toEqual([
      expect.objectContaining({ referenceId: reference_id, outcome: 'unknown' }),
    ]);
    expect(applied(reference_id)).toEqual([]);
  });

  test('a deposit without userToken, or an error that is not an unknown outcome, is refused before sending', async () => {
    const wallet = target.client('node');
    const body = { reference_id: ref('no-token'), amount: 1, currency: 'KES' };
    const unknown = new WalletOutcomeUnknownError({
      endpoint: 'deposit',
      referenceId: body.reference_id,
      attempts: 1,
      reason: 'test',
      body,
    });
    await expect(wallet.resolveOutcome(unknown)).rejects.toThrow(/options\.userToken/);
    await expect(wallet.resolveOutcome(new Error('x') as WalletOutcomeUnknownError)).rejects.toThrow(
      WalletRequestValidationError,
    );
    expect(applied(body.reference_id)).toEqual([]);
  });
});

describe('recover() resolves what a crash left open', () => {
  test('intents left sending or unknown end applied, already applied, or skipped without a user token', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const neverSent = ref('crash-before');
    const sentOnce = ref('crash-after');
    const deposit = ref('crash-deposit');
    const withdrawal = (reference_id: string) => ({
      reference_id,
      email: 'bob@example.com',
      amount: 1,
      currency: 'KES',
    });
    // Crashed before sending: only the intent exists.
    await journal.record({ referenceId: neverSent, endpoint: 'withdraw', body: withdrawal(neverSent) });
    // Crashed after the service applied it, before the outcome was written.
    await target.client('node').withdraw(withdrawal(sentOnce));
    await journal.record({ referenceId: sentOnce, endpoint: 'withdraw', body: withdrawal(sentOnce) });
    await journal.record({
      referenceId: deposit,
      endpoint: 'deposit',
      body: { reference_id: deposit, amount: 2, currency: 'KES' },
    });

    const skipped = await wallet.recover();
    expect(skipped.counts).toEqual({ applied: 1, already_applied: 1, refused: 0, unknown: 0, skipped: 1 });
    const report = await wallet.recover({ userTokenFor: () => TOKENS.alice });
    expect(report.counts).toEqual({ applied: 1, already_applied: 0, refused: 0, unknown: 0, skipped: 0 });
    expect(await journal.list('sending')).toEqual([]);
    for (const reference of [neverSent, sentOnce, deposit]) expect(applied(reference)).toHaveLength(1);
  });

  test('an intent whose body lacks or changes its reference id is never re-sent: no payment under another id', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const missing = ref('crash-no-ref');
    const other = ref('crash-other-ref');
    const before = target.sandbox.transactions().length;
    const body = { email: 'bob@example.com', amount: 1, currency: 'KES' };
    await journal.record({ referenceId: missing, endpoint: 'withdraw', body });
    await journal.record({
      referenceId: other,
      endpoint: 'withdraw',
      body: { ...body, reference_id: 'elsewhere' },
    });

    for (let run = 0; run < 2; run++) {
      const report = await wallet.recover();
      expect(report.counts).toMatchObject({ applied: 0, already_applied: 0, unknown: 2 });
      for (const intent of report.intents) expect(intent.reason).toMatch(/body\.reference_id/);
    }
    expect(target.sandbox.transactions()).toHaveLength(before);
    expect((await journal.list('sending')).map((intent) => intent.referenceId).sort()).toEqual(
      [missing, other].sort(),
    );
  });

  test('recover() without a journal is refused', async () => {
    await expect(target.client('node').recover()).rejects.toThrow(/journal/);
  });
});

describe('transaction webhooks read back through the client update the journal', () => {
  test('a deposit whose answer was lost gets its transaction id from the verified webhook, by reference_id', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal, maxRetries: 0 });
    const reference_id = ref('webhook');
    target.sandbox.faults.inject({ kind: 'drop-after', route: 'deposit' });
    await unknownOf(
      wallet.deposit({ reference_id, amount: 6, currency: 'KES' }, { userToken: TOKENS.alice }),
    );
    const [transaction] = applied(reference_id);
    const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: () => {} });
    const event = {
      event: 'transaction',
      transaction_id: transaction!.transaction_id,
      reference_id,
      transaction_status: transaction!.transaction_status,
      amount: 6,
      currency: 'KES',
    };

    const response = await handler(
      new Request('https://merchant.test/webhooks', { method: 'POST', body: JSON.stringify(event) }),
    );
    expect(response.status).toBe(200);
    expect(await journal.get(reference_id)).toMatchObject({
      state: 'completed',
      transactionId: transaction!.transaction_id,
      transactionStatus: transaction!.transaction_status,
    });
  });

  test('a forged webhook naming another reference changes only the intent the read-back names', async () => {
    const journal = createMemoryJournal();
    const wallet = target.client('node', { journal });
    const real = ref('real');
    const forged = ref('forged');
    const result = await wallet.withdraw({
      reference_id: real,
      email: 'alice@example.com',
      amount: 1,
      currency: 'KES',
    });
    await journal.record({ referenceId: forged, endpoint: 'withdraw', body: { reference_id: forged } });
    await journal.update(forged, { state: 'unknown' });
    const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: () => {} });
    const event = {
      event: 'transaction',
      transaction_id: result.transaction_id,
      reference_id: forged,
      transaction_status: 'completed',
    };

    await handler(
      new Request('https://merchant.test/webhooks', { method: 'POST', body: JSON.stringify(event) }),
    );
    expect((await journal.get(forged))?.state).toBe('unknown');
    expect((await journal.get(real))?.transactionId).toBe(result.transaction_id);
  });
});
