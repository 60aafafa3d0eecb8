import {
  EMAIL_PATTERN,
  fail,
  INTERNAL_ERROR_TRIGGER,
  type Outcome,
  type RuleContext,
} from '../model/context.js';
import { centsToAmount } from '../model/money.js';
import { emailKey, type MerchantRecord, transfer } from '../model/state.js';
import { type TransactionRecord, toDateCompleted } from '../model/transactions.js';
import { isOutcome, isValidReference, readMoneyFields } from './body-fields.js';

/**
 * Applies a withdrawal (B2C): merchant balance to the user's wallet, then on
 * to the named provider. It completes within the request and sends no webhook,
 * since the response already carries the final result.
 */
export function applyWithdraw(
  ctx: RuleContext,
  merchant: MerchantRecord,
  body: Record<string, unknown>,
): Outcome {
  const reference = body.reference_id;
  if (reference !== undefined && !isValidReference(reference)) return fail('invalid_request');
  if (reference === INTERNAL_ERROR_TRIGGER) return fail('internal_server_error');
  const email = body.email;
  if (typeof email !== 'string' || !EMAIL_PATTERN.test(email)) return fail('invalid_email');
  const fields = readMoneyFields(ctx.state, body);
  if (isOutcome(fields)) return fields;
  const user = ctx.state.users.get(emailKey(email));
  if (!user) return fail('user_not_found');
  if (!user.active) return fail('user_not_active');
  if (reference !== undefined && merchant.references.has(reference)) return fail('reference_already_used');
  const { cents, currency, provider: providerName } = fields;
  const available = merchant.balances.get(currency);
  if (available === undefined) return fail('merchant_balance_not_found');
  if (!user.balances.has(currency)) return fail('user_balance_not_found');
  if (available < cents) return fail('insufficient_balance');
  const provider = providerName === undefined ? undefined : user.providers.get(providerName);
  if (providerName !== undefined) {
    if (!provider) return fail('provider_not_found');
    if (!provider.balances.has(currency)) return fail('psp_currency_balance_not_found');
    if (provider.behavior === 'psp_error') return fail('psp_error');
  }

  const now = ctx.now();
  const tx: TransactionRecord = {
    id: ctx.newTransactionId(),
    kind: 'b2c',
    appId: merchant.appId,
    email: user.email,
    referenceId: reference,
    description: fields.description,
    provider: providerName,
    cents,
    currency,
    status: 'completed',
    failureReason: null,
    webhookUrl: undefined,
    createdAt: now,
    completedAt: now,
  };
  // The answer is built before anything changes: a request that fails must leave no trace.
  const answer: Outcome = {
    ok: true,
    body: {
      transaction_id: tx.id,
      ...(reference === undefined ? {} : { reference_id: reference }),
      transaction_status: tx.status,
      amount: centsToAmount(cents),
      currency,
      date_completed: toDateCompleted(now),
    },
  };
  if (reference !== undefined) merchant.references.add(reference);
  ctx.transactions.set(tx.id, tx);
  transfer(merchant.balances, user.balances, currency, cents);
  if (provider) transfer(user.balances, provider.balances, currency, cents);
  return answer;
}
