import * as core from 'zod/v4/core';
import type { WalletEndpoint } from '../error-codes.js';
import { WalletRequestValidationError, WalletResponseValidationError } from '../errors.js';
import { fastParse, UNDECIDED } from './fast-parse.js';
import { toWalletIssues } from './issues.js';

/** Checks an outgoing value; a failure is a `WalletRequestValidationError` and nothing is sent. */
export function validateRequest<S extends core.$ZodType>(
  schema: S,
  value: unknown,
  subject: string,
): core.output<S> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (schema instanceof core.$ZodObject) {
      throw new WalletRequestValidationError([{ path: '', message: `${subject} must be an object` }]);
    }
  }
  const result = safeParse(schema, value);
  if (!result.success) {
    // A single value (an id) is named by its subject, so the issue says which field it is.
    const named = schema instanceof core.$ZodObject ? '' : subject;
    const issues = toWalletIssues(result.error.issues).map((issue) =>
      issue.path === '' ? { ...issue, path: named } : issue,
    );
    throw new WalletRequestValidationError(issues, `Invalid ${subject}`);
  }
  return result.data;
}

/** Checks a 2xx response body against its documented shape, keeping unknown fields. */
export function validateResponse<S extends core.$ZodType>(
  schema: S,
  body: unknown,
  endpoint: WalletEndpoint,
  status: number,
): core.output<S> {
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
 * zod's `safeParse`, with the offending input reported in each issue. Valid values, the hot path of every
 * call, parse without options (zod copies an options object on every parse); only a failure parses
 * again to report its input.
 */
function safeParse<S extends core.$ZodType>(schema: S, value: unknown) {
  const fast = fastParse(schema, value);
  if (fast !== UNDECIDED) return { success: true as const, data: fast as core.output<S> };
  const result = core.safeParse(schema, value);
  return result.success ? result : core.safeParse(schema, value, { reportInput: true });
}
