import { WalletConfigError } from '../../errors.js';
import { isHttpUrl } from '../../limits.js';
import { checkLimit } from '../model/bounds.js';
import { checkPlan, type DeliveryPlan } from '../model/delivery-plan.js';
import type { SandboxWebhookEvent, TransactionWebhookEvent } from '../model/transactions.js';

/**
 * What the sandbox can send in place of a genuine webhook, as an attacker or a broken network would:
 * - `unknown-transaction`: a `completed` event for a transaction id the service never issued;
 * - `changed-amount`, `changed-status`, `changed-reference`, `changed-currency`: a real transaction's
 *   event with that one field changed (the status to `completed` when it is not, else to `failed`);
 * - `malformed-json`: a real event's JSON cut off halfway;
 * - `oversized`: a real event padded with spaces to `bytes` bytes;
 * - `unknown-event`: an event of a type the spec does not name (`payout.created`);
 * - `made-up-token`: a `user_authorized` event carrying a token the sandbox never issued.
 */
export type ForgeryKind =
  | 'unknown-transaction'
  | 'changed-amount'
  | 'changed-status'
  | 'changed-reference'
  | 'changed-currency'
  | 'malformed-json'
  | 'oversized'
  | 'unknown-event'
  | 'made-up-token';

/** Every {@link ForgeryKind}, in the order the docs list them. */
export const FORGERY_KINDS: readonly ForgeryKind[] = [
  'unknown-transaction',
  'changed-amount',
  'changed-status',
  'changed-reference',
  'changed-currency',
  'malformed-json',
  'oversized',
  'unknown-event',
  'made-up-token',
];

/** The kinds that need no real transaction to start from. */
const NEEDS_NO_TRANSACTION: ReadonlySet<ForgeryKind> = new Set(['unknown-transaction', 'made-up-token']);

/** The size of an `oversized` forgery when `bytes` is not given: past every default webhook limit (64 KiB). */
export const DEFAULT_FORGED_BYTES = 1_048_576;

/** What to forge, and where to send it (`sandbox.forge`, `POST /_sandbox/webhooks/forge`, `sandbox forge`). */
export interface ForgeryRequest {
  /** What to send. */
  kind: ForgeryKind;
  /**
   * The real transaction a changed, malformed, oversized or unknown-type event is made from.
   * @default the merchant's latest deposit
   */
  transactionId?: string;
  /**
   * Where to post it.
   * @default the transaction's `webhook_url`, else the merchant's deposit webhook URL (auth webhook URL for `made-up-token`)
   */
  url?: string;
  /** The merchant whose endpoint receives it. @default 'app_demo_shop' */
  appId?: string;
  /** The body size of an `oversized` forgery, 1 to 67108864 bytes. @default 1048576 */
  bytes?: number;
  /** How it is delivered, as for a genuine webhook. @default { mode: 'deliver' } */
  delivery?: DeliveryPlan;
}

/** A forgery checked, its defaults filled in (transaction and URL are resolved by the sandbox). @internal */
export interface CheckedForgery {
  kind: ForgeryKind;
  transactionId: string | undefined;
  url: string | undefined;
  appId: string;
  bytes: number;
  delivery: Required<DeliveryPlan> | undefined;
}

/** Checks a forgery request, naming the field at fault. @internal */
export function checkForgery(request: unknown): CheckedForgery {
  if (typeof request !== 'object' || request === null)
    throw new WalletConfigError('forgery', 'must be an object');
  const { kind, transactionId, url, appId = 'app_demo_shop', bytes, delivery } = request as ForgeryRequest;
  if (!FORGERY_KINDS.includes(kind)) {
    throw new WalletConfigError('forgery.kind', `must be one of ${FORGERY_KINDS.join(', ')}`);
  }
  if (transactionId !== undefined && (typeof transactionId !== 'string' || transactionId === '')) {
    throw new WalletConfigError('forgery.transactionId', 'must be a non-empty string');
  }
  if (url !== undefined && !isHttpUrl(url))
    throw new WalletConfigError('forgery.url', 'must be an absolute http(s) URL');
  if (typeof appId !== 'string') throw new WalletConfigError('forgery.appId', 'must be a string');
  return {
    kind,
    transactionId,
    url,
    appId,
    bytes: bytes === undefined ? DEFAULT_FORGED_BYTES : checkLimit('faultBytes', bytes, 'forgery.bytes'),
    delivery: delivery === undefined ? undefined : checkPlan(delivery, 'forgery.delivery'),
  };
}

/** Whether a kind is made from a real transaction's event. @internal */
export function needsTransaction(kind: ForgeryKind): boolean {
  return !NEEDS_NO_TRANSACTION.has(kind);
}

/** A forged body: the event it pretends to be (for the delivery log) and the exact text posted. @internal */
export interface ForgedBody {
  event: SandboxWebhookEvent;
  body: string;
}

/** A currency other than `currency`, so a changed-currency forgery always differs. */
function otherCurrency(currency: string): string {
  return currency === 'USD' ? 'EUR' : 'USD';
}

/**
 * The body of a forgery of `kind`, made from `genuine` (a real transaction's event; for
 * `unknown-transaction` and `made-up-token` only its shape is used). `unique` makes made-up ids and
 * tokens differ between forgeries. @internal
 */
export function forgedBody(
  kind: ForgeryKind,
  genuine: TransactionWebhookEvent,
  options: { bytes: number; unique: string; email: string },
): ForgedBody {
  const changed = (fields: Partial<TransactionWebhookEvent>): ForgedBody => {
    const event = { ...genuine, ...fields };
    return { event, body: JSON.stringify(event) };
  };
  switch (kind) {
    case 'unknown-transaction':
      return changed({ transaction_id: `txn_forged_${options.unique}`, transaction_status: 'completed' });
    case 'changed-amount':
      return changed({ amount: Math.round(genuine.amount * 100 + 100_000) / 100 });
    case 'changed-status':
      return changed({
        transaction_status: genuine.transaction_status === 'completed' ? 'failed' : 'completed',
      });
    case 'changed-reference':
      return changed({ reference_id: `${genuine.reference_id}-forged-${options.unique}` });
    case 'changed-currency':
      return changed({ currency: otherCurrency(genuine.currency) });
    case 'malformed-json': {
      const text = JSON.stringify(genuine);
      return { event: genuine, body: text.slice(0, Math.floor(text.length / 2)) };
    }
    case 'oversized': {
      const text = JSON.stringify(genuine);
      return { event: genuine, body: text.padEnd(Math.max(options.bytes, text.length), ' ') };
    }
    case 'unknown-event': {
      const body = JSON.stringify({ ...genuine, event: 'payout.created' });
      return { event: genuine, body };
    }
    case 'made-up-token': {
      const event: SandboxWebhookEvent = {
        event: 'user_authorized',
        user_email: options.email,
        token: `tok_forged_${options.unique}`,
      };
      return { event, body: JSON.stringify(event) };
    }
  }
}
