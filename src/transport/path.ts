import { WalletRequestValidationError } from '../errors.js';
import { hasLoneSurrogate } from '../limits.js';

/**
 * Builds a request path, percent-encoding every interpolated value so an id
 * such as `../x`, `a/b`, `?x` or `%2F` can never change which path is requested.
 * Each value is given as `{ field: value }` so a refusal names the field:
 * `.` and `..` (URL parsers resolve them even when encoded) and strings with a
 * lone surrogate are a `WalletRequestValidationError`, never a bare `URIError`:
 * ``path`merchants/transactions/status/${{ transaction_id: id }}` ``.
 */
export function path(strings: TemplateStringsArray, ...values: readonly Record<string, string>[]): string {
  let built = strings[0] ?? '';
  for (let index = 0; index < values.length; index++) {
    const named = values[index] as Record<string, string>;
    for (const field of Object.keys(named)) built += encodedSegment(field, named[field] ?? '');
    built += strings[index + 1] ?? '';
  }
  return built;
}

function encodedSegment(field: string, value: string): string {
  if (value === '.' || value === '..') {
    throw new WalletRequestValidationError([{ path: field, message: `must not be "${value}"` }]);
  }
  if (hasLoneSurrogate(value)) {
    throw new WalletRequestValidationError([
      { path: field, message: 'must not contain a lone UTF-16 surrogate (it has no UTF-8 form)' },
    ]);
  }
  return encodeURIComponent(value);
}
