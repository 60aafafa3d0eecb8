/**
 * Two instances on one journal: one sending a withdrawal, the other running `recover()` at the same
 * time (a rolling deploy). The caller is never told "not applied" for a payment that moved.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import {
  createMemoryJournal,
  type PaymentJournal,
  WalletApiError,
  WalletClient,
  WalletOutcomeUnknownError,
} from '../../src/index.js';
import { outcomesWritten } from '../helpers/written-behind.js';
import { KEYS, startServerTarget, type Target } from '../integration/harness.js';

let target: Target;
beforeAll(async () => {
  target = await startServerTarget();
});
afterAll(() => target.close());
beforeEach(() => target.sandbox.faults.clear());

let serial = 0;
const ref = (name: string) => `${name}-${++serial}-${Date.now()}`;
const applied = (referenceId: string) =>
  target.sandbox.transactions().filter((one) => one.reference_id === referenceId);

/**
 * Instance A, whose withdrawal is recorded, then held before it reaches the service until
 * `release()`; `recorded` resolves once its intent is in the journal.
 */
function slowInstance(journal: PaymentJournal) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let recorded = () => {};
  const onRecord = new Promise<void>((resolve) => {
    recorded = resolve;
  });
  const wallet = new WalletClient({
    apiKey: KEYS.demo,
    baseUrl: target.baseUrl,
    maxRetries: 0,
    journal: {
      ...journal,
      record: async (intent) => {
        const held = await journal.record(intent);
        recorded();
        return held;
      },
    },
    fetch: async (input, init) => {
      await gate;
      return globalThis.fetch(input, init);
    },
  });
  return { wallet, release, recorded: onRecord };
}

test('recover() on another instance leaves alone a payment whose own call is still sending it, whatever olderThanMs says', async () => {
  const journal = createMemoryJournal();
  const a = slowInstance(journal);
  const b = target.client('node', { journal });
  const reference_id = ref('inflight');
  const paying = a.wallet.withdraw({ reference_id, email: 'bob@example.com', amount: 3, currency: 'KES' });
  await a.recorded;

  const report = await b.recover({ olderThanMs: 0 });
  expect(report).toMatchObject({ intents: [], left: 1 });
  a.release();
  await expect(paying).resolves.toMatchObject({ reference_id });
  expect(applied(reference_id)).toHaveLength(1);
  await outcomesWritten(journal, reference_id);
  expect(await journal.get(reference_id)).toMatchObject({ state: 'completed' });
});

test('a call whose payment another instance re-sent meanwhile is told the outcome is unknown, never a plain refusal', async () => {
  const journal = createMemoryJournal();
  const a = slowInstance(journal);
  // B reads the journal as a process does once the call's lease has run out (a paused instance).
  const b = target.client('node', {
    journal: {
      ...journal,
      list: (async (...args: Parameters<PaymentJournal['list']>) => {
        const found = await (journal.list as (...a: unknown[]) => Promise<unknown>)(...args);
        return Array.isArray(found) ? found.map((intent) => ({ ...intent, leaseUntil: undefined })) : found;
      }) as PaymentJournal['list'],
    },
  });
  const reference_id = ref('resent');
  const paying = a.wallet
    .withdraw({ reference_id, email: 'bob@example.com', amount: 3, currency: 'KES' })
    .catch((error: unknown) => error);
  await a.recorded;
  expect((await b.recover()).counts.applied).toBe(1);
  a.release();

  const error = await paying;
  // The service answered A reference_already_used: the payment moved, under B's send.
  expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
  expect(error).not.toSatisfy((e) => e instanceof WalletApiError);
  expect((error as WalletOutcomeUnknownError).cause).toMatchObject({ code: 'reference_already_used' });
  expect(applied(reference_id)).toHaveLength(1);
  expect((await journal.get(reference_id))?.state).toMatch(/^(accepted|completed)$/);
});
