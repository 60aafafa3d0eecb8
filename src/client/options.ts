import { WalletConfigError } from '../errors.js';
import type { PaymentJournal } from '../journal/types.js';
import { MAX_TIMER_MS } from '../limits.js';
import type { WalletLogger } from '../logger.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import type { Transport } from '../transport/attempt.js';
import { defaultBackoff } from '../transport/backoff.js';
import { fetchTransport } from '../transport/fetch-transport.js';
import type { GivenAgents } from '../transport/node-route.js';
import { nodeRuntime, nodeTransport } from '../transport/node-transport.js';
import type { TransportConfig } from '../transport/send.js';
import { Connections } from './connections.js';

/** A Node `http.Agent` or `https.Agent`, typed by shape so these types need no `@types/node`. */
export interface WalletHttpAgent {
  /** Sockets the agent opens per origin at most. */
  readonly maxSockets: number;
  /** Destroys the agent's sockets. */
  destroy(): void;
}

/** Agents for the Node transport: the one matching the base URL's scheme is used. */
export interface WalletAgents {
  /** Used when the base URL is `http:` (loopback only). */
  http?: WalletHttpAgent | undefined;
  /** Used when the base URL is `https:`: for client certificates (mTLS), custom CAs or a proxy agent. */
  https?: WalletHttpAgent | undefined;
}

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
  /** Extra headers sent with every request. `x-api-key`, `authorization` and `content-type` are the client's own. */
  headers?: Record<string, string> | undefined;
  /** Receives debug and retry notices; never receives secrets. */
  logger?: WalletLogger | undefined;
  /**
   * Where each deposit and withdrawal is recorded before it is sent and its outcome after, so
   * `recover()` can resolve what a crash left open. See docs/certainty.md.
   */
  journal?: PaymentJournal | undefined;
  /**
   * Sockets the client's own keep-alive agent opens to the API at most; calls beyond wait for a free
   * one. Node transport only (ignored on runtimes that use `fetch`, refused together with `fetch`).
   * @default 128
   */
  maxSockets?: number | undefined;
  /**
   * Node `http`/`https` agents to use instead of the client's own, e.g. for client certificates (mTLS)
   * or a custom proxy. The client never destroys a given agent (`close()` leaves it open), and does not
   * apply `HTTPS_PROXY` to it. Node transport only.
   * @example
   * new WalletClient({ agent: { https: new https.Agent({ keepAlive: true, cert, key }) } })
   */
  agent?: WalletAgents | undefined;
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
  journal: true,
  maxSockets: true,
  agent: true,
};

const AGENT_KEYS: OptionKeys<WalletAgents> = { http: true, https: true };

const RESERVED_HEADERS = new Set(['x-api-key', 'authorization', 'content-type']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Credentials: visible ASCII, no spaces, so they fit a header and cannot split it. */
export const CREDENTIAL = /^[\x21-\x7e]+$/;

/** The settings of a client, and the connections it owns. */
export interface ResolvedOptions extends TransportConfig {
  readonly connections: Connections;
}

/** Checks the options, applies the defaults and environment fallbacks, and freezes the result. */
export function resolveOptions(options: WalletClientOptions): ResolvedOptions {
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
  const baseUrl = resolveBaseUrl(options.baseUrl ?? readEnv('WALLET_BASE_URL'));
  return {
    apiKey: resolveApiKey(options.apiKey ?? readEnv('WALLET_API_KEY')),
    baseUrl,
    timeoutMs: resolveNumber('timeoutMs', options.timeoutMs, 30_000, 1, MAX_TIMER_MS),
    maxRetries: resolveNumber('maxRetries', options.maxRetries, 2, 0, 10, true),
    headers: resolveHeaders(options.headers),
    backoff: defaultBackoff,
    logger: resolveLogger(options.logger),
    ...resolveTransport(options, baseUrl),
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

/**
 * A given `fetch` is always honoured; otherwise Node gets its faster native transport on an agent
 * of its own (or the one given).
 */
function resolveTransport(
  options: WalletClientOptions,
  baseUrl: URL,
): { transport: Transport; connections: Connections } {
  const fetch = resolveFunction('fetch', options.fetch);
  const maxSockets = resolveNumber('maxSockets', options.maxSockets, 128, 1, 65_535, true);
  const given = resolveAgents(options.agent);
  for (const [option, value] of [
    ['agent', options.agent],
    ['maxSockets', options.maxSockets],
  ] as const) {
    if (fetch && value !== undefined) {
      throw new WalletConfigError(option, 'applies to the Node transport, not to a given fetch');
    }
  }
  const node = fetch === undefined ? nodeTransport({ baseUrl, maxSockets, given }) : undefined;
  if (node) return { transport: node.transport, connections: new Connections(node.destroy) };
  return { transport: fetchTransport(fetch), connections: new Connections(() => {}) };
}

function resolveAgents(agent: unknown): GivenAgents | undefined {
  if (agent === undefined) return undefined;
  if (typeof agent !== 'object' || agent === null) {
    throw new WalletConfigError('agent', 'must be an object { http?, https? } of Node agents');
  }
  const unknown = unknownOptionKeys(agent, AGENT_KEYS);
  if (unknown.length > 0)
    throw new WalletConfigError(`agent.${unknown[0]}`, 'is unknown (use http or https)');
  const http = nodeRuntime()?.modules.http;
  if (!http) throw new WalletConfigError('agent', "needs Node's http module, which this runtime lacks");
  for (const [scheme, value] of Object.entries(agent)) {
    if (value !== undefined && !(value instanceof http.Agent)) {
      throw new WalletConfigError(`agent.${scheme}`, 'must be an http.Agent or https.Agent');
    }
  }
  return agent as GivenAgents;
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
