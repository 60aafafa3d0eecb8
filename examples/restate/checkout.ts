// A payment inside a Restate service. Restate journals every step of the handler, so a process that
// dies mid-payment is re-invoked and replays what was done. The payment step itself may run again
// (it was cut off before Restate recorded its result): it pays under a reference id derived from
// the invocation, so every run of it is the same payment, and an unknown outcome is resolved under
// that same reference, never paid under a new one.
import * as restate from '@restatedev/restate-sdk';
import {
  isWalletApiError,
  isWalletError,
  type WalletClient,
  type WalletOutcomeUnknownError,
} from 'merchant-wallet';

/** An order to pay by deposit. It carries no token: Restate journals a handler's input in clear. */
export interface Order {
  /** Your order's id; also the `idempotency-key` to submit it with. */
  readonly orderId: string;
  /** The paying user, whose token `tokenFor` finds. */
  readonly email: string;
  readonly amount: number;
  readonly currency: string;
  /** Pay from this provider account instead of the wallet balance (the deposit is then pending). */
  readonly paymentProvider?: string | undefined;
}

/** How an order's payment ended, as the handler returns it and the awakeable carries it. */
export type PaymentOutcome =
  | { readonly status: 'completed' | 'failed'; readonly referenceId: string; readonly transactionId?: string }
  | { readonly status: 'refused'; readonly referenceId: string; readonly code: string };

/** What the payment step answered: a final outcome, or a payment applied whose status comes later. */
type StepAnswer = PaymentOutcome | { readonly status: 'pending'; readonly referenceId: string };

/** What the checkout service needs from the shop. */
export interface CheckoutDependencies {
  /** A client with a journal and `onSettled: completeAwakeableOnSettled(...)` (./settlement.ts). */
  readonly wallet: WalletClient;
  /** The user's token for a deposit; kept out of Restate's journal. */
  readonly tokenFor: (email: string) => Promise<string>;
  /** Fulfils (or cancels) the order. It can run more than once: key it by `order.orderId`. */
  readonly fulfil: (order: Order, outcome: PaymentOutcome) => Promise<void>;
}

/** The journal metadata key naming the awakeable a payment's settlement completes. */
export const AWAKEABLE_KEY = 'restate_awakeable';

/**
 * The reference id of the invocation's payment: the invocation id is the same on every retry and
 * replay of this invocation, and different for every other one. Submit each order with an
 * `idempotency-key` so a re-submitted order attaches to its first invocation instead of paying again.
 */
export function referenceIdOf(ctx: restate.Context): string {
  return `rs_${ctx.request().id}`;
}

const isOutcomeUnknown = (error: unknown): error is WalletOutcomeUnknownError =>
  isWalletError(error) && error.name === 'WalletOutcomeUnknownError';

/**
 * One run of the payment step: deposits under `referenceId`, or, when an earlier run may have paid
 * it, learns through `resolveOutcome` whether it did. A refusal is an answer; anything else that
 * leaves the outcome open throws, and Restate runs the step again under the same reference.
 */
async function pay(
  deps: CheckoutDependencies,
  order: Order,
  referenceId: string,
  awakeableId: string,
): Promise<StepAnswer> {
  const userToken = await deps.tokenFor(order.email);
  const body = {
    reference_id: referenceId,
    amount: order.amount,
    currency: order.currency,
    ...(order.paymentProvider === undefined ? {} : { payment_provider: order.paymentProvider }),
  };
  try {
    let result: { transaction_id: string; transaction_status: string } | undefined;
    try {
      result = await deps.wallet.deposit(body, {
        userToken,
        metadata: { [AWAKEABLE_KEY]: awakeableId, order_id: order.orderId },
      });
    } catch (error) {
      if (!isOutcomeUnknown(error)) throw error;
      // Applied or not, the service answers the same reference with the truth about it.
      const resolution = await deps.wallet.resolveOutcome(error, { userToken });
      result = resolution.result;
    }
    // `undefined`: an earlier run applied it; its status arrives through the webhook or the sweeper.
    if (result === undefined || result.transaction_status === 'pending')
      return { status: 'pending', referenceId };
    const status = result.transaction_status === 'completed' ? 'completed' : 'failed';
    return { status, referenceId, transactionId: result.transaction_id };
  } catch (error) {
    // A business refusal is definite: nothing was applied under this reference.
    if (isWalletApiError(error)) return { status: 'refused', referenceId, code: error.code };
    throw error;
  }
}

/**
 * The `checkout` service: `pay(order)` takes the payment, waits for its settlement on an awakeable
 * that the webhook handler or the sweeper completes, then fulfils the order.
 */
export function checkoutService(deps: CheckoutDependencies) {
  return restate.service({
    name: 'checkout',
    handlers: {
      pay: async (ctx: restate.Context, order: Order): Promise<PaymentOutcome> => {
        const referenceId = referenceIdOf(ctx);
        // Created before paying, so the payment's journal intent can name it; its id is the same on replay.
        const settlement = ctx.awakeable<PaymentOutcome>();
        const answer = await ctx.run('pay', () => pay(deps, order, referenceId, settlement.id));
        const outcome = answer.status === 'pending' ? await settlement.promise : answer;
        await ctx.run('fulfil', () => deps.fulfil(order, outcome));
        return outcome;
      },
    },
  });
}

/** The service's type, for typed clients of the Restate ingress. */
export type CheckoutService = ReturnType<typeof checkoutService>;
