import { fail, type Outcome, PROVIDER_NAME_PATTERN } from '../model/context.js';
import { amountToCents } from '../model/money.js';
import type { SandboxState } from '../model/state.js';

/** The fields deposits and withdrawals share, once checked. @internal */
export interface MoneyFields {
  cents: number;
  currency: string;
  provider: string | undefined;
  description: string | undefined;
}

/**
 * Checks `amount`, `currency`, `payment_provider` and `description` in that
 * order, giving the first failure.
 */
export function readMoneyFields(state: SandboxState, body: Record<string, unknown>): MoneyFields | Outcome {
  const cents = amountToCents(body.amount);
  if (cents === undefined) return fail('invalid_amount');
  const { currency, payment_provider: provider, description } = body;
  if (typeof currency !== 'string' || !state.currencies.has(currency)) return fail('invalid_currency');
  if (provider !== undefined && (typeof provider !== 'string' || !PROVIDER_NAME_PATTERN.test(provider))) {
    return fail('invalid_provider_name');
  }
  if (description !== undefined && typeof description !== 'string') return fail('invalid_request');
  return { cents, currency, provider, description };
}

/** Whether {@link readMoneyFields} gave a failure. */
export function isOutcome(value: MoneyFields | Outcome): value is Outcome {
  return 'ok' in value;
}

/** A reference id must be a non-blank string when present. */
export function isValidReference(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
