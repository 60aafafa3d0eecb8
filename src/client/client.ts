import type { VaultLink } from '../auth/vault-link.js';
import type { WalletOutcomeUnknownError } from '../errors.js';
import type { PaymentIntentEndpoint } from '../journal/types.js';
import {
  type WaitForTransactionOptions,
  type WatchTransactionOptions,
  waitForTransaction,
  watchTransaction,
} from '../polling/poll.js';
import { type ReconcileOptions, type ReconcileResult, reconcile } from '../reconcile/reconcile.js';
import { expectStatusOf } from '../schemas/answer-match.js';
import { type DepositRequest, TransactionId, type WithdrawRequest } from '../schemas/requests.js';
import {
  type DepositResult,
  ProviderList,
  TransactionResult,
  type WithdrawResult,
} from '../schemas/responses.js';
import { validateRequest, validateResponse } from '../schemas/validate.js';
import { path } from '../transport/path.js';
import type { ResponseSlot } from '../transport/response.js';
import { type CallSpec, send } from '../transport/send.js';
import { closedClientError } from './connections.js';
import { type Journaled, type JournalHook, noteStatus, sendJournaled } from './journal-hook.js';
import { merchantIdentity } from './merchant-identity.js';
import { type ClientSettings, resolveOptions, type WalletClientOptions } from './options.js';
import { depositCall, type PaymentCall, resendCall, withdrawCall } from './payment-calls.js';
import { type RecoverOptions, type RecoveryReport, recoverIntents } from './recover.js';
import {
  type CheckedRequestOptions,
  checkRequestOptions,
  NO_OPTIONS,
  type RequestOptions,
  requireUserToken,
  type UserRequestOptions,
} from './request-options.js';
import { type OutcomeResolution, resolveUnknown, unknownPayment } from './resolve-outcome.js';
import {
  checkSharedOptions,
  type SharedClientOptions,
  sharedTransportOf,
  sharingTransport,
} from './shared-options.js';
import { forUser } from './user-calls.js';
import { type WalletPromise, walletPromise } from './wallet-promise.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * Client of the Merchant Wallet Payments API.
 *
 * @example
 * const wallet = new WalletClient({ apiKey: process.env.WALLET_API_KEY, baseUrl: 'https://api.example.com' });
 * const deposit = await wallet.deposit({ reference_id: 'order-1042', amount: 250, currency: 'KES' }, { userToken });
 */
export class WalletClient {
  readonly #options: WalletClientOptions;
  readonly #config: Omit<ClientSettings, 'journal' | 'tokens'>;
  readonly #journal: JournalHook | undefined;
  readonly #tokens: VaultLink | undefined;
  readonly #merchant: string;
  /** Whether this client made its connections (and so frees them), rather than sharing a parent's. */
  readonly #ownsConnections: boolean;
  #closed = false;

  /** @throws {WalletConfigError} when the API key or base URL is missing or an option is invalid. */
  constructor(options: WalletClientOptions = {}) {
    const shared = sharedTransportOf(options);
    const { journal, tokens, ...config } = resolveOptions(options, shared);
    this.#config = config;
    this.#tokens = tokens;
    tokens?.bind((userToken) => this.listProviders({ userToken }));
    this.#ownsConnections = shared === undefined;
    this.#options = { ...options };
    this.#journal = journal && { journal, logger: this.#config.logger };
    this.#merchant = merchantIdentity(config.apiKey, config.baseUrl.href);
  }

  /**
   * This client's merchant identity: `mw1:` and a fingerprint of its API key and base URL, no
   * secret. Journal intents and `WalletOutcomeUnknownError`s carry it, so that `resolveOutcome` and
   * `recover()` never re-send a payment through another merchant's client.
   */
  get merchant(): string {
    return this.#merchant;
  }

