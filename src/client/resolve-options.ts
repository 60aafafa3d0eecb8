import { type LinkedVault, VAULT_LINK, type VaultLink } from '../auth/vault-link.js';
import { WalletConfigError, type WalletIssue } from '../errors.js';
import type { PaymentJournal } from '../journal/types.js';
import { MAX_RETRIES, MAX_TIMER_MS } from '../limits.js';
import { unknownOptionKeys } from '../option-keys.js';
import { DEFAULT_SETTLE_LEASE_MS, type Settlement } from '../settlement/settle.js';
import type { Transport } from '../transport/attempt.js';
import { defaultBackoff } from '../transport/backoff.js';
import { fetchTransport } from '../transport/fetch-transport.js';
import { lazyNodeTransport } from '../transport/lazy-node-transport.js';
import type { GivenAgents } from '../transport/node-route.js';
import { nodeRuntime } from '../transport/node-runtime.js';
import type { TransportConfig } from '../transport/send.js';
import { Connections } from './connections.js';
import { clientHeaders } from './headers.js';
import { checkLogLevel, levelledLogger } from './log-level.js';
import {
  readEnv,
  refuse,
  resolveApiKey,
  resolveBaseUrl,
  resolveFunction,
  resolveJournal,
  resolveLogger,
  resolveNumber,
} from './option-checks.js';

import { AGENT_KEYS, CLIENT_OPTION_KEYS, type WalletClientOptions } from './options.js';

/** The checked options: what the transport needs, the payment journal and the connections owned. */
export interface ClientSettings extends TransportConfig {
  readonly journal: PaymentJournal | undefined;
  readonly tokens: VaultLink | undefined;
  readonly settlement: Settlement | undefined;
  readonly connections: Connections;
}

/** What a client made by `withOptions` takes over from its parent. */
export interface SharedTransport {
  readonly transport: Transport;
  readonly connections: Connections;
}

/**
 * Checks the options, applies the defaults and environment fallbacks, and freezes the result.
 * Every check runs before anything is thrown, so one `WalletConfigError` names every bad option.
 * An `inherited` transport and its connections (from `withOptions`) are used as they are.
 */
export function resolveOptions(options: WalletClientOptions, inherited?: SharedTransport): ClientSettings {
  if (typeof options !== 'object' || options === null) {
    throw new WalletConfigError([{ path: 'options', message: 'must be an object' }], INVALID);
  }
  const issues: WalletIssue[] = unknownOptionKeys(options, CLIENT_OPTION_KEYS).map((key) => ({
    path: key,
    message: 'is not an option of WalletClient',
  }));
  const apiKey = resolveApiKey(issues, options.apiKey ?? readEnv('WALLET_API_KEY'));
  const baseUrl = resolveBaseUrl(issues, options.baseUrl, options.allowInsecureHttp);
  const timeoutMs = resolveNumber(issues, 'timeoutMs', options.timeoutMs, 30_000, 1, MAX_TIMER_MS);
  const maxRetries = resolveNumber(issues, 'maxRetries', options.maxRetries, 2, 0, MAX_RETRIES, true);
  const maxResponseBytes = resolveNumber(
    issues,
    'maxResponseBytes',
    options.maxResponseBytes,
    1_048_576,
    1,
    Number.MAX_SAFE_INTEGER,
    true,
  );
  const headers = clientHeaders(options.headers, issues);
  const fetch = resolveFunction(issues, 'fetch', options.fetch);
  const logger = levelledLogger(
    resolveLogger(issues, options.logger),
    checkLogLevel(
      options.logLevel ?? (readEnv('WALLET_LOG') || undefined),
      options.logLevel === undefined,
      issues,
    ),
  );
  const journal = resolveJournal(issues, options.journal);
  const tokens = resolveTokens(issues, options.tokens);
  const onSettled = resolveFunction(issues, 'onSettled', options.onSettled);
  const settleLeaseMs = resolveNumber(
    issues,
    'settleLeaseMs',
    options.settleLeaseMs,
    DEFAULT_SETTLE_LEASE_MS,
    1_000,
    MAX_TIMER_MS,
    true,
  );
  const onRefused = resolveFunction(issues, 'onRefused', options.onRefused);
  for (const [name, hook] of [
    ['onSettled', onSettled],
    ['onRefused', onRefused],
  ] as const) {
    if (hook !== undefined && journal === undefined) refuse(issues, name, 'needs the journal option');
    if (hook !== undefined && journal !== undefined && typeof journal.claimSettlement !== 'function') {
      refuse(
        issues,
        name,
        'needs a journal with claimSettlement and completeSettlement (docs/settlement.md)',
      );
    }
  }
  const maxSockets = resolveNumber(issues, 'maxSockets', options.maxSockets, 128, 1, 65_535, true);
  const agents = resolveAgents(issues, options.agent);
  for (const option of ['agent', 'maxSockets'] as const) {
    if (fetch && options[option] !== undefined) {
      refuse(issues, option, 'applies to the Node transport, not to a given fetch');
    }
  }
  if (issues.length > 0 || apiKey === undefined || baseUrl === undefined) {
    throw new WalletConfigError(issues, INVALID);
  }
  return {
    apiKey,
    baseUrl,
    timeoutMs,
    maxRetries,
    maxResponseBytes,
    headers,
    backoff: defaultBackoff,
    logger,
    journal,
    tokens,
    settlement: journal &&
      (onSettled ?? onRefused) && { journal, onSettled, onRefused, leaseMs: settleLeaseMs, logger },
    ...(inherited ?? resolveTransport(fetch, baseUrl, { maxSockets, given: agents })),
  };
}

