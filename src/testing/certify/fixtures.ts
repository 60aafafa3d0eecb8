import { WalletConfigError } from '../../errors.js';
import type { RuleContext } from '../model/context.js';
import { emailKey } from '../model/state.js';
import {
  type TransactionRecord,
  type TransactionWebhookEvent,
  transactionEvent,
} from '../model/transactions.js';
import { putUser, setBalance } from '../rules/admin.js';
import { applyDeposit } from '../rules/deposit.js';
import { settleDeposit } from '../rules/settlement.js';
import type { SandboxInternals } from '../sandbox.js';

/** The sandbox user whose deposits `certify` makes; added on first use. */
export const CERTIFY_USER = 'certify@sandbox.test';
const PROVIDER = 'mpesa';
/** Enough for every certify run a sandbox will see; topped up each run. */
const PROVIDER_FUNDS = 1_000_000_000;

/**
 * Real deposits of the graded merchant, made and settled without sending their webhooks: `certify`
 * delivers each event itself, when and how a check needs it. Money moves as for any deposit.
 */
export class CertifyFixtures {
  readonly #internals: SandboxInternals;
  readonly #appId: string;
  readonly #currency: string;
  readonly #run: string;
  #count = 0;

  constructor(internals: SandboxInternals, appId: string) {
    this.#internals = internals;
    this.#appId = appId;
    const merchant = internals.ctx.state.merchantsByApp.get(appId);
    if (merchant === undefined) throw new WalletConfigError('appId', `names no sandbox merchant (${appId})`);
    const currency = [...merchant.balances.keys()][0];
    if (currency === undefined)
      throw new WalletConfigError('appId', `${appId} holds no currency to deposit in`);
    this.#currency = currency;
    this.#run = Math.random().toString(36).slice(2, 8);
    const { state } = internals.ctx;
    if (!state.users.has(emailKey(CERTIFY_USER))) {
      putUser(state, {
        email: CERTIFY_USER,
        balances: { [currency]: 0 },
        providers: [{ name: PROVIDER, phone_number: '+254700009999', balances: { [currency]: 0 } }],
      });
    }
    setBalance(state, { email: CERTIFY_USER, currency, amount: 0 });
    setBalance(state, { email: CERTIFY_USER, provider: PROVIDER, currency, amount: PROVIDER_FUNDS });
  }

  /** The context of the rules with webhooks and timed settlement left out. */
  #quiet(): RuleContext {
    return { ...this.#internals.ctx, sendWebhook: () => {}, onPending: () => {} };
  }

  /** A new pending deposit of the merchant. */
  pending(): TransactionRecord {
    const ctx = this.#quiet();
    const merchant = ctx.state.merchantsByApp.get(this.#appId);
    const user = ctx.state.users.get(emailKey(CERTIFY_USER));
    if (merchant === undefined || user === undefined) throw new Error('certify fixtures lost their merchant');
    const reference = `certify-${this.#run}-${++this.#count}`;
    const body = {
      reference_id: reference,
      amount: 10 + this.#count,
      currency: this.#currency,
      payment_provider: PROVIDER,
    };
    const outcome = applyDeposit(ctx, merchant, user, body);
    if (!outcome.ok) throw new Error(`certify could not make a deposit: ${outcome.code}`);
    return ctx.transactions.get(outcome.body.transaction_id as string) as TransactionRecord;
  }

  /** Ends a pending deposit as `status`, without a webhook. */
  settle(tx: TransactionRecord, status: 'completed' | 'failed'): TransactionRecord {
    return settleDeposit(this.#quiet(), tx.id, { status });
  }

  /** A new deposit, already `status`, and its genuine event. */
  settled(status: 'completed' | 'failed' = 'completed'): TransactionWebhookEvent {
    return transactionEvent(this.settle(this.pending(), status));
  }
}
