import type { WalletOutcomeUnknownError } from '../errors.js';
import type { SettledBy } from '../journal/types.js';
import {
  type WaitForTransactionOptions,
  type WatchTransactionOptions,
  waitForTransaction,
  watchTransaction,
} from '../polling/poll.js';
import { type ReconcileOptions, type ReconcileResult, reconcile } from '../reconcile/reconcile.js';
import type { DepositRequest, WithdrawRequest } from '../schemas/requests.js';
import type { DepositResult, ProviderList, TransactionResult, WithdrawResult } from '../schemas/responses.js';
import type { JournalHealth, JournalHealthOptions } from '../settlement/health.js';
import type { SuperviseOptions } from '../settlement/supervise.js';
import type { SweepOptions, SweepReport } from '../settlement/sweep.js';
import type { ResponseSlot } from '../transport/response.js';
import { ClientEngine } from './engine.js';
import type { Journaled } from './journal-hook.js';
import type { WalletClientOptions } from './options.js';
import { depositCall, withdrawCall } from './payment-calls.js';
import { providersCall, statusCall } from './read-calls.js';
import type { RecoverOptions, RecoveryReport } from './recover.js';
import {
  checkRequestOptions,
  type DepositOptions,
  requireUserToken,
  type StatusReadOptions,
  type UserRequestOptions,
  type WithdrawOptions,
} from './request-options.js';
import { resolveOptions } from './resolve-options.js';
import type { OutcomeResolution } from './resolve-outcome.js';
import {
  checkSharedOptions,
  type SharedClientOptions,
  sharedTransportOf,
  sharingTransport,
} from './shared-options.js';
import { forUser } from './user-calls.js';
import { type WalletPromise, walletPromise } from './wallet-promise.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
/** The sweeper, loaded on first use: clients that never sweep (a browser, a worker) never load it. */
const fleet = () => import('../settlement/fleet.js');

/**
 * Client of the Merchant Wallet Payments API.
 *
 * @example
 * const wallet = new WalletClient({ apiKey: process.env.WALLET_API_KEY, baseUrl: 'https://api.example.com' });
 * const deposit = await wallet.deposit({ reference_id: 'order-1042', amount: 250, currency: 'KES' }, { userToken });
 */
export class WalletClient {
  readonly #options: WalletClientOptions;
  readonly #engine: ClientEngine;
  /** Whether this client made its connections (and so frees them), rather than sharing a parent's. */
  readonly #ownsConnections: boolean;

  /** @throws {WalletConfigError} when the API key or base URL is missing or an option is invalid. */
  constructor(options: WalletClientOptions = {}) {
    const shared = sharedTransportOf(options);
    this.#engine = new ClientEngine(resolveOptions(options, shared));
    this.#ownsConnections = shared === undefined;
    this.#options = { ...options };
  }

  /**
   * This client's merchant identity: `mw1:` and a fingerprint of its API key and base URL, no
   * secret. Journal intents and `WalletOutcomeUnknownError`s carry it, so that `resolveOutcome` and
   * `recover()` never re-send a payment through another merchant's client.
   */
  get merchant(): string {
    return this.#engine.merchant;
  }

  /**
   * A fingerprint of this client's API key alone (`mk1:` and 64 bits of SHA-256; no secret), recorded
   * with each intent: `journalHealth().sharedKeys` lists keys seen under several identities.
   */
  get keyFingerprint(): string {
    return this.#engine.keyFingerprint;
  }

  /** The API base address in use. */
  get baseUrl(): string {
    return this.#engine.config.baseUrl.href;
  }

