import { WalletRequestValidationError } from '../errors.js';

/**
 * Builds a request path, percent-encoding every interpolated value so an id
 * such as `../x`, `a/b`, `?x` or `%2F` can never change which path is requested.
 * `.` and `..` are refused outright: URL parsers resolve them even when encoded.
 */
export function path(strings: TemplateStringsArray, ...values: readonly string[]): string {
  return strings.reduce((built, part, index) => {
    if (index === 0) return part;
    const value = values[index - 1] ?? '';
    if (value === '.' || value === '..') {
      throw new WalletRequestValidationError([{ path: 'transaction_id', message: `must not be "${value}"` }]);
    }
    return built + encodeURIComponent(value) + part;
  }, '');
}
