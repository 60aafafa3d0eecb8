import { expectStatusOf } from '../schemas/answer-match.js';
import { TransactionId } from '../schemas/requests.js';
import { ProviderList, TransactionResult } from '../schemas/responses.js';
import { validateRequest, validateResponse } from '../schemas/validate.js';
import { path } from '../transport/path.js';
import type { CallSpec } from '../transport/send.js';

/**
 * The status call for `transactionId`, whose answer must be about that transaction.
 * @throws {WalletRequestValidationError} for a bad transaction id.
 */
export function statusCall(transactionId: string): CallSpec<TransactionResult> {
  const id = validateRequest(TransactionId, transactionId, 'transaction_id');
  return {
    endpoint: 'status',
    validate: (body, status) =>
      expectStatusOf(id, validateResponse(TransactionResult, body, 'status', status), status),
    method: 'GET',
    path: path`merchants/transactions/status/${{ transaction_id: id }}`,
  };
}

/** The providers call for the user of `userToken`. */
export function providersCall(userToken: string): CallSpec<ProviderList> {
  return {
    endpoint: 'providers',
    validate: (body, status) => validateResponse(ProviderList, body, 'providers', status),
    method: 'GET',
    path: 'merchants/accounts/providers',
    userToken,
  };
}
