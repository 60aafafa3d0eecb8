import { WalletConfigError } from '../../errors.js';
import type { RuleContext } from '../model/context.js';
import type { DeliveryPlan } from '../model/delivery-plan.js';
import {
  type TransactionRecord,
  type TransactionWebhookEvent,
  transactionEvent,
} from '../model/transactions.js';
import type { ForgedDelivery, WebhookDelivery } from '../serve/webhook-types.js';
import { checkForgery, type ForgeryRequest, forgedBody, needsTransaction } from './forgery.js';

/** Starts a delivery in the background and answers it as it starts (the dispatcher's `send`, forged). */
export type SendForged = (
  url: string,
  event: ForgedBody['event'],
  plan: DeliveryPlan | undefined,
  forged: ForgedDelivery,
) => WebhookDelivery;

type ForgedBody = ReturnType<typeof forgedBody>;

/** The deposit a forgery is made from: the one named, else the merchant's latest. */
function baseDeposit(ctx: RuleContext, appId: string, transactionId: string | undefined) {
  if (transactionId !== undefined) {
    const tx = ctx.transactions.get(transactionId);
    if (tx === undefined || tx.kind !== 'c2b') {
      throw new WalletConfigError('forgery.transactionId', `names no deposit (${transactionId})`);
    }
    return tx;
  }
  let latest: TransactionRecord | undefined;
  for (const tx of ctx.transactions.values()) if (tx.kind === 'c2b' && tx.appId === appId) latest = tx;
  return latest;
}

/** An event of the merchant's shape for forgeries that need no real transaction. */
function placeholderEvent(ctx: RuleContext, appId: string): TransactionWebhookEvent {
  const merchant = ctx.state.merchantsByApp.get(appId);
  const currency = merchant ? ([...merchant.balances.keys()][0] ?? 'KES') : 'KES';
  return {
    event: 'transaction',
    transaction_id: 'txn_placeholder',
    reference_id: 'forged-order',
    transaction_status: 'completed',
    amount: 100,
    currency,
  };
}

/**
 * Sends the forgery `request` describes to the merchant's endpoint (or `request.url`) through `send`,
 * so it is logged, retried and planned like any delivery. `unique` makes made-up ids differ.
 * @throws {WalletConfigError} naming the field: an unknown kind, merchant or deposit, no URL to post to.
 */
export function forgeWebhook(
  ctx: RuleContext,
  send: SendForged,
  request: ForgeryRequest,
  unique: string,
): WebhookDelivery {
  const forgery = checkForgery(request);
  const tx = baseDeposit(ctx, forgery.appId, forgery.transactionId);
  const appId = tx?.appId ?? forgery.appId;
  const merchant = ctx.state.merchantsByApp.get(appId);
  if (merchant === undefined)
    throw new WalletConfigError('forgery.appId', `names no sandbox merchant (${appId})`);
  if (tx === undefined && needsTransaction(forgery.kind)) {
    throw new WalletConfigError(
      'forgery.transactionId',
      `${appId} has no deposit to forge from: make one first, or name one`,
    );
  }
  const token = forgery.kind === 'made-up-token';
  const url =
    forgery.url ?? (token ? merchant.authWebhookUrl : (tx?.webhookUrl ?? merchant.depositWebhookUrl));
  if (url === undefined) {
    throw new WalletConfigError(
      'forgery.url',
      `${appId} has no ${token ? 'auth' : 'deposit'} webhook URL: give one`,
    );
  }
  const genuine = tx === undefined ? placeholderEvent(ctx, appId) : transactionEvent(tx);
  const email = tx?.email ?? [...ctx.state.users.values()][0]?.email ?? 'someone@example.com';
  const { event, body } = forgedBody(forgery.kind, genuine, { bytes: forgery.bytes, unique, email });
  return send(url, event, forgery.delivery, { forgery: forgery.kind, body });
}
