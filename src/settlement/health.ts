import { WalletConfigError } from '../errors.js';
import { storeNow } from '../journal/clock.js';
import {
  PAYMENT_INTENT_STATES,
  type PaymentIntent,
  type PaymentIntentState,
  type PaymentJournal,
} from '../journal/types.js';
import { isPositiveMs, POSITIVE_MS } from '../limits.js';
import type { TransactionEventsHealth } from '../polling/event-source-health.js';
import { type JournalHealthAlarm, raisedAlarms } from './alarms.js';
import { DEFAULT_SCHEDULE } from './schedule.js';
import { type WebhookHealth, type WebhookHealthOptions, webhookHealth } from './webhook-silence.js';

/** How long an `events` source may go without listening before `events_not_listening`: a minute. */
const DEFAULT_NOT_LISTENING_AFTER_MS = 60_000;

/** Why the sweeper leaves an intent to a person. */
export type StuckReason =
  /** Pending for longer than `stuckAfterMs`: the provider never answered. */
  | 'pending_too_long'
  /** `sending` or `unknown`, unchanged for longer than `stuckAfterMs`: it cannot be re-sent (no token, another merchant's key). */
  | 'open_too_long'
  /** Accepted, but the service never told its transaction id (a retry met `reference_already_used`), so its status cannot be read. */
  | 'no_transaction_id';

/** An intent the sweeper no longer resolves by itself, and why. */
export interface StuckIntent {
  /** Why it is stuck. */
  readonly why: StuckReason;
  /** The intent as the journal holds it. */
  readonly intent: PaymentIntent;
}

/**
 * One API key seen under several merchant identities in one journal: instances of one merchant whose
 * base URLs differ (an IP address and a host name, say). Each identity's instances never sweep nor
 * recover the others' payments: configure one base URL for the whole fleet (docs/reliability.md).
 */
export interface SharedKey {
  /** The key's fingerprint (`mk1:…`; not a secret). */
  readonly keyFingerprint: string;
  /** The identities its intents were recorded under. */
  readonly merchants: readonly string[];
}

/** What `journalHealth({ events })` reads: a shared transaction-event source, or anything that says where its connection stands. */
export interface TransactionEventsHealthSource {
  /** Where the source's listening connection stands. */
  health(): TransactionEventsHealth;
}

/** Options of `wallet.journalHealth()` besides `stuckAfterMs`. */
export interface JournalHealthOptions extends WebhookHealthOptions {
  /**
   * The shared transaction-event source of this instance (`createPostgresTransactionEvents`,
   * `createRedisTransactionEvents`): its listening connection is reported as `events`.
   */
  events?: TransactionEventsHealthSource | undefined;
  /**
   * How long `events` may stay `connecting` or `reconnecting`, in ms, before `events_not_listening`
   * is raised. Waits still end meanwhile, at their next poll, but later.
   * @default 60000 (a minute)
   */
  notListeningAfterMs?: number | undefined;
}

/** What `wallet.journalHealth()` reports. */
export interface JournalHealth {
  /** How many intents are in each state. */
  readonly counts: Readonly<Record<PaymentIntentState, number>>;
  /** Accepted payments whose transaction is still pending. */
  readonly pending: number;
  /** Payments with a final status whose `onSettled` has not completed yet. */
  readonly unsettled: number;
  /** How long the oldest pending payment has waited, in milliseconds (0 when none). */
  readonly oldestPendingMs: number;
  /**
   * Intents that need a person: look each up in the wallet's portal, then settle it with a status
   * read (`wallet.getTransaction`) or `closeIntent`. docs/settlement.md.
   */
  readonly stuck: readonly StuckIntent[];
  /**
   * API keys whose intents in this journal were recorded under more than one merchant identity
   * (empty when none): a warning that one merchant runs as two, and that neither sweeps the other's.
   */
  readonly sharedKeys: readonly SharedKey[];
  /** How payments settled lately: by which path, the webhooks' share, the last one, and silence. */
  readonly webhooks: WebhookHealth;
  /**
   * The listening connection of the `events` source passed in (absent without one): `reconnecting`
   * means events from other instances are not heard here, and waits end at their next poll instead.
   */
  readonly events?: TransactionEventsHealth;
  /**
   * Alarms raised, each also published on `HEALTH_CHANNEL`: `webhooks_silent` when webhooks seem to
   * have stopped arriving ({@link WebhookHealth.silent}); `events_not_listening` when the `events`
   * source has been connecting or reconnecting for `notListeningAfterMs`.
   */
  readonly alarms: readonly JournalHealthAlarm[];
}

