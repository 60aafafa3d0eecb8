import * as z from 'zod/mini';
import { isHttpUrl } from '../limits.js';

/** The three documented values of `transaction_status`. */
export const TransactionStatus = z.enum({
  /** Not final yet: a provider deposit waiting for the user or the provider. */
  pending: 'pending',
  /** Final: the money moved. */
  completed: 'completed',
  /** Final: the money did not move; `failure_reason` says why. */
  failed: 'failed',
} as const);
/** `'pending' | 'completed' | 'failed'`. */
export type TransactionStatus = z.infer<typeof TransactionStatus>;

/** A string that is not empty and not only whitespace. */
export function nonBlankString(what: string) {
  return z
    .string({ error: `must be a string (${what})` })
    .check(z.refine((value) => value.trim().length > 0, { error: `must not be empty (${what})` }));
}

/** Amounts: a finite number greater than zero. */
export const Amount = z
  .number({ error: 'must be a finite number' })
  .check(z.positive({ error: 'must be greater than zero' }));

/** A currency code: letters and digits only, 1 to 16 characters (e.g. `KES`). */
export const CurrencyCode = z
  .string({ error: 'must be a string currency code such as "KES"' })
  .check(
    z.regex(/^[A-Za-z0-9]{1,16}$/, { error: 'must be a currency code of letters or digits such as "KES"' }),
  );

/** An absolute http(s) URL. */
export const HttpUrl = z.string({ error: 'must be a string URL' }).check(
  z.refine((value) => isHttpUrl(value), {
    error: 'must be an absolute http(s) URL',
  }),
);

/** An e-mail address. */
export const EmailAddress = z.email({ error: 'must be a valid e-mail address' });