  /**
   * A client with these options over this one's, sharing its transport and connections (its
   * keep-alive agents): for a part of your code that needs other defaults, such as fewer retries or
   * extra headers. Options that choose the transport (`fetch`, `agent`, `maxSockets`) cannot be
   * changed here. Closing the derived client only stops it; closing this one frees the shared sockets.
   *
   * @throws {WalletConfigError} for a bad or transport-choosing option.
   * @example
   * const batch = wallet.withOptions({ maxRetries: 5, timeoutMs: 60_000 });
   */
  withOptions(options: SharedClientOptions): WalletClient {
    checkSharedOptions(options);
    const { transport, connections } = this.#engine.config;
    return new WalletClient(sharingTransport({ ...this.#options, ...options }, { transport, connections }));
  }

  /**
   * Takes funds from a user (C2B). When the user's wallet balance does not cover the amount and a
   * `payment_provider` is named, a provider deposit starts and the result is `pending`; the final
   * status arrives by webhook or through {@link WalletClient.getTransaction}.
   *
   * Retried on transient failures with the same `reference_id`, which the service keeps unique,
   * so a retry can never take the money twice.
   *
   * @throws {WalletRequestValidationError} for a bad body or missing `userToken`; nothing is sent.
   * @throws {WalletApiError} with a {@link DepositErrorCode} when the API refuses the deposit.
   * @throws {WalletOutcomeUnknownError} when the deposit may have been applied but that cannot be confirmed,
   *   including a 2xx answer about another `reference_id`, `amount` or `currency` (its `cause` names them).
   */
  deposit(body: DepositRequest, options: DepositOptions): WalletPromise<Journaled<DepositResult>> {
    return walletPromise((slot) =>
      forUser(
        this.#engine.tokens,
        options,
        (user, email) => this.#engine.pay(() => depositCall(body, user, email), slot),
        this.#engine.userCall('deposit'),
      ),
    );
  }

  /**
   * Sends funds from the merchant account to a user's wallet (B2C), and on to `payment_provider`
   * when one is named. A `reference_id` is generated when absent so retries stay safe; it is
   * returned in the result and carried by `WalletOutcomeUnknownError`.
   *
   * @throws {WalletRequestValidationError} for a bad body; nothing is sent.
   * @throws {WalletApiError} with a {@link WithdrawErrorCode} when the API refuses the withdrawal.
   * @throws {WalletOutcomeUnknownError} when the withdrawal may have been applied but that cannot be confirmed,
   *   including a 2xx answer about another `reference_id`, `amount` or `currency` (its `cause` names them).
   */
  withdraw(body: WithdrawRequest, options: WithdrawOptions = {}): WalletPromise<Journaled<WithdrawResult>> {
    return walletPromise((slot) => this.#engine.pay(() => withdrawCall(body, options), slot));
  }

  /**
   * Turns a {@link WalletOutcomeUnknownError} into a definite answer by re-sending its body under the
   * same `reference_id` (the service's only way to tell): `{ applied: true, alreadyApplied: false, result }`
   * when this send applied it, `{ applied: true, alreadyApplied: true }` when an earlier one did. A
   * business refusal is thrown as the `WalletApiError` (not applied); no answer about the payment
   * throws a new `WalletOutcomeUnknownError`. Decision table: docs/certainty.md.
   *
   * @throws {WalletRequestValidationError} when `error` is another merchant's (its `merchant` is not this client's).
   * @example
   * try { await wallet.deposit(body, { userToken }); }
   * catch (error) { if (error instanceof WalletOutcomeUnknownError) await wallet.resolveOutcome(error, { userToken }); }
   */
  resolveOutcome(
    error: WalletOutcomeUnknownError,
    options: Partial<UserRequestOptions> = {},
  ): Promise<OutcomeResolution> {
    return this.#engine.resolveOutcome(error, options);
  }

  /**
   * Resolves every intent of this merchant that the `journal` holds in state `sending` or `unknown`
   * (what a crash or a lost answer left open) with {@link WalletClient.resolveOutcome}, and reports
   * how each ended; `olderThanMs`, `newerThanMs` and `limit` choose which. Run it on start-up, once
   * the webhook endpoint listens, before taking new payments.
   *
   * @throws {WalletRequestValidationError} when the client has no `journal` or an option is invalid.
   */
  recover(options: RecoverOptions = {}): Promise<RecoveryReport> {
    return this.#engine.recover(options);
  }

  /**
   * One pass of the sweeper over the journal's own store: claims due intents under a lease (so
   * instances never share one), re-sends `sending` intents past their grace period and `unknown`
   * ones as `recover()` does, reads pending deposits on a backoff schedule, and runs `onSettled` for
   * final payments nobody settled. What a job engine (pg-boss, BullMQ) calls; docs/settlement.md.
   *
   * @throws {WalletConfigError} when the client has no journal, or one without `claimDue`.
   */
  sweepOnce(options?: SweepOptions): Promise<SweepReport> {
    // The sweeper writes what it read together with the intent's release, so its read notes nothing.
    const context = this.#engine.sweepContext((id) =>
      this.#engine.send(checkRequestOptions({}), statusCall(id), {}),
    );
    return fleet().then((loaded) => loaded.sweepOnce(context, options));
  }

  /**
   * Runs {@link WalletClient.sweepOnce} in a loop until `signal` aborts, for a long-lived process;
   * start it after the webhook endpoint listens and `recover()` ran.
   * @example
   * const stop = new AbortController();
   * void wallet.supervise({ signal: stop.signal });
   */
  supervise(options: SuperviseOptions): Promise<void> {
    const { logger } = this.#engine.config;
    return fleet().then((loaded) => loaded.supervise((sweep) => this.sweepOnce(sweep), options, logger));
  }

  /**
   * Counts by state, pending and unsettled payments, the oldest pending age, stuck intents, API keys
   * seen under several merchant identities (`sharedKeys`), and how payments settled lately: by which
   * path, the webhooks' share, and the `webhooks_silent` alarm; with `events` (this instance's shared
   * transaction-event source), whether it listens or reconnects, since when, after which error, and the
   * `events_not_listening` alarm once it has not listened for `notListeningAfterMs` (a minute).
   */
  journalHealth(
    options: Pick<SweepOptions, 'stuckAfterMs'> & JournalHealthOptions = {},
  ): Promise<JournalHealth> {
    return fleet().then((loaded) =>
      loaded.journalHealth(this.#engine.journal?.journal, options.stuckAfterMs, options),
    );
  }

  /**
   * Reads the current status of a transaction this merchant created. `amount` is a string here, as on the wire.
   *
   * @throws {WalletApiError} `transaction_not_found` or `transaction_access_forbidden`, among others.
   * @throws {WalletResponseValidationError} for an answer of the wrong shape, or about another `transaction_id`.
   */
  getTransaction(transactionId: string, options: StatusReadOptions = {}): WalletPromise<TransactionResult> {
    return walletPromise((slot) => this.#read(transactionId, options, slot));
  }

  /** A status read, noted in the journal as coming from `via` (else as `readFor` says). */
  #read(transactionId: string, options: StatusReadOptions, slot: ResponseSlot, via?: SettledBy) {
    const read = this.#engine.send(checkRequestOptions(options), statusCall(transactionId), slot);
    if (this.#engine.journal === undefined) return read;
    const by = via ?? (options.readFor === 'webhook' ? 'webhook' : 'status_read');
    return read.then((status) => this.#engine.noteStatus(status, by).then(() => status));
  }

  /**
   * Lists the payment providers a user has linked and the user's defaults. Only these
   * providers can be named as `payment_provider` for that user.
   */
  listProviders(options: UserRequestOptions): WalletPromise<ProviderList> {
    return walletPromise((slot) =>
      forUser(
        this.#engine.tokens,
        options,
        (user) => {
          const call = providersCall(requireUserToken(user));
          return this.#engine.send(checkRequestOptions(user), call, slot);
        },
        this.#engine.userCall('providers'),
      ),
    );
  }

  /**
   * Polls the status endpoint until the transaction is `completed` or `failed` and resolves
   * with that result; `failed` is a value, not an exception. Backoff with full jitter between
   * `initialDelayMs` and `maxDelayMs`, under one overall `timeoutMs`. With `events` (the
   * webhook handler's events, see `createTransactionEvents`) it ends as soon as the webhook arrives.
   *
   * @throws {WalletPollTimeoutError} when the deadline passes first; it carries the last status seen.
   * @throws {WalletAbortError} when `signal` aborts.
   * @example
   * const final = await wallet.waitForTransaction(deposit.transaction_id, { timeoutMs: 120_000 });
   * if (final.transaction_status === 'failed') console.warn(final.failure_reason);
   */
  waitForTransaction(transactionId: string, options?: WaitForTransactionOptions): Promise<TransactionResult> {
    return waitForTransaction(this, transactionId, options);
  }

  /**
   * The polling loop of {@link WalletClient.waitForTransaction} as an async iterator that
   * yields each distinct status and ends after the final one. Breaking out stops polling.
   *
   * @example
   * for await (const update of wallet.watchTransaction(id)) console.log(update.transaction_status);
   */
  watchTransaction(
    transactionId: string,
    options?: WatchTransactionOptions,
  ): AsyncIterableIterator<TransactionResult> {
    return watchTransaction(this, transactionId, options);
  }

  /**
   * Reads the status of many transactions with at most `concurrency` requests in flight,
   * yielding `{ transactionId, status }` or `{ transactionId, error }` for each as it completes.
   * One failing id never stops the rest.
   *
   * @example
   * for await (const row of wallet.reconcile(idsFromYourLedger, { concurrency: 16 })) {
   *   if (row.error) report(row.transactionId, row.error);
   *   else compare(row.transactionId, row.status.transaction_status);
   * }
   */
  reconcile(
    transactionIds: Iterable<string> | AsyncIterable<string>,
    options?: ReconcileOptions,
  ): AsyncIterableIterator<ReconcileResult> {
    return reconcile(this, transactionIds, options);
  }

  /**
   * Stops the client and frees its sockets: calls made afterwards are refused with a
   * `WalletConfigError` and send nothing; calls in flight finish first, and so do the journal
   * writes of outcomes written behind their answers; then the sockets of the
   * client's own agent are destroyed. An `agent` passed in options is left open. A client made by
   * {@link WalletClient.withOptions} only stops: the sockets it shares are freed by closing the
   * client they came from. Also run by `await using wallet = new WalletClient(...)`.
   *
   * @example
   * process.once('SIGTERM', () => wallet.close());
   */
  async close(): Promise<void> {
    this.#engine.stop();
    // Journaled payments in flight end, and the outcomes written behind their answers land (or fail,
    // logged), before close resolves.
    await this.#engine.writesLanded();
    if (this.#ownsConnections) await this.#engine.config.connections.close();
  }

  /** Same as {@link WalletClient.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Shows the base URL only; the API key never appears. */
  [inspectSymbol](): string {
    return `WalletClient { baseUrl: '${this.baseUrl}' }`;
  }

  /** `{ baseUrl }` only, so serialising a client never reveals its API key. */
  toJSON(): {
    /** The API base address in use. */
    baseUrl: string;
  } {
    return { baseUrl: this.baseUrl };
  }
}
