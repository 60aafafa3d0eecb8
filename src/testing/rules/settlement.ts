import { WalletConfigError } from '../../errors.js';
import type { RuleContext } from '../model/context.js';
import { checkPlan, type DeliveryPlan } from '../model/delivery-plan.js';
import { emailKey } from '../model/state.js';
import { type TransactionRecord, transactionEvent } from '../model/transactions.js';

/** How a pending deposit ends. */
export interface SettleOutcome {
  /** `completed` moves the money; `failed` moves nothing. */
  status: 'completed' | 'failed';
  /** Stored and sent when `status` is `failed`. @default 'declined by payment provider' */
  failure_reason?: string;
  /** How the result webhook is delivered. @default the next plan of `webhooks.planNext`, else at once */
  delivery?: DeliveryPlan;
}

/** The reason a completed settlement turns into a failure: the provider account cannot cover it. */
export const PROVIDER_SHORT_REASON = 'insufficient funds at payment provider';
const DEFAULT_FAILURE_REASON = 'declined by payment provider';

/**
 * Ends a pending deposit. `completed` moves the amount from the user's account
 * at the provider to the merchant; if that account no longer covers it the
 * deposit fails instead, so money is never created. Either way the result
 * webhook is sent.
 */
export function settleDeposit(
  ctx: RuleContext,
  transactionId: string,
  outcome: SettleOutcome,
): TransactionRecord {
  if (typeof transactionId !== 'string') throw new WalletConfigError('transactionId', 'must be a string');
  const tx = ctx.transactions.get(transactionId);
  if (!tx) throw new WalletConfigError('transactionId', `names no transaction (${transactionId})`);
  if (tx.kind !== 'c2b' || tx.status !== 'pending') {
    throw new WalletConfigError('transactionId', `is not a pending deposit: ${notPendingReason(tx)}`);
  }
  if (typeof outcome !== 'object' || outcome === null || !['completed', 'failed'].includes(outcome.status)) {
    throw new WalletConfigError('outcome.status', "must be 'completed' or 'failed'");
  }
  if (outcome.failure_reason !== undefined && typeof outcome.failure_reason !== 'string') {
    throw new WalletConfigError('outcome.failure_reason', 'must be a string');
  }
  const plan = outcome.delivery === undefined ? undefined : checkPlan(outcome.delivery, 'outcome.delivery');
  const merchant = ctx.state.merchantsByApp.get(tx.appId);
  const provider = ctx.state.users.get(emailKey(tx.email))?.providers.get(tx.provider ?? '');
  if (!merchant || !provider) throw new Error('sandbox invariant broken: pending deposit lost its accounts');

  tx.completedAt = ctx.now();
  if (outcome.status === 'completed') {
    const available = provider.balances.get(tx.currency) ?? 0;
    if (available >= tx.cents) {
      provider.balances.set(tx.currency, available - tx.cents);
      merchant.balances.set(tx.currency, (merchant.balances.get(tx.currency) ?? 0) + tx.cents);
      tx.status = 'completed';
    } else {
      tx.status = 'failed';
      tx.failureReason = PROVIDER_SHORT_REASON;
    }
  } else {
    tx.status = 'failed';
    tx.failureReason = outcome.failure_reason ?? DEFAULT_FAILURE_REASON;
  }
  const target = tx.webhookUrl ?? merchant.depositWebhookUrl;
  if (target !== undefined) ctx.sendWebhook(target, transactionEvent(tx), plan);
  return tx;
}

/** Why a transaction cannot be settled, in the words a person settling it by hand needs. */
function notPendingReason(tx: TransactionRecord): string {
  if (tx.kind !== 'c2b') return `${tx.id} is a withdrawal (b2c), ${tx.status}`;
  if (tx.autoSettledAfterMs !== undefined) {
    return `${tx.id} is already ${tx.status} (auto-settled ${tx.autoSettledAfterMs} ms after it started)`;
  }
  return `${tx.id} is already ${tx.status}`;
}

/** The outcome automatic settlement gives a deposit, from its provider's behaviour. */
export function automaticOutcome(ctx: RuleContext, tx: TransactionRecord): SettleOutcome {
  const provider = ctx.state.users.get(emailKey(tx.email))?.providers.get(tx.provider ?? '');
  return provider?.behavior === 'decline' ? { status: 'failed' } : { status: 'completed' };
}
