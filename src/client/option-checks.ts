/** One check per client option: each adds its problems to `issues` and returns the value or `undefined`. */
import type { WalletIssue } from '../errors.js';
import type { PaymentJournal } from '../journal/types.js';
import { CREDENTIAL } from '../limits.js';
import type { WalletLogger } from '../logger.js';

/** An environment variable where the runtime has `process.env` (never throws, e.g. under Deno without --allow-env). */
export function readEnv(name: string): string | undefined {
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
}

/** Notes a problem with one option; returns `undefined` so a check can end with `return refuse(...)`. */
export function refuse(issues: WalletIssue[], path: string, message: string): undefined {
  issues.push({ path, message });
  return undefined;
}

/** The `apiKey` option, or `WALLET_API_KEY`: required, and safe to put in a header. */
export function resolveApiKey(issues: WalletIssue[], apiKey: unknown): string | undefined {
  if (apiKey === undefined || apiKey === '') {
    return refuse(issues, 'apiKey', 'is required: pass it or set WALLET_API_KEY');
  }
  if (typeof apiKey !== 'string') return refuse(issues, 'apiKey', `must be a string, got ${typeof apiKey}`);
  if (!CREDENTIAL.test(apiKey)) {
    return refuse(issues, 'apiKey', 'must be visible ASCII characters with no spaces or line breaks');
  }
  return apiKey;
}

/** Hosts allowed over plain http: this machine only. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export function resolveBaseUrl(
  issues: WalletIssue[],
  option: unknown,
  allowInsecureHttp: unknown,
): URL | undefined {
  const baseUrl = option ?? readEnv('WALLET_BASE_URL');
  if (allowInsecureHttp !== undefined && typeof allowInsecureHttp !== 'boolean') {
    refuse(issues, 'allowInsecureHttp', 'must be true or false');
  }
  if (baseUrl === undefined || baseUrl === '') {
    return refuse(issues, 'baseUrl', 'is required: pass it or set WALLET_BASE_URL');
  }
  if (typeof baseUrl !== 'string')
    return refuse(issues, 'baseUrl', `must be a string, got ${typeof baseUrl}`);
  if (!URL.canParse(baseUrl)) {
    return refuse(issues, 'baseUrl', 'must be an absolute URL such as https://api.example.com');
  }
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(issues, 'baseUrl', `must use https, not ${url.protocol}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && allowInsecureHttp !== true) {
    const source = option === undefined ? ' (it came from WALLET_BASE_URL)' : '';
    return refuse(
      issues,
      'baseUrl',
      `must use https${source}: plain http is allowed to loopback hosts, or to others with allowInsecureHttp: true`,
    );
  }
  if (url.username || url.password) return refuse(issues, 'baseUrl', 'must not contain credentials');
  if (url.search || url.hash) return refuse(issues, 'baseUrl', 'must not contain a query or fragment');
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** A number option, or its default when absent (or when it is refused, since nothing is built then). */
export function resolveNumber(
  issues: WalletIssue[],
  option: string,
  value: unknown,
  fallback: number,
  min: number,
  max: number,
  integer = false,
): number {
  if (value === undefined) return fallback;
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= min &&
    value <= max &&
    (!integer || Number.isInteger(value));
  if (valid) return value;
  refuse(issues, option, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  return fallback;
}

export function resolveFunction<T>(
  issues: WalletIssue[],
  option: string,
  value: T | undefined,
): T | undefined {
  if (value === undefined || typeof value === 'function') return value;
  return refuse(issues, option, 'must be a function');
}

/** An object whose listed members, when present (or always, if `required`), are functions. */
export function resolveMethods<T>(
  issues: WalletIssue[],
  option: string,
  value: unknown,
  methods: readonly string[],
  required: boolean,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) return refuse(issues, option, 'must be an object');
  const before = issues.length;
  for (const method of methods) {
    const member = (value as Record<string, unknown>)[method];
    if ((required || member !== undefined) && typeof member !== 'function') {
      refuse(issues, `${option}.${method}`, 'must be a function');
    }
  }
  return issues.length === before ? (value as T) : undefined;
}

const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const;
const JOURNAL_METHODS = ['record', 'update', 'updateByTransactionId', 'get', 'list'] as const;

/** The `logger` option: any of its methods may be absent, but those present are functions. */
export function resolveLogger(issues: WalletIssue[], logger: unknown): WalletLogger | undefined {
  return resolveMethods<WalletLogger>(issues, 'logger', logger, LOGGER_METHODS, false);
}

/** The methods a {@link PaymentJournal} may leave out: each one present must be a function. */
const OPTIONAL_JOURNAL_METHODS = [
  'claimSettlement',
  'completeSettlement',
  'settleInTransaction',
  'claimDue',
  'releaseDue',
  'releaseDueWith',
  'renewSending',
  'now',
] as const;

/**
 * The `journal` option, checked to have every method of a {@link PaymentJournal}, and each optional
 * one it has to be a function: a journal's method is called from timers and the sweeper, where a
 * value that is not one would only fail later.
 */
export function resolveJournal(issues: WalletIssue[], journal: unknown): PaymentJournal | undefined {
  const whole = resolveMethods<PaymentJournal>(issues, 'journal', journal, JOURNAL_METHODS, true);
  return whole && resolveMethods<PaymentJournal>(issues, 'journal', whole, OPTIONAL_JOURNAL_METHODS, false);
}
