import { WalletError, WalletOutcomeUnknownError, WalletRequestValidationError } from '../errors.js';
import { isAlreadyApplied, isBusinessRefusal } from '../journal/outcome.js';
import type { DepositResult, WithdrawResult } from '../schemas/responses.js';

/**
 * The definite answer of {@link WalletClient.resolveOutcome}: the payment is applied, exactly once.
 * `alreadyApplied` says whether an earlier send applied it (`result` is then unknown: the service
 * returns no transaction id for a used reference) or this re-send did.
 */
export type OutcomeResolution =
  | {
      /** The payment is applied. */
      readonly applied: true;
      /** This re-send applied it. */
      readonly alreadyApplied: false;
      /** The service's answer to the re-send. */
      readonly result: DepositResult | WithdrawResult;
    }
  | {
      /** The payment is applied. */
      readonly applied: true;
      /** An earlier send applied it: the service answered `reference_already_used`. */
      readonly alreadyApplied: true;
      /** Not known: for deposits the transaction webhook, matched by `reference_id`, carries the id. */
      readonly result: undefined;
    };

/** Re-sends a body to its endpoint under the reference id of the payment it settles, which the body must carry. */
export type Resend = (
  endpoint: 'deposit' | 'withdraw',
  body: Readonly<Record<string, unknown>>,
  referenceId: string | undefined,
) => Promise<DepositResult | WithdrawResult>;

/**
 * The endpoint, reference id and body of an unknown outcome, or a validation error naming `error`;
 * also when the error is the payment of another merchant than `merchant`.
 */
export function unknownPayment(error: unknown, merchant: string) {
  if (!(error instanceof WalletOutcomeUnknownError)) {
    throw new WalletRequestValidationError([
      { path: 'error', message: 'must be a WalletOutcomeUnknownError' },
    ]);
  }
  if (error.merchant !== undefined && error.merchant !== merchant) {
    throw new WalletRequestValidationError([
      {
        path: 'error.merchant',
        message: `is ${error.merchant}, another merchant than this client's ${merchant}: resolve it through the client that sent it, or it would be paid under this merchant too`,
      },
    ]);
  }
  const { endpoint, body, referenceId } = error;
  if ((endpoint !== 'deposit' && endpoint !== 'withdraw') || body === undefined) {
    throw new WalletRequestValidationError([
      { path: 'error', message: 'must come from a deposit or withdrawal and carry its body' },
    ]);
  }
  return { endpoint, body, referenceId, merchant };
}

/**
 * The decision table of docs/certainty.md: the answer to a re-send of the same body under the same
 * reference id is the answer about the original.
 */
export async function resolveUnknown(
  payment: ReturnType<typeof unknownPayment>,
  resend: Resend,
): Promise<OutcomeResolution> {
  try {
    return {
      applied: true,
      alreadyApplied: false,
      result: await resend(payment.endpoint, payment.body, payment.referenceId),
    };
  } catch (error) {
    if (isAlreadyApplied(error)) return { applied: true, alreadyApplied: true, result: undefined };
    if (isBusinessRefusal(error) || error instanceof WalletOutcomeUnknownError) throw error;
    if (error instanceof WalletRequestValidationError) throw error;
    // The re-send got no answer about the payment (it never arrived, was refused on credentials or by
    // a gateway without a business code).
    const unknown = new WalletOutcomeUnknownError({
      endpoint: payment.endpoint,
      referenceId: payment.referenceId,
      attempts: 0,
      reason: `re-sending it got no answer about the payment (${error instanceof WalletError ? error.name : 'failure'})`,
      cause: error,
      body: payment.body,
    });
    unknown.merchant = payment.merchant;
    throw unknown;
  }
}
