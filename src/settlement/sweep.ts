import { publishChannel } from '../diagnostics/channel.js';
import { WalletConfigError, WalletRequestValidationError } from '../errors.js';
import { storeNow } from '../journal/clock.js';
import { acceptedState } from '../journal/merge.js';
import { FINAL_STATES, type PaymentIntent, type PaymentJournal, type SweptUpdate } from '../journal/types.js';
import { type ReleasingJournal, releaseWithStatus } from './release-with-status.js';
import { fullSchedule, nextCheckDelay, type SweepSchedule } from './schedule.js';
import { describeError, type Settlement, settle as settleIntent } from './settle.js';

/** Options of `wallet.sweepOnce()`. */
export interface SweepOptions extends SweepSchedule {
  /**
   * The user token to re-send a deposit intent with, as for `recover()`; default, on a client with
   * a token vault, the vault's token for the e-mail the journal recorded. A deposit without one is
   * left as it is (`skipped`) and looked at again on its schedule.
   */
  userTokenFor?: UserTokenFor | undefined;
  /**
   * At most this many intents per sweep.
   * @default 100
   */
  limit?: number | undefined;
  /**
   * How long this sweep holds each intent it claimed; another sweeper takes it over after. A
   * re-send still running near its end is stopped (it ends `unknown`, re-sent later under the same
   * reference id), and an intent not reached by then is left to a later sweep (`left`), so no two
   * sweepers ever send one payment at once.
   * @default 120000 (2 minutes)
   */
  leaseMs?: number | undefined;
  /**
   * How many claimed intents are worked on at once.
   * @default 16
   */
  concurrency?: number | undefined;
}

/** What the sweeper did with one intent. */
export interface SweptIntent {
  /** The intent's reference id. */
  readonly referenceId: string;
  /**
   * `resend`: it was `sending` or `unknown`; `read`: a pending payment's status was read; `settle`:
   * final (or refused), not yet settled.
   */
  readonly action: 'resend' | 'read' | 'settle';
  /**
   * How it ended: the state or status it reached, `settled`, `error`, or `left` (the sweep's lease
   * was running out before it was reached; a later sweep takes it once the lease has ended).
   */
  readonly outcome: string;
  /** Why, when it ended in `error` (the error's name and message; never a token). */
  readonly reason?: string | undefined;
}

/** What one sweep did. */
export interface SweepReport {
  /** Intents claimed. */
  readonly claimed: number;
  /** Payments whose final status was settled (`onSettled` ran to its end). */
  readonly settled: number;
  /** Each intent, in the order handled. */
  readonly intents: readonly SweptIntent[];
}

/** What the sweeper needs from the client: the journal, settlement, and how to re-send and read. */
export interface SweepContext {
  readonly journal: PaymentJournal | undefined;
  readonly merchant: string;
  readonly settlement: Settlement | undefined;
  /**
   * Re-sends an open intent under its reference id, as `recover()` does with these options (the
   * journal records the outcome): answers how it ended, and why when it did not.
   */
  resend(
    intent: PaymentIntent,
    options: {
      readonly userTokenFor?: UserTokenFor | undefined;
      /** Stops the re-send, before the sweep's lease on the intent ends. */
      readonly signal?: AbortSignal | undefined;
    },
  ): Promise<{ readonly outcome: string; readonly reason?: string | undefined }>;
  /** Reads a transaction's status; the sweeper writes it to the journal with the intent's release. */
  read(transactionId: string): Promise<SweptStatus>;
}

/** What the sweeper uses of a status read. */
export interface SweptStatus {
  readonly transaction_id: string;
  readonly transaction_status: string;
  readonly reference_id?: string | undefined;
}

/** The user token to re-send a deposit intent with; `undefined` when there is none. */
export type UserTokenFor = (intent: PaymentIntent) => string | undefined | Promise<string | undefined>;

const sweepChannel = publishChannel('merchant-wallet:sweep');

/**
 * The share of a sweep's lease it never works into: room for the release to reach the store, and
 * for the store's clock, which ends the lease, to run ahead of this process's.
 */
const LEASE_MARGIN_SHARE = 0.1;

function checkSweepOptions(options: SweepOptions) {
  if (typeof options !== 'object' || options === null) {
    throw new WalletRequestValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  const { limit = 100, leaseMs = 120_000, concurrency = 16 } = options;
  const refuse = (path: string, message: string) => {
    throw new WalletRequestValidationError([{ path: `options.${path}`, message }]);
  };
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000)
    refuse('limit', 'must be a whole number from 1 to 10000');
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 1_000) {
    refuse('leaseMs', 'must be a whole number of milliseconds, 1000 or more');
  }
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 256) {
    refuse('concurrency', 'must be a whole number from 1 to 256');
  }
  return { limit, leaseMs, concurrency, schedule: fullSchedule(options, 'options') };
}

/**
 * The journal's sweeper methods, or a config error naming what is missing. `release` writes a status
 * the sweeper read with the release (see `releaseWithStatus`).
 */
