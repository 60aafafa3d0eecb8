import type { z } from 'zod/mini';
import type { WalletIssue } from '../errors.js';

/** Turns zod's issues into the SDK's, naming each field by its dotted path. */
export function toWalletIssues(issues: readonly z.core.$ZodIssue[]): WalletIssue[] {
  return issues.flatMap((issue): WalletIssue[] => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: path ? `${path}.${key}` : key,
        message: 'is not a documented field',
      }));
    }
    // Parsed with `reportInput`, a missing field is an issue whose input is undefined.
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) {
      return [{ path, message: 'is required' }];
    }
    if (issue.code === 'invalid_type' && issue.message === 'Invalid input') {
      return [{ path, message: `must be of type ${issue.expected}` }];
    }
    if (issue.code === 'invalid_value') {
      return [{ path, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` }];
    }
    return [
      { path, message: issue.message === 'Invalid input' ? `is invalid (${issue.code})` : issue.message },
    ];
  });
}
