import { WalletOutcomeUnknownError } from '../errors.js';

/** Marks an error with the merchant whose payment it is, so no other merchant's client re-sends it. */
export function stampMerchant(error: unknown, merchant: string): void {
  if (error instanceof WalletOutcomeUnknownError) error.merchant = merchant;
}
