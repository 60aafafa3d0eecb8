import { WalletConfigError } from '../errors.js';
import type { PaymentJournal } from '../journal/types.js';
import { MAX_TIMER_MS } from '../limits.js';
import type { WalletLogger } from '../logger.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import type { Transport } from '../transport/attempt.js';
import { defaultBackoff } from '../transport/backoff.js';
import { fetchTransport } from '../transport/fetch-transport.js';
import { nodeTransport } from '../transport/node-transport.js';
import type { TransportConfig } from '../transport/send.js';

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
   * Allows a plain `http:` `baseUrl` (or `WALLET_BASE_URL`) to a host other than this machine,
   * such as `http://sandbox:4010` in a docker-compose network. The API key then crosses that
   * network in clear text, so keep it to test set-ups; loopback hosts need no opt-in.
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
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
  /** Extra headers sent with every request. `x-api-key`, `authorization` and `content-type` are the client's own. */
  headers?: Record<string, string> | undefined;
  /** Receives debug and retry notices; never receives secrets. */
  logger?: WalletLogger | undefined;
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
  allowInsecureHttp: true,
  timeoutMs: true,
  maxRetries: true,
  fetch: true,
  headers: true,
  logger: true,
  journal: true,
};

const RESERVED_HEADERS = new Set(['x-api-key', 'authorization', 'content-type']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Credentials: visible ASCII, no spaces, so they fit a header and cannot split it. */
export const CREDENTIAL = /^[\x21-\x7e]+$/;

/** Checks the options, applies the defaults and environment fallbacks, and freezes the result. */
export function resolveOptions(options: WalletClientOptions): TransportConfig {
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
    baseUrl: resolveBaseUrl(options.baseUrl, options.allowInsecureHttp),
    timeoutMs: resolveNumber('timeoutMs', options.timeoutMs, 30_000, 1, MAX_TIMER_MS),
    maxRetries: resolveNumber('maxRetries', options.maxRetries, 2, 0, 10, true),
    headers: resolveHeaders(options.headers),
    backoff: defaultBackoff,
    transport: resolveTransport(resolveFunction('fetch', options.fetch)),
    logger: resolveLogger(options.logger),
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

function resolveBaseUrl(option: unknown, allowInsecureHttp: unknown): URL {
  const baseUrl = option ?? readEnv('WALLET_BASE_URL');
  if (allowInsecureHttp !== undefined && typeof allowInsecureHttp !== 'boolean') {
    throw new WalletConfigError('allowInsecureHttp', 'must be true or false');
  }
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
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && allowInsecureHttp !== true) {
    throw new WalletConfigError(
      'baseUrl',
      `must use https${option === undefined ? ' (it came from WALLET_BASE_URL)' : ''}: plain http is allowed to loopback hosts, or to others with allowInsecureHttp: true`,
    );
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

function resolveHeaders(headers: unknown): Readonly<Record<string, string>> {
  if (headers === undefined) return {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new WalletConfigError('headers', 'must be an object of header names to string values');
  }
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw new WalletConfigError(`headers.${name}`, 'is not a valid header name');
    if (RESERVED_HEADERS.has(lower))
      throw new WalletConfigError(`headers.${name}`, 'is set by the client itself');
    if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      throw new WalletConfigError(`headers.${name}`, 'must be a string without line breaks');
    }
    resolved[lower] = value;
  }
  return Object.freeze(resolved);
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
