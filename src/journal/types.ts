/**
 * Where a deposit or withdrawal stands in the merchant's own records:
 *
 * - `sending`: recorded, about to be sent (or sent, its answer not yet written);
 * - `unknown`: it may have been accepted, nobody can tell yet; `wallet.recover()` and the sweeper
 *   resolve intents in this state and in `sending`;
 * - `accepted`: the service took it, and its transaction has not reached a final status (it is
 *   `pending`, or was not read yet): money may still move either way;
 * - `completed`: its transaction completed: money moved;
 * - `failed`: its transaction failed after it was accepted: no money moved;
 * - `refused`: the service refused it, or it was never sent: no money moved;
 * - `closed`: settled by hand with `closeIntent`, or closed as never sent when its recording
 *   failed: `recover()` never sends it.
 *
 * Journals written before these names held `applied` for `accepted`, `completed` and `failed`
 * alike; the PostgreSQL migration and the Redis journal rewrite it on first use (CHANGELOG).
 */
export type PaymentIntentState =
  | 'sending'
  | 'unknown'
  | 'accepted'
  | 'completed'
  | 'failed'
  | 'refused'
  | 'closed';

/** Every {@link PaymentIntentState}, in the order a payment passes through them. */
export const PAYMENT_INTENT_STATES = [
  'sending',
  'unknown',
  'accepted',
  'completed',
  'failed',
  'refused',
  'closed',
] as const satisfies readonly PaymentIntentState[];

/** The states that never go back to `sending` or `unknown` through an update: the service answered. */
export const DEFINITE_STATES: ReadonlySet<PaymentIntentState> = new Set([
  'accepted',
  'completed',
  'failed',
  'refused',
  'closed',
]);

/** The states of a payment the service accepted: it has (or had) a transaction. */
export const ACCEPTED_STATES: ReadonlySet<PaymentIntentState> = new Set(['accepted', 'completed', 'failed']);

/**
 * The states of a payment whose transaction reached a final status: they never change again, and
 * `accepted` changes only into one of them.
 */
export const FINAL_STATES: ReadonlySet<PaymentIntentState> = new Set(['completed', 'failed']);

/** The states `wallet.recover()` resolves: the payment may still be sent, or may have been accepted. */
export const OPEN_STATES = ['sending', 'unknown'] as const satisfies readonly PaymentIntentState[];

/**
 * Which path moved a payment into its final state (`completed` or `failed`):
 * - `answer`: the deposit's or withdrawal's own answer was final;
 * - `status_read`: a status read (`wallet.getTransaction`, `waitForTransaction`, reconciliation);
 * - `webhook`: a webhook the handler verified by reading the transaction back (`verifyWith`);
 * - `resolve_outcome`: `wallet.resolveOutcome` re-sent it and the answer was final;
 * - `recover`: `wallet.recover()` re-sent it and the answer was final;
 * - `sweeper`: the sweeper read its status, or re-sent it.
 * `journalHealth()` counts them to notice when webhooks stop arriving.
 */
export type SettledBy = 'answer' | 'status_read' | 'webhook' | 'resolve_outcome' | 'recover' | 'sweeper';

/** Every {@link SettledBy}. */
export const SETTLED_BY = [
  'answer',
  'status_read',
  'webhook',
  'resolve_outcome',
  'recover',
  'sweeper',
] as const satisfies readonly SettledBy[];

/** The money-moving endpoints a journal records. */
export type PaymentIntentEndpoint = 'deposit' | 'withdraw';

