import * as z from 'zod/mini';
import type { WalletEndpoint } from '../error-codes.js';
import { WalletRequestValidationError, WalletResponseValidationError } from '../errors.js';
import { toWalletIssues } from './issues.js';

/** Checks an outgoing value; a failure is a `WalletRequestValidationError` and nothing is sent. */
export function validateRequest<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  subject: string,
): z.infer<S> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (schema instanceof z.ZodMiniObject) {
      throw new WalletRequestValidationError([{ path: '', message: `${subject} must be an object` }]);
    }
  }
  const result = safeParse(schema, value);
  if (!result.success) {
    throw new WalletRequestValidationError(toWalletIssues(result.error.issues), `Invalid ${subject}`);
  }
  return result.data;
}

/** Checks a 2xx response body against its documented shape, keeping unknown fields. */
export function validateResponse<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  endpoint: WalletEndpoint,
  status: number,
): z.infer<S> {
  const result = safeParse(schema, body);
  if (!result.success) {
    throw new WalletResponseValidationError({
      issues: toWalletIssues(result.error.issues),
      endpoint,
      status,
      body,
    });
  }
  return result.data;
}

/**
 * `z.safeParse`, with the offending input reported in each issue. Valid values, the hot path of every
 * call, parse without options (zod copies an options object on every parse); only a failure parses
 * again to report its input.
 */
function safeParse<S extends z.ZodMiniType>(schema: S, value: unknown) {
  const result = z.safeParse(schema, value);
  return result.success ? result : z.safeParse(schema, value, { reportInput: true });
}
