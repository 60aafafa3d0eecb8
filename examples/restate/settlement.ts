// How a payment's settlement reaches the Restate handler waiting for it: whichever path learns the
// final status (the webhook, the sweeper's read, the call's own answer) completes the awakeable
// named in the payment's journal intent, through the Restate ingress. Completing it twice is
// harmless: the first completion wins and later ones are accepted and ignored.
import type { OnSettled, PaymentIntent, PaymentJournal } from 'merchant-wallet';
import { createWebhookHandler, type TransactionReader, type WebhookHandler } from 'merchant-wallet/webhooks';
import { AWAKEABLE_KEY, type PaymentOutcome } from './checkout.js';

/**
 * Resolves the awakeable `id` with `outcome` through the ingress at `ingressUrl`. Throws when
 * Restate did not accept it, so the caller answers the sender with an error and is asked again.
 */
export async function completeAwakeable(
  ingressUrl: string,
  id: string,
  outcome: PaymentOutcome,
): Promise<void> {
  const response = await fetch(new URL(`restate/awakeables/${encodeURIComponent(id)}/resolve`, ingressUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(outcome),
    signal: AbortSignal.timeout(5_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`Restate answered ${response.status} to completing an awakeable`);
}

/** The outcome a settled intent carries to its awakeable, or `undefined` for a payment made outside Restate. */
function settledOutcome(intent: PaymentIntent, status: 'completed' | 'failed') {
  const id = intent.metadata?.[AWAKEABLE_KEY];
  if (id === undefined) return undefined;
  const outcome: PaymentOutcome = {
    status,
    referenceId: intent.referenceId,
    ...(intent.transactionId === undefined ? {} : { transactionId: intent.transactionId }),
  };
  return { id, outcome };
}

/**
 * An `onSettled` that completes the payment's awakeable. It runs for the path that settled the
 * payment, the sweeper's included; when Restate cannot be reached it throws, and the settlement's
 * lease runs it again later.
 */
export function completeAwakeableOnSettled(ingressUrl: string, next?: OnSettled): OnSettled {
  return async (intent, status, context) => {
    await next?.(intent, status, context);
    const settled = settledOutcome(intent, status);
    if (settled !== undefined) await completeAwakeable(ingressUrl, settled.id, settled.outcome);
  };
}

/**
 * The webhook endpoint of a shop whose payments run in Restate. Each transaction event is read back
 * (`verifyWith`: the journal records the status and settles it), then its awakeable is completed.
 * When completing fails the endpoint answers 500, never 200: the wallet service delivers the
 * event again, where a 200 would have lost it.
 */
export function restateWebhookHandler(options: {
  readonly verifyWith: TransactionReader;
  readonly journal: PaymentJournal;
  readonly ingressUrl: string;
}): WebhookHandler {
  return createWebhookHandler({
    verifyWith: options.verifyWith,
    onTransaction: async (_event, context) => {
      if (!context.verified) return;
      const { reference_id: referenceId, transaction_status: status } = context.status;
      if (referenceId === undefined || (status !== 'completed' && status !== 'failed')) return;
      const intent = await options.journal.get(referenceId);
      const settled = intent === undefined ? undefined : settledOutcome(intent, status);
      if (settled === undefined) return;
      await completeAwakeable(options.ingressUrl, settled.id, {
        ...settled.outcome,
        transactionId: context.status.transaction_id,
      });
    },
  });
}
