import { fail, INTERNAL_ERROR_TRIGGER, type Outcome, type RuleContext } from './context.js';
import { centsToAmountString } from './money.js';
import type { MerchantRecord, UserRecord } from './state.js';

/** The status of a transaction, visible only to the merchant that created it. */
export function lookUpStatus(ctx: RuleContext, merchant: MerchantRecord, transactionId: string): Outcome {
  if (transactionId === INTERNAL_ERROR_TRIGGER) return fail('internal_server_error');
  const tx = ctx.transactions.get(transactionId);
  if (!tx) return fail('transaction_not_found');
  if (tx.appId !== merchant.appId) return fail('transaction_access_forbidden');
  return {
    ok: true,
    body: {
      transaction_id: tx.id,
      ...(tx.referenceId === undefined ? {} : { reference_id: tx.referenceId }),
      transaction_status: tx.status,
      amount: centsToAmountString(tx.cents),
      currency: tx.currency,
      failure_reason: tx.failureReason,
    },
  };
}

/** The providers a user has linked, and the user's defaults. */
export function listProviders(user: UserRecord): Outcome {
  return {
    ok: true,
    body: {
      default_deposit_provider: user.defaultDepositProvider,
      default_withdraw_provider: user.defaultWithdrawProvider,
      payment_providers: {
        mobile_payment_providers: [...user.providers.values()].map((p) => ({
          provider_name: p.name,
          phone_number: p.phoneNumber,
        })),
      },
    },
  };
}
