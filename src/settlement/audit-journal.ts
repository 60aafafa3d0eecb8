import { sameAmount } from '../amount.js';
import { WalletAbortError, WalletApiError, WalletRequestValidationError } from '../errors.js';
import { listIntents } from '../journal/query.js';
import { ACCEPTED_STATES, type PaymentIntent, type PaymentJournal } from '../journal/types.js';
import { isAbortSignal } from '../limits.js';
import type { TransactionResult } from '../schemas/responses.js';
import type { TransactionReader } from '../transaction-reader.js';

/** Options of {@link auditJournal}. */
export interface AuditJournalOptions {
  /** The journal to compare with the service. */
  journal: PaymentJournal;
  /** Only intents recorded at or after this time. */
  since?: Date | string | undefined;
  /** Only intents recorded before this time. */
  until?: Date | string | undefined;
  /**
   * Status reads in flight at once.
   * @default 8
   */
  concurrency?: number | undefined;
  /** Stops the run with a `WalletAbortError`; what was compared so far is not reported. */
  signal?: AbortSignal | undefined;
}

/** How the journal and the service disagree about one payment. */
export type JournalDisagreementKind =
  /** The service's status differs from the journal's (a pending one it settled, or another final one). */
  | 'status_differs'
  /** The service's amount or currency is not what the journal sent. */
  | 'amount_differs'
  /** The journal holds a transaction id the service does not know (`transaction_not_found`). */
  | 'unknown_to_service'
  /** The journal still holds it `sending` or `unknown`: its outcome was never resolved. */
  | 'unresolved';

/** One payment on which the journal and the service disagree. */
export interface JournalDisagreement {
  /** What kind of disagreement. */
  readonly kind: JournalDisagreementKind;
  /** The payment's reference id. */
  readonly referenceId: string;
  /** The intent as the journal holds it. */
  readonly journal: PaymentIntent;
  /** What the status endpoint answered, when it was read. */
  readonly service: TransactionResult | undefined;
}

/** What {@link auditJournal} found. */
export interface JournalAudit {
  /** Intents in the window whose status was read and compared. */
  readonly checked: number;
  /** Of those, how many agree. */
  readonly agreed: number;
  /**
   * Intents that cannot be compared: refused or closed (nothing to read; the spec has no lookup by
   * `reference_id`, so a refusal the service did apply would only show in its own reports), and
   * accepted ones whose transaction id was never told.
   */
  readonly unchecked: number;
  /** Every disagreement. */
  readonly disagreements: readonly JournalDisagreement[];
}

function compare(intent: PaymentIntent, status: TransactionResult): JournalDisagreementKind | undefined {
  if (status.transaction_status !== intent.transactionStatus) return 'status_differs';
  const { amount, currency } = intent.body as { amount?: unknown; currency?: unknown };
  const sameMoney =
    (typeof amount !== 'number' && typeof amount !== 'string') || sameAmount(amount, status.amount);
  if (!sameMoney || (typeof currency === 'string' && currency !== status.currency)) return 'amount_differs';
  return undefined;
}

/**
 * Compares the journal with the status endpoint over a window of recording time: every accepted
 * payment's status is read and compared (status, amount, currency), and every intent left
 * `sending` or `unknown` is reported. For the day's reconciliation, instead of SQL against the
 * journal's tables.
 *
 * @throws {WalletRequestValidationError} for bad options (naming the field).
 * @example
 * const day = await auditJournal(wallet, { journal, since: '2026-11-24', until: '2026-11-25' });
 * for (const one of day.disagreements) console.warn(one.kind, one.referenceId);
 */
export async function auditJournal(
  reader: TransactionReader,
  options: AuditJournalOptions,
): Promise<JournalAudit> {
  const { journal, since, until, concurrency = 8, signal } = options ?? ({} as AuditJournalOptions);
  const refuse = (path: string, message: string) => {
    throw new WalletRequestValidationError([{ path: `options.${path}`, message }]);
  };
  if (typeof journal?.list !== 'function') refuse('journal', 'must be a payment journal');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    refuse('concurrency', 'must be a whole number from 1 to 64');
  }
  if (signal !== undefined && !isAbortSignal(signal)) refuse('signal', 'must be an AbortSignal');
  const intents = listIntents(journal, { since, until, limit: 500 });
  const disagreements: JournalDisagreement[] = [];
  let checked = 0;
  let unchecked = 0;
  const one = async (intent: PaymentIntent) => {
    const { referenceId, transactionId } = intent;
    if (intent.state === 'sending' || intent.state === 'unknown') {
      disagreements.push({ kind: 'unresolved', referenceId, journal: intent, service: undefined });
      return;
    }
    if (!ACCEPTED_STATES.has(intent.state) || transactionId === undefined) {
      unchecked += 1;
      return;
    }
    checked += 1;
    try {
      const status = await reader.getTransaction(transactionId, signal === undefined ? {} : { signal });
      const kind = compare(intent, status);
      if (kind !== undefined) disagreements.push({ kind, referenceId, journal: intent, service: status });
    } catch (error) {
      if (!(error instanceof WalletApiError) || error.code !== 'transaction_not_found') throw error;
      disagreements.push({ kind: 'unknown_to_service', referenceId, journal: intent, service: undefined });
    }
  };
  const lanes = Array.from({ length: concurrency }, async () => {
    for (;;) {
      if (signal?.aborted) throw new WalletAbortError('status', signal.reason);
      const next = await intents.next();
      if (next.done) return;
      await one(next.value);
    }
  });
  await Promise.all(lanes);
  const unresolved = disagreements.filter((disagreement) => disagreement.kind === 'unresolved').length;
  return { checked, agreed: checked - (disagreements.length - unresolved), unchecked, disagreements };
}

/**
 * The former name of {@link auditJournal}.
 * @deprecated Use {@link auditJournal}; this alias goes in the next release.
 */
export const reconcileJournal: typeof auditJournal = auditJournal;

/**
 * The former name of {@link AuditJournalOptions}.
 * @deprecated Use {@link AuditJournalOptions}; this alias goes in the next release.
 */
export type ReconcileJournalOptions = AuditJournalOptions;

/**
 * The former name of {@link JournalAudit}.
 * @deprecated Use {@link JournalAudit}; this alias goes in the next release.
 */
export type JournalReconciliation = JournalAudit;
