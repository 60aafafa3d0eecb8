import { WalletRequestValidationError } from '../errors.js';
import { checkId } from './checks.js';
import { OPEN_STATES, type PaymentIntent, type PaymentJournal } from './types.js';

function fail(path: string, message: string): never {
  throw new WalletRequestValidationError([{ path, message }], 'Invalid closeIntent() call');
}

/**
 * Closes an open intent (`sending` or `unknown`) that you settled by other means, say after
 * finding the payment in the service's statement, or after deciding with the customer that it is
 * void. The intent goes to `closed` with your `reason` kept, and `wallet.recover()` never sends it.
 * The check and the change are one atomic step on the store: an intent that a re-send settled in
 * the meantime is refused, not overwritten.
 *
 * @returns The closed intent.
 * @throws {WalletRequestValidationError} when there is no such intent, it is not open, or `reason` is empty.
 * @example
 * await closeIntent(journal, 'order-1042', 'refunded by hand, ticket 5521');
 */
export async function closeIntent(
  journal: PaymentJournal,
  referenceId: string,
  reason: string,
): Promise<PaymentIntent> {
  checkId('referenceId', referenceId);
  if (typeof reason !== 'string' || reason.trim().length === 0) fail('reason', 'must be a non-empty string');
  const after = await journal.update(referenceId, { state: 'closed', reason, ifState: OPEN_STATES });
  if (after === undefined) fail('referenceId', `no intent has reference_id "${referenceId}"`);
  if (after.state !== 'closed' || after.reason !== reason) {
    fail(
      'referenceId',
      `the intent of "${referenceId}" is ${after.state}, not open: only sending or unknown intents can be closed`,
    );
  }
  return after;
}
