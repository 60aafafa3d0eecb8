import { WalletError, WalletRequestValidationError } from '../errors.js';
import type { PaymentIntent, PaymentJournal } from '../journal/types.js';
import { isBusinessRefusal } from './journal-hook.js';
import type { OutcomeResolution, Resend } from './resolve-outcome.js';
import { resolveUnknown } from './resolve-outcome.js';

/** Options of {@link WalletClient.recover}. */
export interface RecoverOptions {
  /**
   * The user token for a deposit intent (deposits act for a user; the journal never stores tokens).
   * Return `undefined` when there is none: the intent is then left as it is and reported `skipped`.
   */
  userTokenFor?: ((intent: PaymentIntent) => string | undefined | Promise<string | undefined>) | undefined;
}

/** How one intent ended in {@link WalletClient.recover}. */
export interface RecoveredIntent {
  /** The payment's reference id. */
  readonly referenceId: string;
  /** Its endpoint. */
  readonly endpoint: PaymentIntent['endpoint'];
  /** `applied` (now or before), `refused`, still `unknown`, or `skipped` (no user token for a deposit). */
  readonly outcome: 'applied' | 'already_applied' | 'refused' | 'unknown' | 'skipped';
  /** The transaction id, when the re-send returned one. */
  readonly transactionId: string | undefined;
}

/** What {@link WalletClient.recover} did. */
export interface RecoveryReport {
  /** Every intent found `sending` or `unknown`, and how it ended. */
  readonly intents: readonly RecoveredIntent[];
  /** How many ended each way. */
  readonly counts: Readonly<Record<RecoveredIntent['outcome'], number>>;
}

type Resolve = (intent: PaymentIntent, userToken: string | undefined) => Promise<OutcomeResolution>;

async function recoverOne(
  intent: PaymentIntent,
  options: RecoverOptions,
  resolve: Resolve,
): Promise<RecoveredIntent> {
  const base = {
    referenceId: intent.referenceId,
    endpoint: intent.endpoint,
    transactionId: intent.transactionId,
  };
  const userToken = intent.endpoint === 'deposit' ? await options.userTokenFor?.(intent) : undefined;
  if (intent.endpoint === 'deposit' && userToken === undefined) return { ...base, outcome: 'skipped' };
  try {
    const resolution = await resolve(intent, userToken);
    if (resolution.alreadyApplied) return { ...base, outcome: 'already_applied' };
    return { ...base, outcome: 'applied', transactionId: resolution.result.transaction_id };
  } catch (error) {
    if (isBusinessRefusal(error)) return { ...base, outcome: 'refused' };
    if (error instanceof WalletError) return { ...base, outcome: 'unknown' };
    throw error;
  }
}

/**
 * Resolves, one by one, every intent the journal holds in state `sending` or `unknown`, by
 * re-sending it (the journal records each outcome on the way).
 */
export async function recoverIntents(
  journal: PaymentJournal | undefined,
  options: RecoverOptions,
  resend: (intent: PaymentIntent, userToken: string | undefined) => Resend,
): Promise<RecoveryReport> {
  if (journal === undefined) {
    throw new WalletRequestValidationError([
      { path: 'journal', message: 'recover() needs the journal client option' },
    ]);
  }
  if (typeof options !== 'object' || options === null) {
    throw new WalletRequestValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  if (options.userTokenFor !== undefined && typeof options.userTokenFor !== 'function') {
    throw new WalletRequestValidationError([{ path: 'options.userTokenFor', message: 'must be a function' }]);
  }
  const pending = [...(await journal.list('sending')), ...(await journal.list('unknown'))];
  const intents: RecoveredIntent[] = [];
  const resolve: Resolve = (intent, userToken) =>
    resolveUnknown(
      { endpoint: intent.endpoint, body: intent.body, referenceId: intent.referenceId },
      resend(intent, userToken),
    );
  for (const intent of pending) intents.push(await recoverOne(intent, options, resolve));
  const counts = { applied: 0, already_applied: 0, refused: 0, unknown: 0, skipped: 0 };
  for (const one of intents) counts[one.outcome] += 1;
  return { intents, counts };
}
