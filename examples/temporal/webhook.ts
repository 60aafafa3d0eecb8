// The webhook endpoint of a shop whose payments run in Temporal workflows: each verified final
// status is delivered to the payment's workflow with `signalWithStart`. If delivering it fails, the
// endpoint answers 500, never 200, so the wallet service delivers it again; a 200 would lose it.
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { PaymentJournal } from 'merchant-wallet';
import { createWebhookHandler, type TransactionReader, type WebhookHandler } from 'merchant-wallet/webhooks';
import { WORKFLOW_KEY } from './activities.js';
import type { Order, SettledSignal } from './types.js';
import { checkoutWorkflow, settledSignal } from './workflows.js';

/** Delivers a settlement to the workflow `workflowId`; rejects when it could not be delivered. */
export type DeliverSettlement = (workflowId: string, signal: SettledSignal, order: Order) => Promise<void>;

/**
 * Delivers through Temporal: `signalWithStart` signals the running workflow, or starts it (with its
 * order, whose `pay` then finds the payment applied under the same reference id) if it never ran.
 * A workflow that already closed needs no signal: that is a delivery, not a failure.
 */
export function signalWithTemporal(client: Client, taskQueue: string): DeliverSettlement {
  return async (workflowId, signal, order) => {
    try {
      await client.workflow.signalWithStart(checkoutWorkflow, {
        workflowId,
        taskQueue,
        args: [order],
        signal: settledSignal,
        signalArgs: [signal],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };
}

/**
 * The endpoint: reads each transaction event back (`verifyWith`, which also records and settles it
 * in the journal), finds the payment's workflow in its journal intent, and delivers the status.
 */
export function temporalWebhookHandler(options: {
  readonly verifyWith: TransactionReader;
  readonly journal: PaymentJournal;
  readonly deliver: DeliverSettlement;
}): WebhookHandler {
  return createWebhookHandler({
    verifyWith: options.verifyWith,
    onTransaction: async (_event, context) => {
      if (!context.verified) return;
      const { reference_id: referenceId, transaction_status: status, transaction_id } = context.status;
      if (referenceId === undefined || (status !== 'completed' && status !== 'failed')) return;
      const intent = await options.journal.get(referenceId);
      const workflowId = intent?.metadata?.[WORKFLOW_KEY];
      if (intent === undefined || workflowId === undefined) return;
      const { amount, currency, payment_provider } = intent.body as {
        amount: number;
        currency: string;
        payment_provider?: string;
      };
      const order: Order = {
        orderId: intent.metadata?.order_id ?? referenceId,
        email: intent.metadata?.email ?? '',
        amount,
        currency,
        ...(payment_provider === undefined ? {} : { paymentProvider: payment_provider }),
      };
      await options.deliver(workflowId, { referenceId, status, transactionId: transaction_id }, order);
    },
  });
}
