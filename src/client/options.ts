import { WalletConfigError, type WalletIssue } from '../errors.js';
import type { PaymentJournal } from '../journal/types.js';
import { MAX_RETRIES, MAX_TIMER_MS } from '../limits.js';
import type { WalletLogger } from '../logger.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import type { Transport } from '../transport/attempt.js';
import { defaultBackoff } from '../transport/backoff.js';
import { fetchTransport } from '../transport/fetch-transport.js';
import { nodeTransport } from '../transport/node-transport.js';
import type { TransportConfig } from '../transport/send.js';
import { defaultUserAgent } from '../transport/user-agent.js';
import { checkHeaders } from './headers.js';
import { isLogLevel, levelledLogger, type WalletLogLevel } from './log-level.js';

/** Options of {@link WalletClient}. */
export interface WalletClientOptions {
  /**
   * The merchant API key, sent as `x-api-key`.
   * @default process.env.WALLET_API_KEY
   */
  apiKey?: string | undefined;
  /**
   * The API base address, e.g. `https://api.example.com`. Must be https unless the host is loopback.
   * @default process.env.WALLET_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * Time limit of each attempt, response body included, in milliseconds.
   * @default 30_000
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after the first attempt for transient failures (network errors, timeouts, 408, 425, 429, 5xx).
   * @default 2
   */
  maxRetries?: number | undefined;
  /** A `fetch` implementation to use instead of the global one. */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Extra headers sent with every request, e.g. a `user-agent` of your own (the default is
   * `merchant-wallet/<version> <runtime>/<version>`). The client's own headers are refused with a
   * `WalletConfigError` naming them: `x-api-key`, `authorization`, `content-type`, and the framing
   * headers `content-length`, `transfer-encoding`, `host` and `connection`, in any case.
   * @example { 'user-agent': 'shop-backend/4.2' }
   */
  headers?: Record<string, string> | undefined;
  /**
   * Receives the client's log lines (each attempt at `debug` with its status, duration, attempt and
   * request id; retries at `warn`); never receives secrets. `console` fits.
   * @default none, or `console` when `logLevel` or `WALLET_LOG` is set
   */
  logger?: WalletLogger | undefined;
  /**
   * The least severe level passed to `logger`; `'off'` silences it.
   * @default process.env.WALLET_LOG, else 'warn'
   */
  logLevel?: WalletLogLevel | undefined;
  /**
   * Where each deposit and withdrawal is recorded before it is sent and its outcome after, so
   * `recover()` can resolve what a crash left open. See docs/certainty.md.
   */
  journal?: PaymentJournal | undefined;
}

/** Every option of {@link WalletClientOptions}: adding an option is one line here plus its check. */
const CLIENT_OPTION_KEYS: OptionKeys<WalletClientOptions> = {
  apiKey: true,
  baseUrl: true,
  timeoutMs: true,
  maxRetries: true,
  fetch: true,
  headers: true,
  logger: true,
  logLevel: true,
  journal: true,
};

/** Credentials: visible ASCII, no spaces, so they fit a header and cannot split it. */
export const CREDENTIAL = /^[\x21-\x7e]+$/;

/** The options that choose the transport: a client made by `withOptions` keeps its parent's. */
const TRANSPORT_OPTIONS = ['fetch'] as const;

/** Options `withOptions` can change: all but those that choose the transport. */
export type SharedClientOptions = Omit<WalletClientOptions, (typeof TRANSPORT_OPTIONS)[number]>;

/** Refuses a `withOptions` argument that is not an object or would change the transport. */
export function checkSharedOptions(options: SharedClientOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new WalletConfigError('options', 'must be an object');
  }
  for (const key of TRANSPORT_OPTIONS) {
    if (Object.hasOwn(options, key)) {
      throw new WalletConfigError(
        key,
        'cannot be changed by withOptions, which shares the transport; create a new WalletClient',
      );
    }
  }
}

/**
 * Checks the options, applies the defaults and environment fallbacks, and freezes the result.
 * An `inherited` transport (from `withOptions`) is used as it is.
 */
export function resolveOptions(options: WalletClientOptions, inherited?: Transport): TransportConfig {
  if (typeof options !== 'object' || options === null) {
    throw new WalletConfigError('options', 'must be an object');
  }
  const unknown = unknownOptionKeys(options, CLIENT_OPTION_KEYS);
  if (unknown.length > 0) {
    throw new WalletConfigError(
      unknown.join(', '),
      `not an option of WalletClient (${unknown.length === 1 ? 'is' : 'are'} unknown)`,
    );
  }
  return {
    apiKey: resolveApiKey(options.apiKey ?? readEnv('WALLET_API_KEY')),
    baseUrl: resolveBaseUrl(options.baseUrl ?? readEnv('WALLET_BASE_URL')),
    timeoutMs: resolveNumber('timeoutMs', options.timeoutMs, 30_000, 1, MAX_TIMER_MS),
    maxRetries: resolveNumber('maxRetries', options.maxRetries, 2, 0, MAX_RETRIES, true),
    headers: resolveHeaders(options.headers),
    backoff: defaultBackoff,
    transport: inherited ?? resolveTransport(resolveFunction('fetch', options.fetch)),
    logger: levelledLogger(resolveLogger(options.logger), resolveLogLevel(options.logLevel)),
  };
}