/** What the client records before it sends a deposit or withdrawal. */
export interface NewPaymentIntent {
  /** The request's `reference_id`; the service keeps it unique, so it identifies the payment. */
  readonly referenceId: string;
  /** The endpoint the request goes to. */
  readonly endpoint: PaymentIntentEndpoint;
  /** The request body as sent. It holds no secret: the user token and API key travel in headers. */
  readonly body: Readonly<Record<string, unknown>>;
  /**
   * The identity of the merchant whose client sends it (`WalletClient.merchant`: a fingerprint of
   * its API key and base URL, not a secret), so that no other merchant's client ever re-sends it.
   */
  readonly merchant?: string | undefined;
  /**
   * An id of the call that records it, kept by the call that creates (or restarts) the intent, so
   * that call alone can close it as never sent (`ifRecordedBy`) when its own record failed.
   */
  readonly recordedBy?: string | undefined;
  /**
   * The user a deposit was made for, when the client paid by e-mail (`{ user }`): not a secret, and
   * what lets `recover()` find the user's token in the vault.
   */
  readonly userEmail?: string | undefined;
  /**
   * Your own labels for the payment, such as `{ orderId: 'o-42' }`: at most 20 keys of at most 40
   * characters, each a string of at most 500. Kept from the first record, never sent to the service.
   */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
  /**
   * How long the recording call holds a new intent while it sends it, in milliseconds: neither
   * `recover()` nor the sweeper re-sends it before the lease ends, judged on the store's clock. The
   * call renews it ({@link PaymentJournal.renewSending}) while it runs longer, and its outcome update
   * frees it. Taken by the write that creates the intent (none when it has no `recordedBy`); a record
   * of an existing intent leaves its lease as it is.
   */
  readonly sendingLeaseMs?: number | undefined;
  /**
   * A fingerprint of the sending client's API key alone (`WalletClient.keyFingerprint`: `mk1:` and
   * 64 bits of SHA-256; not a secret). Intents of one key under several `merchant` identities mean
   * instances of one merchant configured with different base URLs: `journalHealth()` warns.
   */
  readonly keyFingerprint?: string | undefined;
}

/** A change to a recorded intent; fields left out keep their value. */
export interface PaymentIntentUpdate {
  /**
   * The new state. A definite state (`accepted`, `completed`, `failed`, `refused`, `closed`) never
   * goes back to `sending` or `unknown`; `accepted` changes only into `completed` or `failed`, and
   * those never change again. A final `transactionStatus` comes with the state of its name.
   */
  readonly state?: PaymentIntentState | undefined;
  /** The service's transaction id, once an answer carried it. */
  readonly transactionId?: string | undefined;
  /** The transaction's latest status (`pending`, `completed`, `failed`, …). */
  readonly transactionStatus?: string | undefined;
  /** Why the outcome is what it is: the refusal's error code, or why it stayed unknown. */
  readonly reason?: string | undefined;
  /**
   * Applies the update only while the intent is in one of these states; otherwise nothing changes
   * and the intent is returned as it is. The check and the write are one atomic step on the store,
   * so of several processes making the same transition exactly one sees its state change.
   */
  readonly ifState?: readonly PaymentIntentState[] | undefined;
  /** Applies the update only when the intent was created by the call with this `recordedBy` id. */
  readonly ifRecordedBy?: string | undefined;
  /**
   * The path this update comes from. Kept only by the update that moves the intent into `completed`
   * or `failed`, so it names the path that settled the payment; later updates never change it.
   */
  readonly settledBy?: SettledBy | undefined;
}

/** One recorded deposit or withdrawal. */
export interface PaymentIntent extends NewPaymentIntent {
  /** The sending merchant's identity; `undefined` for an intent recorded before identities were kept. */
  readonly merchant: string | undefined;
  /** The `recordedBy` id of the call that created it; `undefined` when it gave none. */
  readonly recordedBy: string | undefined;
  /**
   * How many calls recorded it since it last started over: 1 for the call that created it, more
   * when a later call found it open or accepted, so an earlier call may already have sent it.
   */
  readonly records: number;
  /** Where the payment stands. */
  readonly state: PaymentIntentState;
  /** The service's transaction id, when an answer or a webhook carried it. */
  readonly transactionId: string | undefined;
  /** The transaction's latest known status. */
  readonly transactionStatus: string | undefined;
  /** The refusal's error code, or why the outcome stayed unknown. */
  readonly reason: string | undefined;
  /**
   * When the payment's final status (`completed` or `failed`) was settled: `onSettled` ran to its
   * end for it (ISO 8601, UTC); `undefined` before, and for payments that never settle.
   */
  readonly settledAt?: string | undefined;
  /**
   * Which path moved the payment into `completed` or `failed`; `undefined` before, and for payments
   * that reached it before the journal kept this (or through an update that did not say).
   */
  readonly settledBy?: SettledBy | undefined;
  /** When the sweeper next looks at the intent (ISO 8601, UTC); `undefined` until it first has. */
  readonly nextCheckAt?: string | undefined;
  /** How many times the sweeper looked at the intent. */
  readonly checks?: number | undefined;
  /**
   * When the lease holding the intent ends (a sending call's, a sweeper's or a settlement's; ISO 8601,
   * on the store's clock), or `undefined` when none holds it. Compare it with
   * {@link PaymentJournal.now}, never with this process's clock.
   */
  readonly leaseUntil?: string | undefined;
  /** When the intent was recorded (ISO 8601, UTC). */
  readonly createdAt: string;
  /** When the intent last changed (ISO 8601, UTC). */
  readonly updatedAt: string;
}