function sweepable(journal: PaymentJournal | undefined) {
  const { claimDue, releaseDue } = journal ?? {};
  if (journal === undefined || claimDue === undefined || releaseDue === undefined) {
    throw new WalletConfigError(
      'journal',
      journal === undefined
        ? 'sweepOnce() needs the journal client option'
        : 'has no claimDue/releaseDue: use the memory, PostgreSQL or Redis journal, or add them to yours',
    );
  }
  return {
    journal,
    claimDue: claimDue.bind(journal),
    // Checked above: the journal has releaseDue.
    release: releaseWithStatus(journal as ReleasingJournal),
  };
}

/**
 * One pass of the sweeper: claims due intents under a lease, re-sends `sending` (past the grace
 * period) and `unknown` ones with the one-truth rules, reads pending payments on their backoff
 * schedule, settles final ones nobody settled, then frees each with when it is next due.
 */
export async function sweepOnce(context: SweepContext, options: SweepOptions = {}): Promise<SweepReport> {
  const { limit, leaseMs, concurrency, schedule } = checkSweepOptions(options);
  const { journal, claimDue, release } = sweepable(context.journal);
  const lease = crypto.randomUUID();
  const settle = context.settlement !== undefined;
  // Measured before the claim is sent, so the lease, taken on the store after, ends later than this.
  const workUntil = performance.now() + leaseMs * (1 - LEASE_MARGIN_SHARE);
  const claimed = await claimDue({ lease, leaseMs, limit, merchant: context.merchant, settle, ...schedule });
  // Next checks are times on the store's clock: its time now, plus what this process measures after.
  const clock = claimed.length === 0 ? 0 : await storeNow(journal);
  const measuredAt = performance.now();
  const storeTime = () => clock + (performance.now() - measuredAt);
  const intents: SweptIntent[] = [];
  let settled = 0;
  const report = (result: SweptIntent) => {
    intents.push(result);
    if (sweepChannel?.hasSubscribers) sweepChannel.publish(result);
  };
  // The release (with the status read) and the settlement that needs the lease freed.
  const finish = async (intent: PaymentIntent, { update, ...swept }: SweptWithUpdate) => {
    const delay = nextCheckDelay(schedule, (intent.checks ?? 0) + 1);
    const nextCheckAt = new Date(storeTime() + delay).toISOString();
    try {
      await release(intent.referenceId, lease, nextCheckAt, update);
    } catch (error) {
      // Still leased, so due again when the lease ends; the other intents' work goes on.
      report({ ...swept, outcome: 'error', reason: `not released: ${describeError(error)}` });
      return;
    }
    const done =
      context.settlement !== undefined &&
      (await settleIntent(context.settlement, intent.referenceId, 'sweeper'));
    if (done) settled += 1;
    const result = done
      ? { ...swept, outcome: swept.action === 'settle' ? 'settled' : swept.outcome }
      : swept;
    report(result);
  };
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const intent = claimed[next++] as PaymentIntent;
      const leftMs = Math.floor(workUntil - performance.now());
      // Not released: it stays this sweep's until the lease ends, then any sweeper's.
      if (leftMs <= 0) report({ referenceId: intent.referenceId, action: actionOf(intent), outcome: 'left' });
      else await finish(intent, await sweepOne(context, intent, options, AbortSignal.timeout(leftMs)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, worker));
  return { claimed: claimed.length, settled, intents };
}

/** What the sweeper did with an intent, and the status it read to write with the release. */
type SweptWithUpdate = SweptIntent & { readonly update?: SweptUpdate | undefined };

/** What the sweeper does with `intent`: settle it, read its status, or send it again. */
function actionOf(intent: PaymentIntent): SweptIntent['action'] {
  if (FINAL_STATES.has(intent.state) || intent.state === 'refused') return 'settle';
  return intent.state === 'accepted' ? 'read' : 'resend';
}

/** Sweeps one intent; a re-send stops when `signal` aborts, before the sweep's lease ends. */
async function sweepOne(
  context: SweepContext,
  intent: PaymentIntent,
  options: SweepOptions,
  signal: AbortSignal,
): Promise<SweptWithUpdate> {
  const { referenceId } = intent;
  const action = actionOf(intent);
  if (action === 'settle') return { referenceId, action, outcome: 'unsettled' };
  try {
    if (action === 'read') {
      if (intent.transactionId === undefined)
        return { referenceId, action, outcome: 'error', reason: 'no transaction id' };
      const status = await context.read(intent.transactionId);
      if (status.reference_id !== undefined && status.reference_id !== referenceId)
        return { referenceId, action, outcome: 'error', reason: 'the status names another reference id' };
      const { transaction_id: transactionId, transaction_status: transactionStatus } = status;
      const state = acceptedState(transactionStatus);
      const update = { state, transactionId, transactionStatus, settledBy: 'sweeper' } as const;
      return { referenceId, action, outcome: transactionStatus, update };
    }
    const { outcome, reason } = await context.resend(intent, { userTokenFor: options.userTokenFor, signal });
    return { referenceId, action, outcome, ...(reason === undefined ? {} : { reason }) };
  } catch (error) {
    const after = await context.journal?.get(referenceId).catch(() => undefined);
    if (after !== undefined && after.state !== intent.state)
      return { referenceId, action, outcome: after.state };
    return { referenceId, action, outcome: 'error', reason: describeError(error) };
  }
}
