// The payment activities of a Temporal checkout workflow. Temporal retries an activity that failed
// or whose worker died, and every retry keeps its activity id: the reference id is derived from the
// workflow and activity ids, so a retry is the same payment, never a second one. An unknown outcome
// is not retried blindly: `pay` answers `unknown` and the workflow asks the `resolveOutcome`
// activity, which re-sends under the same reference and learns whether it was applied.
import { activityInfo } from '@temporalio/activity';
import {
  isWalletApiError,
  isWalletError,
  type PaymentJournal,
  type WalletClient,
  WalletOutcomeUnknownError,
} from 'merchant-wallet';
import type { Order, PaymentAnswer } from './types.js';

/** What the payment activities need from the shop. */
export interface PaymentActivityDependencies {
  /** A client with the journal below; `onSettled` as your settlement needs. */
  readonly wallet: WalletClient;
  /** The client's journal: `resolveOutcome` finds the unknown payment's body in it. */
  readonly journal: PaymentJournal;
  /** The user's token for a deposit; kept out of Temporal's history. */
  readonly tokenFor: (email: string) => Promise<string>;
  /** Fulfils (or cancels) the order; retried by Temporal, so key it by `order.orderId`. */
  readonly fulfil: (order: Order, answer: PaymentAnswer) => Promise<void>;
}

/** The journal metadata key naming the workflow a payment's webhook signals. */
export const WORKFLOW_KEY = 'temporal_workflow_id';

/**
 * The reference id of the running activity's payment, and its workflow's id: the same on every retry
 * of this activity, and different for every other activity of every workflow.
 */
export function paymentIdentity(): { referenceId: string; workflowId: string } {
  const { workflowExecution, activityId } = activityInfo();
  if (workflowExecution === undefined) throw new Error('a payment activity runs inside a workflow');
  const { workflowId } = workflowExecution;
  return { referenceId: `tp_${workflowId}_${activityId}`, workflowId };
}

const isOutcomeUnknown = (error: unknown): error is WalletOutcomeUnknownError =>
  isWalletError(error) && error.name === 'WalletOutcomeUnknownError';

/** A deposit's or re-send's answer as the workflow sees it. */
function answerOf(
  referenceId: string,
  result: { transaction_id: string; transaction_status: string } | undefined,
) {
  if (result === undefined || result.transaction_status === 'pending')
    return { status: 'pending', referenceId } as const;
  const status = result.transaction_status === 'completed' ? 'completed' : 'failed';
  return { status, referenceId, transactionId: result.transaction_id } as const;
}

/** The checkout workflow's activities; register them on the worker. */
export function createPaymentActivities(deps: PaymentActivityDependencies) {
  return {
    /**
     * Deposits under the activity's reference id. Answers `unknown` when it may have been applied
     * (never throws it: a blind retry would only meet the same question); a refusal is an answer;
     * other failures throw and Temporal retries the activity under the same reference.
     */
    async pay(order: Order): Promise<PaymentAnswer> {
      const { referenceId, workflowId } = paymentIdentity();
      const body = {
        reference_id: referenceId,
        amount: order.amount,
        currency: order.currency,
        ...(order.paymentProvider === undefined ? {} : { payment_provider: order.paymentProvider }),
      };
      try {
        const result = await deps.wallet.deposit(body, {
          userToken: await deps.tokenFor(order.email),
          metadata: { [WORKFLOW_KEY]: workflowId, order_id: order.orderId, email: order.email },
        });
        return answerOf(referenceId, result);
      } catch (error) {
        if (isOutcomeUnknown(error)) return { status: 'unknown', referenceId };
        if (isWalletApiError(error)) return { status: 'refused', referenceId, code: error.code };
        throw error;
      }
    },

    /**
     * Learns the outcome of a payment `pay` answered `unknown`: re-sends the body the journal holds
     * under the same reference (`wallet.resolveOutcome`). Still unknown: throws, and Temporal retries.
     */
    async resolveOutcome(referenceId: string, email: string): Promise<PaymentAnswer> {
      const intent = await deps.journal.get(referenceId);
      if (intent === undefined) throw new Error(`the journal holds no payment ${referenceId}`);
      if (intent.state === 'refused') return { status: 'refused', referenceId, code: 'refused' };
      const unknown = new WalletOutcomeUnknownError({
        endpoint: intent.endpoint,
        referenceId,
        attempts: 0,
        reason: 'the pay activity could not tell',
        body: intent.body,
      });
      if (intent.merchant !== undefined) unknown.merchant = intent.merchant;
      try {
        const resolution = await deps.wallet.resolveOutcome(unknown, {
          userToken: await deps.tokenFor(email),
        });
        return answerOf(referenceId, resolution.result);
      } catch (error) {
        // A refusal of the re-send is the answer about the original: it was not applied.
        if (isWalletApiError(error)) return { status: 'refused', referenceId, code: error.code };
        throw error;
      }
    },

    /** The payment's status as the journal holds it: what the sweeper read, when no webhook came. */
    async settlementOf(referenceId: string): Promise<PaymentAnswer> {
      const intent = await deps.journal.get(referenceId);
      const status = intent?.transactionStatus;
      if (status === 'completed' || status === 'failed') {
        return {
          status,
          referenceId,
          ...(intent?.transactionId === undefined ? {} : { transactionId: intent.transactionId }),
        };
      }
      return { status: 'pending', referenceId };
    },

    async fulfil(order: Order, answer: PaymentAnswer): Promise<void> {
      await deps.fulfil(order, answer);
    },
  };
}

/** The activities' types, for `proxyActivities` in the workflow. */
export type PaymentActivities = ReturnType<typeof createPaymentActivities>;