/** The final transaction statuses: a payment in one of them is settled, once, by `onSettled`. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed']);

/**
 * The database transaction `onSettled` runs in, when the journal has one (PostgreSQL: one on a
 * connection of the `pg` Pool): write your fulfilment through it and it commits with the
 * settlement, exactly once. It begins with its first statement, so a callback that writes nothing
 * through it costs no transaction; await every statement before the callback returns (a later one
 * is refused).
 */
export interface SettlementTransaction {
  /**
   * Runs one statement with `$1…` parameters, inside the transaction.
   * @throws {WalletConfigError} (`option: 'context.transaction'`, rejected) when the callback already returned.
   */
  query(text: string, values?: unknown[]): Promise<SettlementQueryResult>;
}

/** What a statement run through a {@link SettlementTransaction} answers (a `pg` result fits). */
export interface SettlementQueryResult {
  /** The rows returned, one object per row keyed by column name. */
  rows: unknown[];
  /** How many rows the statement inserted, updated, deleted or returned. */
  rowCount: number | null;
}

/** What the sweeper writes with a release: a status it read, never a condition on the update. */
export type SweptUpdate = Omit<PaymentIntentUpdate, 'ifState' | 'ifRecordedBy'>;

/** What the sweeper asks the journal for: due intents, claimed under a lease (see {@link PaymentJournal.claimDue}). */
export interface DueQuery {
  /** Names this claim: only its holder releases the intents. */
  readonly lease: string;
  /** How long the claim holds, in milliseconds; after that another sweeper may claim the intent. */
  readonly leaseMs: number;
  /** At most this many intents. */
  readonly limit: number;
  /** Only this merchant's intents (and those recorded without a merchant). */
  readonly merchant: string | undefined;
  /** A `sending` intent is due once unchanged this long (its call may still be running before). */
  readonly sendingGraceMs: number;
  /** A pending payment is first due this long after its last change. */
  readonly firstCheckMs: number;
  /** A pending payment recorded longer ago than this is no longer due: it is stuck (reported, not polled). */
  readonly stuckAfterMs: number;
  /** Whether final, unsettled payments are due (the client has `onSettled`). */
  readonly settle: boolean;
}

/** What `journal.list(query)` selects: intents by state, endpoint and recording time, a page at a time. */
export interface IntentQuery {
  /** One state, or any of several. Default: every state. */
  readonly state?: PaymentIntentState | readonly PaymentIntentState[] | undefined;
  /** Only deposits, or only withdrawals. */
  readonly endpoint?: PaymentIntentEndpoint | undefined;
  /** Only intents recorded at or after this time. */
  readonly since?: Date | string | undefined;
  /** Only intents recorded before this time. */
  readonly until?: Date | string | undefined;
  /** The `next` cursor of the previous page. */
  readonly after?: string | undefined;
  /**
   * At most this many intents (1 to 1000).
   * @default 100
   */
  readonly limit?: number | undefined;
}

/** One page of intents, oldest recorded first, and the cursor of the next page. */
export interface IntentPage {
  /** The intents, by recording time (then reference id). */
  readonly intents: readonly PaymentIntent[];
  /** Pass it as `after` for the next page; `undefined` on the last one. */
  readonly next: string | undefined;
}

/** Options of {@link PaymentJournal.list}. */
export interface ListIntentsOptions {
  /** At most this many intents, oldest first. Default: all of them. */
  readonly limit?: number | undefined;
}

/**
 * The merchant's durable record of every deposit and withdrawal the client sends: written before
 * sending, updated with the outcome after, so a crash between the two leaves a `sending` intent that
 * `wallet.recover()` resolves. Adapters: {@link createMemoryJournal}, `merchant-wallet/postgres`,
 * `merchant-wallet/redis`; `merchant-wallet/conformance` checks one written for another store.
 */
