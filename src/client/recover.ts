import type { VaultLink } from '../auth/vault-link.js';
import { WalletError, WalletRequestValidationError } from '../errors.js';
import { leaseHolds, storeNow } from '../journal/clock.js';
import { isBusinessRefusal } from '../journal/outcome.js';
import { OPEN_STATES, type PaymentIntent, type PaymentJournal } from '../journal/types.js';
import { isPositiveMs, POSITIVE_MS } from '../limits.js';
import type { OutcomeResolution, Resend } from './resolve-outcome.js';
import { resolveUnknown } from './resolve-outcome.js';

/** Options of {@link WalletClient.recover}. */
export interface RecoverOptions {
  /**
   * The user token for a deposit intent (deposits act for a user; the journal never stores tokens).
   * Return `undefined` when there is none: the intent is then left as it is and reported `skipped`.
   * Default, on a client with a token vault (`tokens`): the vault's token for the e-mail the journal
   * recorded with the deposit.
   */
  userTokenFor?: ((intent: PaymentIntent) => string | undefined | Promise<string | undefined>) | undefined;
  /**
   * Only intents unchanged for at least this long, in milliseconds, judged on the journal store's
   * clock. Whatever its value, an intent whose own call is still sending it (its sending lease
   * holds), or that a sweeper holds, is left alone and counted in `left`.
   * @default 0
   */
  olderThanMs?: number | undefined;
  /**
   * Only intents recorded within this many milliseconds; older ones are left open and counted in
   * `left`. Close those you settled by other means with {@link closeIntent}.
   * @default Infinity
   */
  newerThanMs?: number | undefined;
  /**
   * At most this many intents, oldest first; the rest are counted in `left` for the next run.
   * @default Infinity
   */
  limit?: number | undefined;
}

/** How one intent ended in {@link WalletClient.recover}. */
export interface RecoveredIntent {
  /** The payment's reference id. */
  readonly referenceId: string;
  /** Its endpoint. */
  readonly endpoint: PaymentIntent['endpoint'];
  /**
   * `applied` (by this re-send), `already_applied` (before), `refused`, still `unknown`, or
   * `skipped` (not sent: `reason` says why).
   */
  readonly outcome: 'applied' | 'already_applied' | 'refused' | 'unknown' | 'skipped';
  /** The transaction id, when the re-send returned one. */
  readonly transactionId: string | undefined;
  /** Why it was skipped or stayed unknown; `undefined` otherwise. */
  readonly reason?: string | undefined;
}

/** What {@link WalletClient.recover} did. */
export interface RecoveryReport {
  /** Every open intent looked at, and how it ended. */
  readonly intents: readonly RecoveredIntent[];
  /** How many ended each way. */
  readonly counts: Readonly<Record<RecoveredIntent['outcome'], number>>;
  /**
   * Open intents not looked at: held by the call sending them or by a sweeper, outside
   * `olderThanMs` / `newerThanMs`, or past `limit`.
   */
  readonly left: number;
}

type Resolve = (intent: PaymentIntent, userToken: string | undefined) => Promise<OutcomeResolution>;

async function recoverOne(
  intent: PaymentIntent,
  merchant: string,
  options: RecoverOptions,
  resolve: Resolve,
): Promise<RecoveredIntent> {
  const base = {
    referenceId: intent.referenceId,
    endpoint: intent.endpoint,
    transactionId: intent.transactionId,
  };
  // An intent without a merchant was recorded by the merchant's own code or before identities were
  // kept: it is taken as this merchant's (docs/reliability.md).
  if (intent.merchant !== undefined && intent.merchant !== merchant) {
    return { ...base, outcome: 'skipped', reason: `recorded by another merchant (${intent.merchant})` };
  }
  const userToken = intent.endpoint === 'deposit' ? await options.userTokenFor?.(intent) : undefined;
  if (intent.endpoint === 'deposit' && userToken === undefined) {
    const why = intent.userEmail === undefined ? '(userTokenFor)' : `in the vault for ${intent.userEmail}`;
    return { ...base, outcome: 'skipped', reason: `no user token for this deposit ${why}` };
  }
  try {
    const resolution = await resolve(intent, userToken);
    if (resolution.alreadyApplied) return { ...base, outcome: 'already_applied' };
    return { ...base, outcome: 'applied', transactionId: resolution.result.transaction_id };
  } catch (error) {
    if (isBusinessRefusal(error)) return { ...base, outcome: 'refused', reason: error.code };
    if (error instanceof WalletError) return { ...base, outcome: 'unknown', reason: error.message };
    throw error;
  }
}

