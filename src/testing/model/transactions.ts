import type { TransactionStatus } from '../../schemas/fields.js';
import { centsToAmount } from './money.js';

/** A transaction as the sandbox stores it. @internal */
export interface TransactionRecord {
  id: string;
  kind: 'c2b' | 'b2c';
  appId: string;
  email: string;
  referenceId: string | undefined;
  description: string | undefined;
  provider: string | undefined;
  cents: number;
  currency: string;
  status: TransactionStatus;
  failureReason: string | null;
  webhookUrl: string | undefined;
  createdAt: Date;
  completedAt: Date | undefined;
  /** Set when the sandbox settled it by itself, this long after it started; for error messages. */
  autoSettledAfterMs?: number;
}

/** A read-only view of one transaction, for assertions in tests. */
export interface SandboxTransaction {
  /** `txn_000001`, ... */
  readonly transaction_id: string;
  /** `c2b` for deposits, `b2c` for withdrawals. */
  readonly type: 'c2b' | 'b2c';
  /** The app id of the merchant that created it. */
  readonly app_id: string;
  /** The user it was paid by or to. */
  readonly user_email: string;
  /** The merchant's reference id. */
  readonly reference_id: string | undefined;
  /** The request's description, if any. */
  readonly description: string | undefined;
  /** The provider a pending deposit or a withdrawal went through; `undefined` for a deposit the wallet covered. */
  readonly payment_provider: string | undefined;
  /** In major units, e.g. `150.5`. */
  readonly amount: number;
  /** The currency code. */
  readonly currency: string;
  /** `pending`, `completed` or `failed`. */
  readonly transaction_status: TransactionStatus;
  /** Why it failed; `null` unless `failed`. */
  readonly failure_reason: string | null;
  /** The `webhook_url` of the deposit request, if it named one. */
  readonly webhook_url: string | undefined;
  /** When it was created, in sandbox time. */
  readonly created_at: Date;
  /** When it became `completed` or `failed`. */
  readonly completed_at: Date | undefined;
}

/**
 * Body of the transaction-result webhook. The spec does not show this payload;
 * the sandbox sends these fields, `reference_id` always (deposits require one)
 * and `failure_reason` only when the status is `failed`.
 */
export interface TransactionWebhookEvent {
  /** The event type. */
  event: 'transaction';
  /** The deposit. */
  transaction_id: string;
  /** The merchant's reference id. */
  reference_id: string;
  /** `completed` or `failed` (`pending` never produces a webhook). */
  transaction_status: TransactionStatus;
  /** A number, as in the deposit response. */
  amount: number;
  /** The currency code. */
  currency: string;
  /** Why it failed; only when `failed`. */
  failure_reason?: string;
}

/** Body of the `user_authorized` webhook, as the spec documents it. */
export interface UserAuthorizedWebhookEvent {
  /** The event type. */
  event: 'user_authorized';
  /** The user who approved. */
  user_email: string;
  /** The new token for the user and the merchant's app. */
  token: string;
}

/** Any body the sandbox posts to a webhook URL. */
export type SandboxWebhookEvent = TransactionWebhookEvent | UserAuthorizedWebhookEvent;

/** The public view of a stored transaction. */
export function toSandboxTransaction(tx: TransactionRecord): SandboxTransaction {
  return {
    transaction_id: tx.id,
    type: tx.kind,
    app_id: tx.appId,
    user_email: tx.email,
    reference_id: tx.referenceId,
    description: tx.description,
    payment_provider: tx.provider,
    amount: centsToAmount(tx.cents),
    currency: tx.currency,
    transaction_status: tx.status,
    failure_reason: tx.failureReason,
    webhook_url: tx.webhookUrl,
    created_at: new Date(tx.createdAt),
    completed_at: tx.completedAt === undefined ? undefined : new Date(tx.completedAt),
  };
}

/** The result webhook of a deposit. */
export function transactionEvent(tx: TransactionRecord): TransactionWebhookEvent {
  return {
    event: 'transaction',
    transaction_id: tx.id,
    reference_id: tx.referenceId ?? '',
    transaction_status: tx.status,
    amount: centsToAmount(tx.cents),
    currency: tx.currency,
    ...(tx.failureReason === null ? {} : { failure_reason: tx.failureReason }),
  };
}

/** `date_completed`: the UTC time as a `YYYYMMDDHHMMSS` integer (2026-11-21T14:30:05Z is 20261121143005). */
export function toDateCompleted(date: Date): number {
  const day = (date.getUTCFullYear() * 100 + date.getUTCMonth() + 1) * 100 + date.getUTCDate();
  const time = (date.getUTCHours() * 100 + date.getUTCMinutes()) * 100 + date.getUTCSeconds();
  return day * 1_000_000 + time;
}