/** The keys seen under several identities among `intents`. */
function sharedKeysOf(intents: Iterable<PaymentIntent>): SharedKey[] {
  const identities = new Map<string, Set<string>>();
  for (const { keyFingerprint, merchant } of intents) {
    if (keyFingerprint === undefined || merchant === undefined) continue;
    const seen = identities.get(keyFingerprint) ?? new Set<string>();
    seen.add(merchant);
    identities.set(keyFingerprint, seen);
  }
  return [...identities]
    .filter(([, merchants]) => merchants.size > 1)
    .map(([keyFingerprint, merchants]) => ({ keyFingerprint, merchants: [...merchants].sort() }));
}

/**
 * Counts the journal's intents by state, the pending and unsettled payments, the oldest pending
 * one's age (on the journal store's clock), the stuck ones, and the API keys seen under several
 * merchant identities, and, given `events`, where its listening connection stands; raises the
 * alarms these call for. It reads every open and accepted intent, so call it from a health
 * endpoint or a periodic job, not on every request.
 * @throws {WalletConfigError} when the client has no journal, or naming an option out of range.
 */
export async function journalHealth(
  journal: PaymentJournal | undefined,
  stuckAfterMs = DEFAULT_SCHEDULE.stuckAfterMs,
  options: JournalHealthOptions = {},
): Promise<JournalHealth> {
  if (journal === undefined)
    throw new WalletConfigError('journal', 'journalHealth() needs the journal client option');
  const { events, notListeningAfterMs = DEFAULT_NOT_LISTENING_AFTER_MS } = options;
  if (events !== undefined && typeof events?.health !== 'function')
    throw new WalletConfigError('events', 'must have health()');
  if (!isPositiveMs(notListeningAfterMs)) throw new WalletConfigError('notListeningAfterMs', POSITIVE_MS);
  const now = await storeNow(journal);
  const byState = new Map(
    await Promise.all(
      PAYMENT_INTENT_STATES.map(async (state) => [state, await journal.list(state)] as const),
    ),
  );
  const counts = Object.fromEntries(
    PAYMENT_INTENT_STATES.map((state) => [state, byState.get(state)?.length ?? 0]),
  ) as Record<PaymentIntentState, number>;
  const accepted = byState.get('accepted') ?? [];
  const final = [...(byState.get('completed') ?? []), ...(byState.get('failed') ?? [])];
  const pending = accepted.filter((intent) => intent.transactionId !== undefined);
  const age = (intent: PaymentIntent, field: 'createdAt' | 'updatedAt') => now - Date.parse(intent[field]);
  const open = [...(byState.get('sending') ?? []), ...(byState.get('unknown') ?? [])];
  const stuck: StuckIntent[] = [
    ...open
      .filter((intent) => age(intent, 'updatedAt') >= stuckAfterMs)
      .map((intent) => ({ why: 'open_too_long' as const, intent })),
    ...pending
      .filter((intent) => age(intent, 'createdAt') >= stuckAfterMs)
      .map((intent) => ({ why: 'pending_too_long' as const, intent })),
    ...accepted
      .filter((intent) => intent.transactionId === undefined)
      .map((intent) => ({ why: 'no_transaction_id' as const, intent })),
  ];
  const webhooks = webhookHealth(final, now, options);
  const eventsHealth = events?.health();
  return {
    webhooks,
    alarms: raisedAlarms({ webhooks, events: eventsHealth, notListeningAfterMs }),
    counts,
    pending: pending.length,
    unsettled: final.filter((intent) => intent.settledAt === undefined).length,
    oldestPendingMs: Math.max(0, ...pending.map((intent) => age(intent, 'createdAt'))),
    stuck,
    sharedKeys: sharedKeysOf([...byState.values()].flat()),
    ...(eventsHealth === undefined ? {} : { events: eventsHealth }),
  };
}
