import { isHttpUrl } from '../../limits.js';
import { fail, INTERNAL_ERROR_TRIGGER, type Outcome, type RuleContext } from '../model/context.js';
import { centsToAmount } from '../model/money.js';
import { type MerchantRecord, transfer, type UserRecord } from '../model/state.js';
import { type TransactionRecord, transactionEvent } from '../model/transactions.js';
import { isOutcome, isValidReference, readMoneyFields } from './body-fields.js';

/**
 * Applies a deposit (C2B) for a merchant and user whose credentials are
 * already checked. All checks run before any balance changes, so a rejected
 * request moves nothing. The order of the checks is documented in docs/sandbox.md.
 */
export function applyDeposit(
  ctx: RuleContext,
  merchant: MerchantRecord,
  user: UserRecord,
  body: Record<string, unknown>,
): Outcome {
  const reference = body.reference_id;
  if (!isValidReference(reference)) return fail('invalid_request');
  if (reference === INTERNAL_ERROR_TRIGGER) return fail('internal_server_error');
  const fields = readMoneyFields(ctx.state, body);
  if (isOutcome(fields)) return fields;
  const webhookUrl = body.webhook_url;
  if (webhookUrl !== undefined && !isHttpUrl(webhookUrl)) return fail('invalid_webhook_url');
  if (!user.active) return fail('user_not_active');
  if (merchant.references.has(reference)) return fail('reference_already_used');
  const { cents, currency, provider: providerName } = fields;
  const wallet = user.balances.get(currency);
  if (wallet === undefined) return fail('user_balance_not_found');
  if (!merchant.balances.has(currency)) return fail('merchant_balance_not_found');

  // The spec requires a named provider to be one of the user's even when the wallet covers the amount.
  const provider = providerName === undefined ? undefined : user.providers.get(providerName);
  if (providerName !== undefined && !provider) return fail('provider_not_found');
  const covered = wallet >= cents;
  if (!covered) {
    if (!provider) return fail('insufficient_balance');
    if (!provider.balances.has(currency)) return fail('psp_currency_balance_not_found');
    if (provider.behavior === 'psp_error') return fail('psp_error');
  }

  const now = ctx.now();
  const tx: TransactionRecord = {
    id: ctx.newTransactionId(),
    kind: 'c2b',
    appId: merchant.appId,
    email: user.email,
    referenceId: reference,
    description: fields.description,
    // A covered deposit never touches the provider, so it is not recorded as used.
    provider: covered ? undefined : providerName,
    cents,
    currency,
    status: covered ? 'completed' : 'pending',
    failureReason: null,
    webhookUrl,
    createdAt: now,
    completedAt: covered ? now : undefined,
  };
  merchant.references.add(reference);
  ctx.transactions.set(tx.id, tx);
  if (covered) {
    transfer(user.balances, merchant.balances, currency, cents);
    const target = webhookUrl ?? merchant.depositWebhookUrl;
    if (target !== undefined) ctx.sendWebhook(target, transactionEvent(tx));
  } else {
    ctx.onPending(tx);
  }
  return {
    ok: true,
    body: {
      transaction_id: tx.id,
      reference_id: reference,
      transaction_status: tx.status,
      amount: centsToAmount(cents),
      currency,
    },
  };
}
