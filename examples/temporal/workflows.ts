// The checkout workflow: pay, resolve an unknown outcome, wait for the settlement (a webhook signal,
// or a timer after which it reads what the sweeper recorded), then fulfil. Workflow code must be
// deterministic: it calls the wallet only through activities.
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { PaymentActivities } from './activities.js';
import type { Order, PaymentAnswer, SettledSignal } from './types.js';

const { pay, resolveOutcome, settlementOf, fulfil } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '1 minute',
  // Every retry of `pay` keeps its activity id, so it pays under the same reference id.
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Sent by the webhook handler (`signalWithStart`) when a payment of this workflow is final. */
export const settledSignal = defineSignal<[SettledSignal]>('walletPaymentSettled');

/** How long to wait for the webhook before reading the journal, which the sweeper keeps current. */
const WEBHOOK_WAIT = '10 minutes';

/** Pays an order once, waits for its final status, fulfils it; answers how the payment ended. */
export async function checkoutWorkflow(order: Order): Promise<PaymentAnswer> {
  const signals: SettledSignal[] = [];
  setHandler(settledSignal, (signal) => void signals.push(signal));

  let answer = await pay(order);
  if (answer.status === 'unknown') answer = await resolveOutcome(answer.referenceId, order.email);
  const { referenceId } = answer;
  while (answer.status === 'pending') {
    const ours = () => signals.find((signal) => signal.referenceId === referenceId);
    if (await condition(() => ours() !== undefined, WEBHOOK_WAIT)) {
      answer = ours() as SettledSignal;
    } else {
      // No webhook in time: the sweeper reads pending payments and records their status.
      answer = await settlementOf(referenceId);
    }
  }
  await fulfil(order, answer);
  return answer;
}