export interface PaymentJournal {
  /**
   * Records an intent in state `sending` and returns it. When an intent with this reference id
   * exists already, it is returned unchanged (recording is idempotent, so a merchant may record it
   * first, inside its own database transaction, and let the client record it again) but for its
   * `records` count, which goes up by one. A recorded intent never starts over, whatever its state:
   * a record may land late, from a call that gave up, and must not re-open what another call
   * settled. Pay again under a new reference id.
   */
  record(intent: NewPaymentIntent): Promise<PaymentIntent>;
  /** Applies `update` to the intent of `referenceId`; `undefined` when there is none. */
  update(referenceId: string, update: PaymentIntentUpdate): Promise<PaymentIntent | undefined>;
  /** Applies `update` to the intent whose transaction id is `transactionId`; `undefined` when there is none. */
  updateByTransactionId(
    transactionId: string,
    update: Omit<PaymentIntentUpdate, 'transactionId'>,
  ): Promise<PaymentIntent | undefined>;
  /** The intent of `referenceId`, or `undefined`. */
  get(referenceId: string): Promise<PaymentIntent | undefined>;
  /** The intents in `state`, oldest first (for recovery, dashboards and alerts). */
  list(state: PaymentIntentState, options?: ListIntentsOptions): Promise<PaymentIntent[]>;
  /**
   * One page of the intents `query` selects (by state, endpoint, recording time), oldest recorded
   * first, with the cursor of the next page; `listIntents(journal, query)` streams them all.
   */
  list(query: IntentQuery): Promise<IntentPage>;
  /**
   * Claims the settlement of `referenceId` under `lease` for `leaseMs`, in one atomic step: only
   * when its transaction status is final, it is not settled, and no live lease holds it. Answers the
   * intent when this call claimed it, so of many instances exactly one runs `onSettled`.
   * Optional: needed for `onSettled` and the sweeper.
   */
  claimSettlement?(referenceId: string, lease: string, leaseMs: number): Promise<PaymentIntent | undefined>;
  /** Marks the intent settled (`settledAt`) and frees its lease, when `lease` still holds it; answers whether it did. */
  completeSettlement?(referenceId: string, lease: string): Promise<boolean>;
  /**
   * Runs `work` inside one database transaction that also marks the intent settled, when `lease`
   * still holds it at the end; commits both or neither, and answers whether it committed. What
   * `work` writes through the transaction happens exactly once per payment: a process that dies in
   * it, or a lease lost meanwhile, rolls it back with the settlement. Optional: the PostgreSQL
   * journal on a `pg` Pool has it.
   */
  settleInTransaction?(
    referenceId: string,
    lease: string,
    work: (transaction: SettlementTransaction) => Promise<void>,
  ): Promise<boolean>;
  /**
   * Claims up to `query.limit` due intents under `query.lease`, oldest change first, skipping those
   * another live lease holds: `sending` ones unchanged for `sendingGraceMs`, `unknown` ones, pending
   * payments whose next check is due (and not stuck under this query's `stuckAfterMs`), and final
   * ones not settled, whatever their next check. Each is due again at its `nextCheckAt`, or when the
   * lease ends. Optional: needed for the sweeper.
   */
  claimDue?(query: DueQuery): Promise<PaymentIntent[]>;
  /**
   * Frees the lease of a claimed intent and sets when it is next due (`undefined`: due as its state
   * says), counting one check. Nothing changes when `lease` no longer holds it.
   */
  releaseDue?(referenceId: string, lease: string, nextCheckAt: string | undefined): Promise<void>;
  /**
   * Applies `update` to the intent of `referenceId` as {@link PaymentJournal.update} does and, when
   * `lease` still holds it, frees it as {@link PaymentJournal.releaseDue} does, in one write: what the
   * sweeper writes after reading a pending payment's status. Optional: without it the sweeper calls
   * `update`, then `releaseDue`.
   */
  releaseDueWith?(
    referenceId: string,
    lease: string,
    nextCheckAt: string | undefined,
    update: SweptUpdate,
  ): Promise<void>;
  /**
   * Extends, to `leaseMs` from now on the store's clock, the sending lease that the call
   * `recordedBy` took when it created the intent, while that intent is still `sending`; answers
   * whether it did. Optional: without it a call's lease is never renewed (see
   * {@link NewPaymentIntent.sendingLeaseMs}).
   */
  renewSending?(referenceId: string, recordedBy: string, leaseMs: number): Promise<boolean>;
  /**
   * The store's clock, in milliseconds since the epoch (PostgreSQL `clock_timestamp()`, Redis
   * `TIME`): what `recover()`, the sweeper and `journalHealth()` judge the journal's times against,
   * so that processes whose clocks differ judge them alike. Optional: without it, this process's clock.
   */
  now?(): Promise<number>;
}

/** The prefix of the lease a recording call takes on the intent it creates (then its `recordedBy`). */
export const SENDING_LEASE_PREFIX = 'sending:';
