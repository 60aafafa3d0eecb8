import type { LinkedVault } from '../auth/vault-link.js';
import type { PaymentJournal } from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import type { OptionKeys } from '../option-keys.js';
import type { OnRefused, OnSettled } from '../settlement/settle.js';
import type { WalletLogLevel } from './log-level.js';

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
   * Even at `0`, a first attempt reset on a reused keep-alive connection before any answer is sent once more.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * Most bytes of response body read, after decompression. Past it, reading stops and the
   * connection is dropped: a GET rejects with `WalletResponseValidationError`, a deposit or
   * withdrawal with `WalletOutcomeUnknownError` (its 2xx may mean the money moved).
   * @default 1_048_576 (1 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * A `fetch` implementation to use instead of the global one (and instead of the Node transport on
   * Node). Called once per attempt as `fetch(url, init)`: `url` is a string, `init.headers` a fresh
   * object, with `redirect: 'error'` and a signal that aborts at the attempt's deadline. The SDK does
   * the retries itself.
   */
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
  /**
   * A token vault (`createTokenVault`): `deposit` and `listProviders` then take `{ user: email }`
   * instead of `{ userToken }`, `recover()` finds deposits' tokens by the e-mail the journal
   * recorded, and a refused token becomes a `WalletReauthorizationRequiredError`. See docs/authorization.md.
   */
  tokens?: LinkedVault | undefined;
  /**
   * Called once a payment reaches its final status (`completed` or `failed`), by exactly one
   * instance across the fleet sharing the `journal`, whichever path learns it first: the call's own
   * answer, a status read (a wait, a verified webhook, `reconcile`), `resolveOutcome`, `recover()` or
   * the sweeper. The intent is marked settled only after it returns; one that throws, or whose
   * process dies, runs again after `settleLeaseMs` through the sweeper: at least once, keyed by
   * `intent.referenceId`. Needs a journal (docs/settlement.md).
   */
  onSettled?: OnSettled | undefined;
  /**
   * Called once a payment is refused (no money moved), by exactly one instance across the fleet
   * sharing the `journal`, as `onSettled` is for a final status; `intent.reason` is the refusal's
   * code. Needs a journal (docs/settlement.md).
   */
  onRefused?: OnRefused | undefined;
  /**
   * How long one `onSettled` run holds its payment before another instance may run it again.
   * @default 60000
   */
  settleLeaseMs?: number | undefined;
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
   * import https from 'node:https';
   * import { readFileSync } from 'node:fs';
   * const agent = new https.Agent({ keepAlive: true, cert: readFileSync('client.crt'), key: readFileSync('client.key') });
   * new WalletClient({ agent: { https: agent } });
   */
  agent?: WalletAgents | undefined;
}

/** Every option of {@link WalletClientOptions}: adding an option is one line here plus its check. */
export const CLIENT_OPTION_KEYS: OptionKeys<WalletClientOptions> = {
  apiKey: true,
  baseUrl: true,
  allowInsecureHttp: true,
  timeoutMs: true,
  maxRetries: true,
  maxResponseBytes: true,
  fetch: true,
  headers: true,
  logger: true,
  logLevel: true,
  journal: true,
  tokens: true,
  onSettled: true,
  onRefused: true,
  settleLeaseMs: true,
  maxSockets: true,
  agent: true,
};

/** Every key of {@link WalletAgents}. */
export const AGENT_KEYS: OptionKeys<WalletAgents> = { http: true, https: true };