function readEnv(name: string): string | undefined {
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
}

function resolveApiKey(apiKey: unknown): string {
  if (apiKey === undefined || apiKey === '') {
    throw new WalletConfigError('apiKey', 'is required: pass it or set WALLET_API_KEY');
  }
  if (typeof apiKey !== 'string')
    throw new WalletConfigError('apiKey', `must be a string, got ${typeof apiKey}`);
  if (!CREDENTIAL.test(apiKey)) {
    throw new WalletConfigError('apiKey', 'must be visible ASCII characters with no spaces or line breaks');
  }
  return apiKey;
}

/** Hosts allowed over plain http: this machine only. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function resolveBaseUrl(baseUrl: unknown): URL {
  if (baseUrl === undefined || baseUrl === '') {
    throw new WalletConfigError('baseUrl', 'is required: pass it or set WALLET_BASE_URL');
  }
  if (typeof baseUrl !== 'string')
    throw new WalletConfigError('baseUrl', `must be a string, got ${typeof baseUrl}`);
  if (!URL.canParse(baseUrl))
    throw new WalletConfigError('baseUrl', 'must be an absolute URL such as https://api.example.com');
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new WalletConfigError('baseUrl', `must use https, not ${url.protocol}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new WalletConfigError('baseUrl', 'must use https (plain http is allowed only for loopback hosts)');
  }
  if (url.username || url.password) throw new WalletConfigError('baseUrl', 'must not contain credentials');
  if (url.search || url.hash) throw new WalletConfigError('baseUrl', 'must not contain a query or fragment');
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function resolveNumber(
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
  if (!valid) {
    throw new WalletConfigError(
      option,
      `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
    );
  }
  return value;
}

/** The `headers` option over the default `user-agent`, which it may replace. */
function resolveHeaders(headers: unknown): Readonly<Record<string, string>> {
  const issues: WalletIssue[] = [];
  const checked = checkHeaders(headers, 'headers', issues);
  const [first] = issues;
  if (first) throw new WalletConfigError(first.path, first.message);
  return Object.freeze(USER_AGENT === undefined ? checked : { 'user-agent': USER_AGENT, ...checked });
}

const USER_AGENT = defaultUserAgent();

function resolveLogLevel(level: unknown): WalletLogLevel | undefined {
  const wanted = level ?? (readEnv('WALLET_LOG') || undefined);
  if (wanted === undefined || isLogLevel(wanted)) return wanted;
  const source = level === undefined ? 'WALLET_LOG' : 'logLevel';
  throw new WalletConfigError('logLevel', `${source} must be one of 'debug', 'info', 'warn', 'error', 'off'`);
}

function resolveFunction<T>(option: string, value: T | undefined): T | undefined {
  if (value === undefined || typeof value === 'function') return value;
  throw new WalletConfigError(option, 'must be a function');
}

/** A given `fetch` is always honoured; otherwise Node gets its faster native transport. */
function resolveTransport(fetch: typeof globalThis.fetch | undefined): Transport {
  return (fetch === undefined ? nodeTransport() : undefined) ?? fetchTransport(fetch);
}

function resolveLogger(logger: unknown): WalletLogger | undefined {
  if (logger === undefined) return undefined;
  if (typeof logger !== 'object' || logger === null)
    throw new WalletConfigError('logger', 'must be an object');
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    const method = (logger as Record<string, unknown>)[level];
    if (method !== undefined && typeof method !== 'function') {
      throw new WalletConfigError(`logger.${level}`, 'must be a function');
    }
  }
  return logger as WalletLogger;
}

const JOURNAL_METHODS = ['record', 'update', 'updateByTransactionId', 'get', 'list'] as const;

/** The `journal` option, checked to have every method of a {@link PaymentJournal}. */
export function resolveJournal(journal: unknown): PaymentJournal | undefined {
  if (journal === undefined) return undefined;
  if (typeof journal !== 'object' || journal === null)
    throw new WalletConfigError('journal', 'must be an object');
  for (const method of JOURNAL_METHODS) {
    if (typeof (journal as Record<string, unknown>)[method] !== 'function') {
      throw new WalletConfigError(`journal.${method}`, 'must be a function');
    }
  }
  return journal as PaymentJournal;
}