const INVALID = 'Invalid WalletClient options';

/** The `tokens` option: a vault made by `createTokenVault`. */
function resolveTokens(issues: WalletIssue[], tokens: unknown): VaultLink | undefined {
  if (tokens === undefined) return undefined;
  const link = (tokens as Partial<LinkedVault> | null)?.[VAULT_LINK];
  if (typeof link?.withToken === 'function' && typeof link.tokenFor === 'function') return link;
  refuse(issues, 'tokens', 'must be a token vault made by createTokenVault()');
  return undefined;
}

/**
 * A given `fetch` is always honoured; otherwise Node gets its faster native transport on a keep-alive
 * agent of its own (or the one given), which the returned connections free on `close()`.
 * @throws {WalletConfigError} naming a proxy variable whose value is not a URL.
 */
function resolveTransport(
  fetch: typeof globalThis.fetch | undefined,
  baseUrl: URL,
  node: Parameters<typeof lazyNodeTransport>[1],
): { transport: Transport; connections: Connections } {
  const native = fetch === undefined ? lazyNodeTransport(baseUrl, node) : undefined;
  if (native) return { transport: native.transport, connections: new Connections(native.destroy) };
  return { transport: fetchTransport(fetch), connections: new Connections(() => {}) };
}

/** The `agent` option: `{ http?, https? }`, each a Node agent (so only where Node's http exists). */
function resolveAgents(issues: WalletIssue[], agent: unknown): GivenAgents | undefined {
  if (agent === undefined) return undefined;
  if (typeof agent !== 'object' || agent === null) {
    return refuse(issues, 'agent', 'must be an object { http?, https? } of Node agents');
  }
  const before = issues.length;
  for (const key of unknownOptionKeys(agent, AGENT_KEYS))
    refuse(issues, `agent.${key}`, 'is unknown (use http or https)');
  const http = nodeRuntime()?.modules.http;
  if (!http) return refuse(issues, 'agent', "needs Node's http module, which this runtime lacks");
  for (const [scheme, value] of Object.entries(agent)) {
    if (value !== undefined && Object.hasOwn(AGENT_KEYS, scheme) && !(value instanceof http.Agent)) {
      refuse(issues, `agent.${scheme}`, 'must be an http.Agent or https.Agent');
    }
  }
  return issues.length === before ? (agent as GivenAgents) : undefined;
}
