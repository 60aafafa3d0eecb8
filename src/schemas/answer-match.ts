import type * as core from 'zod/v4/core';
import type { WalletEndpoint } from '../error-codes.js';
import { type WalletIssue, WalletResponseValidationError } from '../errors.js';
import { amountsMatch, sameCurrency } from '../limits.js';
import { validateResponse } from './validate.js';

/** What a deposit or withdrawal sent that its answer must repeat. */
interface SentPayment {
  readonly reference_id: string;
  readonly amount: number;
  readonly currency: string;
}

/** The fields of a deposit or withdrawal answer that say which payment it is about. */
interface AnsweredPayment {
  readonly reference_id?: string | undefined;
  readonly amount: number;
  readonly currency: string;
}

/**
 * Returns `answer` when it is about the payment `sent`; otherwise throws a
 * `WalletResponseValidationError` naming every field that differs. A caching or mis-routing proxy
 * can hand a request the answer to another one, and taking that for this payment's success could
 * ship an unpaid order. `reference_id` is compared when the answer carries one; amounts numerically.
 */
export function expectAnswerTo<T extends AnsweredPayment>(
  sent: SentPayment,
  answer: T,
  endpoint: WalletEndpoint,
  status: number,
): T {
  const mismatched = [
    answer.reference_id !== undefined && answer.reference_id !== sent.reference_id && 'reference_id',
    !amountsMatch(answer.amount, sent.amount) && 'amount',
    !sameCurrency(answer.currency, sent.currency) && 'currency',
  ].filter((field) => field !== false);
  if (mismatched.length > 0) {
    throw new WalletResponseValidationError({
      issues: mismatched.map(differs),
      endpoint,
      status,
      body: answer,
    });
  }
  return answer;
}

/**
 * The `validate` step of a deposit or withdrawal: the documented shape of `schema`, then
 * {@link expectAnswerTo} the payment `sent`.
 */
export function paymentAnswer<S extends core.$ZodType<AnsweredPayment>>(
  schema: S,
  endpoint: 'deposit' | 'withdraw',
  sent: SentPayment,
): (body: unknown, status: number) => core.output<S> {
  return (body, status) =>
    expectAnswerTo(sent, validateResponse(schema, body, endpoint, status), endpoint, status);
}

/**
 * Returns `answer` when it is the status of `transactionId`; otherwise throws a
 * `WalletResponseValidationError`. The status of another transaction is never this one's: taking
 * it could settle an order on someone else's `completed`. `status` is the HTTP status when known.
 */
export function expectStatusOf<T extends { readonly transaction_id: string }>(
  transactionId: string,
  answer: T,
  status?: number,
): T {
  // A custom reader may resolve with anything; only an answer about this id passes.
  if ((answer as T | null)?.transaction_id === transactionId) return answer;
  const issues = [differs('transaction_id')];
  throw new WalletResponseValidationError(
    status === undefined
      ? { issues, subject: 'Unexpected status answer', body: answer }
      : { issues, endpoint: 'status', status, body: answer },
  );
}

function differs(path: string): WalletIssue {
  return { path, message: 'does not match the request' };
}
