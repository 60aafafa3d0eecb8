import type { $ZodIssue } from 'zod/v4/core';
import type { WalletIssue } from '../errors.js';

/** Turns zod's issues into the SDK's, naming each field by its dotted path. */
export function toWalletIssues(issues: readonly $ZodIssue[]): WalletIssue[] {
  return issues.flatMap((issue): WalletIssue[] => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: path ? `${path}.${key}` : key,
        message: 'is not a documented field',
      }));
    }
    // Parsed with `reportInput`, a missing field is an issue whose input is undefined.
    if (issue.input === undefined) return [{ path, message: 'is required' }];
    // Objects and arrays are zod's own schemas, which leave the message to a locale the SDK does not load.
    if (issue.code === 'invalid_type' && issue.message === 'Invalid input') {
      return [{ path, message: `must be of type ${issue.expected}` }];
    }
    // Every other issue comes from a field's own check, which sets its message.
    return [{ path, message: issue.message }];
  });
}