function fail(path: string, message: string): never {
  throw new WalletRequestValidationError([{ path, message }], 'Invalid recover() options');
}

function checkOptions(options: RecoverOptions) {
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object');
  const { userTokenFor, olderThanMs = 0, newerThanMs = Number.POSITIVE_INFINITY } = options;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (userTokenFor !== undefined && typeof userTokenFor !== 'function')
    fail('options.userTokenFor', 'must be a function');
  if (typeof olderThanMs !== 'number' || !(olderThanMs >= 0 && Number.isFinite(olderThanMs)))
    fail('options.olderThanMs', 'must be a number of milliseconds, 0 or more');
  if (!isPositiveMs(newerThanMs)) fail('options.newerThanMs', POSITIVE_MS);
  if (limit !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(limit) && limit > 0))
    fail('options.limit', 'must be a positive integer');
  return { olderThanMs, newerThanMs, limit };
}

/** How an intent's body is sent again: given the intent and its user's token, a {@link Resend}. */
export type IntentResend = (intent: PaymentIntent, userToken: string | undefined) => Resend;

/**
 * Resolves one open intent at a time as `recover()` does: the merchant check, the user's token
 * (`userTokenFor`, else the vault's by the recorded e-mail), then a re-send under its reference id.
 */
export function intentRecoverer(
  merchant: string,
  options: RecoverOptions,
  resend: IntentResend,
  tokens?: Pick<VaultLink, 'tokenFor'>,
): (intent: PaymentIntent) => Promise<RecoveredIntent> {
  const resolve: Resolve = (intent, userToken) =>
    resolveUnknown(
      { endpoint: intent.endpoint, body: intent.body, referenceId: intent.referenceId, merchant },
      resend(intent, userToken),
    );
  const withTokens: RecoverOptions =
    tokens === undefined || options.userTokenFor !== undefined
      ? options
      : {
          ...options,
          userTokenFor: ({ userEmail }) => (userEmail === undefined ? undefined : tokens.tokenFor(userEmail)),
        };
  return (intent) => recoverOne(intent, merchant, withTokens, resolve);
}

/**
 * Resolves, one by one and oldest first, the open intents (`sending`, `unknown`) of the journal
 * that fall in the options' window, by re-sending each (the journal records each outcome).
 */
export async function recoverIntents(
  journal: PaymentJournal | undefined,
  merchant: string,
  options: RecoverOptions,
  resend: IntentResend,
  tokens?: Pick<VaultLink, 'tokenFor'>,
): Promise<RecoveryReport> {
  if (journal === undefined) {
    throw new WalletRequestValidationError([
      { path: 'journal', message: 'recover() needs the journal client option' },
    ]);
  }
  const { olderThanMs, newerThanMs, limit } = checkOptions(options);
  const open = (await Promise.all(OPEN_STATES.map((state) => journal.list(state)))).flat();
  const now = await storeNow(journal);
  open.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const due = open.filter(
    (intent) =>
      !leaseHolds(intent.leaseUntil, now) &&
      now - Date.parse(intent.updatedAt) >= olderThanMs &&
      now - Date.parse(intent.createdAt) <= newerThanMs,
  );
  const chosen = due.slice(0, limit);
  const intents: RecoveredIntent[] = [];
  const recoverIntent = intentRecoverer(merchant, options, resend, tokens);
  for (const intent of chosen) intents.push(await recoverIntent(intent));
  const counts = { applied: 0, already_applied: 0, refused: 0, unknown: 0, skipped: 0 };
  for (const one of intents) counts[one.outcome] += 1;
  return { intents, counts, left: open.length - chosen.length };
}