  /** The API base address in use. */
  get baseUrl(): string {
    return this.#config.baseUrl.href;
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
    const { transport, connections } = this.#config;
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
  deposit(body: DepositRequest, options: UserRequestOptions): WalletPromise<Journaled<DepositResult>> {
    return walletPromise((slot) =>
      forUser(this.#tokens, options, (user, email) => this.#pay(() => depositCall(body, user, email), slot)),
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
  withdraw(body: WithdrawRequest, options: RequestOptions = {}): WalletPromise<Journaled<WithdrawResult>> {
    return walletPromise((slot) => this.#pay(() => withdrawCall(body, options), slot));
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
  async resolveOutcome(
    error: WalletOutcomeUnknownError,
    options: Partial<UserRequestOptions> = {},
  ): Promise<OutcomeResolution> {
    const payment = unknownPayment(error, this.#merchant);
    return resolveUnknown(payment, (endpoint, body) => this.#resend(endpoint, body, options));
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
    return recoverIntents(
      this.#journal?.journal,
      this.#merchant,
      options,
      (_intent, userToken) => (endpoint, body) =>
        this.#resend(endpoint, body, userToken === undefined ? {} : { userToken }),
      this.#tokens,
    );
  }

  /**
   * Reads the current status of a transaction this merchant created. `amount` is a string here, as on the wire.
   *
   * @throws {WalletApiError} `transaction_not_found` or `transaction_access_forbidden`, among others.
   * @throws {WalletResponseValidationError} for an answer of the wrong shape, or about another `transaction_id`.
   */
  getTransaction(transactionId: string, options: RequestOptions = {}): WalletPromise<TransactionResult> {
    return walletPromise((slot) => {
      const id = validateRequest(TransactionId, transactionId, 'transaction_id');
      const read = this.#send(
        checkRequestOptions(options),
        {
          endpoint: 'status',
          validate: (body, status) =>
            expectStatusOf(id, validateResponse(TransactionResult, body, 'status', status), status),
          method: 'GET',
          path: path`merchants/transactions/status/${{ transaction_id: id }}`,
        },
        slot,
      );
      const journal = this.#journal;
      if (!journal) return read;
      return read.then(async (status) => {
        await noteStatus(journal, status);
        return status;
      });
    });
  }

  /**
   * Lists the payment providers a user has linked and the user's defaults. Only these
   * providers can be named as `payment_provider` for that user.
   */
  listProviders(options: UserRequestOptions): WalletPromise<ProviderList> {
    return walletPromise((slot) =>
      forUser(this.#tokens, options, (user) => {
        const userToken = requireUserToken(user);
        return this.#send(
          checkRequestOptions(user),
          {
            endpoint: 'providers',
            validate: (body, status) => validateResponse(ProviderList, body, 'providers', status),
            method: 'GET',
            path: 'merchants/accounts/providers',
            userToken,
          },
          slot,
        );
      }),
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
   * `WalletConfigError` and send nothing; calls in flight finish first, then the sockets of the
   * client's own agent are destroyed. An `agent` passed in options is left open. A client made by
   * {@link WalletClient.withOptions} only stops: the sockets it shares are freed by closing the
   * client they came from. Also run by `await using wallet = new WalletClient(...)`.
   *
   * @example
   * process.once('SIGTERM', () => wallet.close());
   */
  close(): Promise<void> {
    this.#closed = true;
    return this.#ownsConnections ? this.#config.connections.close() : Promise.resolve();
  }

  /** Same as {@link WalletClient.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Sends an unknown payment's body again under its own reference id: how its outcome is settled. */
  async #resend(endpoint: PaymentIntentEndpoint, body: unknown, options: Partial<UserRequestOptions>) {
    return forUser(this.#tokens, options, (user, email) =>
      this.#pay(() => resendCall(endpoint, body, user, email), {}, true),
    );
  }

  /** A deposit or withdrawal built by `build` (after the open check), sent between its journal writes. */
  #pay<T extends DepositResult | WithdrawResult>(
    build: () => PaymentCall<T>,
    slot: ResponseSlot,
    resend = false,
  ) {
    this.#checkOpen();
    const call = build();
    const { signal, timeoutMs = this.#config.timeoutMs } = call.options;
    return sendJournaled(this.#journal, {
      intent: { ...call.intent, merchant: this.#merchant, recordedBy: crypto.randomUUID() },
      bounds: { endpoint: call.spec.endpoint, signal, timeoutMs },
      send: () => this.#send(call.options, call.spec, slot),
      resend,
    });
  }

  #checkOpen(): void {
    if (this.#closed || this.#config.connections.closed) throw closedClientError();
  }

  #send<T>(options: CheckedRequestOptions, call: CallSpec<T>, slot: ResponseSlot): Promise<T> {
    this.#checkOpen();
    // Each method passes a fresh literal, so adding to it is safe, and far cheaper than spreading it.
    const spec: CallSpec<T> = options === NO_OPTIONS ? call : Object.assign(call, options);
    return send(this.#config, spec, slot);
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
