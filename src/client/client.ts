import { WalletRequestValidationError } from '../errors.js';
import { isAbortSignal, MAX_TIMER_MS } from '../limits.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import {
  type WaitForTransactionOptions,
  type WatchTransactionOptions,
  waitForTransaction,
  watchTransaction,
} from '../polling/poll.js';
import { type ReconcileOptions, type ReconcileResult, reconcile } from '../reconcile/reconcile.js';
import { DepositRequest, TransactionId, WithdrawRequest } from '../schemas/requests.js';
import { DepositResult, ProviderList, TransactionResult, WithdrawResult } from '../schemas/responses.js';
import { validateRequest, validateResponse } from '../schemas/validate.js';
import { path } from '../transport/path.js';
import { type CallSpec, send, type TransportConfig } from '../transport/send.js';
import { CREDENTIAL, resolveOptions, type WalletClientOptions } from './options.js';

/** Per-call options of every method. */
export interface RequestOptions {
  /** Stops the call; a money-moving call stopped after sending ends in `WalletOutcomeUnknownError`. */
  signal?: AbortSignal | undefined;
  /** Time limit of each attempt for this call, overriding the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
}

/** Per-call options of the methods that act for a user (`deposit`, `listProviders`). */
export interface UserRequestOptions extends RequestOptions {
  /** The user token delivered to your webhook by the login flow, sent as `Authorization: Bearer`. */
  userToken: string;
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * Client of the Merchant Wallet Payments API.
 *
 * @example
 * const wallet = new WalletClient({ apiKey: process.env.WALLET_API_KEY, baseUrl: 'https://api.example.com' });
 * const deposit = await wallet.deposit({ reference_id: 'order-1042', amount: 250, currency: 'KES' }, { userToken });
 */
export class WalletClient {
  readonly #config: TransportConfig;

  /** @throws {WalletConfigError} when the API key or base URL is missing or an option is invalid. */
  constructor(options: WalletClientOptions = {}) {
    this.#config = resolveOptions(options);
  }

  /** The API base address in use. */
  get baseUrl(): string {
    return this.#config.baseUrl.href;
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
   * @throws {WalletOutcomeUnknownError} when the deposit may have been applied but that cannot be confirmed.
   */
  async deposit(body: DepositRequest, options: UserRequestOptions): Promise<DepositResult> {
    const request = validateRequest(DepositRequest, body, 'deposit request');
    const result = await this.#send(options, {
      endpoint: 'deposit',
      validate: (body, status) => validateResponse(DepositResult, body, 'deposit', status),
      method: 'POST',
      path: 'merchants/transactions/c2b',
      body: request,
      referenceId: request.reference_id,
      userToken: requireUserToken(options),
    });
    return result.body;
  }

  /**
   * Sends funds from the merchant account to a user's wallet (B2C), and on to `payment_provider`
   * when one is named. A `reference_id` is generated when absent so retries stay safe; it is
   * returned in the result and carried by `WalletOutcomeUnknownError`.
   *
   * @throws {WalletRequestValidationError} for a bad body; nothing is sent.
   * @throws {WalletApiError} with a {@link WithdrawErrorCode} when the API refuses the withdrawal.
   * @throws {WalletOutcomeUnknownError} when the withdrawal may have been applied but that cannot be confirmed.
   */
  async withdraw(body: WithdrawRequest, options: RequestOptions = {}): Promise<WithdrawResult> {
    const request = validateRequest(WithdrawRequest, body, 'withdraw request');
    const referenceId = request.reference_id ?? crypto.randomUUID();
    const result = await this.#send(options, {
      endpoint: 'withdraw',
      validate: (body, status) => validateResponse(WithdrawResult, body, 'withdraw', status),
      method: 'POST',
      path: 'merchants/transactions/b2c',
      body: { ...request, reference_id: referenceId },
      referenceId,
    });
    return result.body;
  }

  /**
   * Reads the current status of a transaction this merchant created. `amount` is a string here, as on the wire.
   *
   * @throws {WalletApiError} `transaction_not_found` or `transaction_access_forbidden`, among others.
   */
  async getTransaction(transactionId: string, options: RequestOptions = {}): Promise<TransactionResult> {
    const id = validateRequest(TransactionId, transactionId, 'transaction_id');
    const result = await this.#send(options, {
      endpoint: 'status',
      validate: (body, status) => validateResponse(TransactionResult, body, 'status', status),
      method: 'GET',
      path: path`merchants/transactions/status/${id}`,
    });
    return result.body;
  }

  /**
   * Lists the payment providers a user has linked and the user's defaults. Only these
   * providers can be named as `payment_provider` for that user.
   */
  async listProviders(options: UserRequestOptions): Promise<ProviderList> {
    const result = await this.#send(options, {
      endpoint: 'providers',
      validate: (body, status) => validateResponse(ProviderList, body, 'providers', status),
      method: 'GET',
      path: 'merchants/accounts/providers',
      userToken: requireUserToken(options),
    });
    return result.body;
  }

  /**
   * Polls the status endpoint until the transaction is `completed` or `failed` and resolves
   * with that result; `failed` is a value, not an exception. Backoff with full jitter between
   * `initialDelayMs` and `maxDelayMs`, under one overall `timeoutMs`.
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

  #send<T>(options: RequestOptions | undefined, call: CallSpec<T>) {
    const { signal, timeoutMs } = checkRequestOptions(options);
    return send(this.#config, { ...call, signal, timeoutMs });
  }

  /** Shows the base URL only; the API key never appears. */
  [inspectSymbol](): string {
    return `WalletClient { baseUrl: '${this.baseUrl}' }`;
  }

  /** `{ baseUrl }` only, so serialising a client never reveals its API key. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }
}

/** Every per-call option (`userToken` is read separately by the methods that act for a user). */
const REQUEST_OPTION_KEYS: OptionKeys<UserRequestOptions> = {
  signal: true,
  timeoutMs: true,
  userToken: true,
};

function checkRequestOptions(options: RequestOptions | undefined): RequestOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new WalletRequestValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  const issues = unknownOptionKeys(options, REQUEST_OPTION_KEYS).map((key) => ({
    path: `options.${key}`,
    message: 'is not a known option',
  }));
  if (issues.length > 0) throw new WalletRequestValidationError(issues);
  const { signal, timeoutMs } = options;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new WalletRequestValidationError([{ path: 'options.signal', message: 'must be an AbortSignal' }]);
  }
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)
  ) {
    throw new WalletRequestValidationError([
      { path: 'options.timeoutMs', message: 'must be a positive number of milliseconds' },
    ]);
  }
  return { signal, timeoutMs };
}

function requireUserToken(options: Partial<UserRequestOptions> | undefined): string {
  const token = options?.userToken;
  if (token === undefined || token === '') {
    throw new WalletRequestValidationError([
      { path: 'options.userToken', message: 'is required for this endpoint' },
    ]);
  }
  if (typeof token !== 'string' || !CREDENTIAL.test(token)) {
    throw new WalletRequestValidationError([
      { path: 'options.userToken', message: 'must be a string of visible ASCII characters with no spaces' },
    ]);
  }
  return token;
}
