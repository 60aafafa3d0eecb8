import type { WalletIssue } from '../errors.js';
import { defaultUserAgent } from '../transport/user-agent.js';

/**
 * Header names the caller may not set, in lower case. The credentials are the client's own; the
 * framing headers decide where one request ends on a kept-alive socket, so a wrong value would cut
 * the body or smuggle a second request, and `host` would send the call to another virtual host.
 * `accept-encoding` is the Node transport's promise of the encodings it decodes: another value
 * would make answers unreadable.
 */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'x-api-key',
  'authorization',
  'content-type',
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'accept-encoding',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Checks a `headers` option (the client's, or one call's) and returns it with lower-case names.
 * Each problem is added to `issues` under `path` (`headers.Host`, `options.headers.Host`), so the
 * client option and the per-call one refuse exactly the same names.
 */
export function checkHeaders(headers: unknown, path: string, issues: WalletIssue[]): Record<string, string> {
  const checked: Record<string, string> = {};
  if (headers === undefined) return checked;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    issues.push({ path, message: 'must be an object of header names to string values' });
    return checked;
  }
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const field = `${path}.${name}`;
    if (!HEADER_NAME.test(name)) issues.push({ path: field, message: 'is not a valid header name' });
    else if (RESERVED_HEADERS.has(lower)) {
      issues.push({ path: field, message: 'is set by the client itself' });
    } else if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      issues.push({ path: field, message: 'must be a string without line breaks' });
    } else checked[lower] = value;
  }
  return checked;
}

const USER_AGENT = defaultUserAgent();

/** The client's `headers` option over the default `user-agent`, which it may replace; frozen. */
export function clientHeaders(headers: unknown, issues: WalletIssue[]): Readonly<Record<string, string>> {
  const checked = checkHeaders(headers, 'headers', issues);
  return Object.freeze(USER_AGENT === undefined ? checked : { 'user-agent': USER_AGENT, ...checked });
}
