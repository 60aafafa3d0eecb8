import { WalletApiError } from '../errors.js';
import type { WalletLogger } from '../logger.js';
import type { AttemptOutcome, AttemptReceiver, Transport } from './attempt.js';
import { type BackoffPolicy, backoffDelay } from './backoff.js';
import type { CallSpec } from './call-spec.js';
import {
  abortError,
  answerOf,
  type Failure,
  isReferenceAlreadyUsed,
  judge,
  judgeAnswer,
  outcomeUnknown,
  readSuccess,
} from './judge-attempt.js';
import { logAttempt } from './log-attempt.js';
import type { Answer } from './read-answer.js';
import { type AnsweredCall, type ResponseSlot, responseOf, type WalletResponse } from './response.js';
import { sleep } from './sleep.js';
import { startAttempt } from './start-attempt.js';

export type { CallSpec } from './call-spec.js';

/** Settings shared by every call of one client. */
export interface TransportConfig {
  readonly baseUrl: URL;
  readonly apiKey: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly backoff: BackoffPolicy;
  readonly transport: Transport;
  readonly logger: WalletLogger | undefined;
  /** Told when each call starts and ends, so that closing the client can wait for the calls in flight. */
  readonly connections?: CallsInFlight | undefined;
}

/** Counts a client's calls in flight. */
export interface CallsInFlight {
  started(): void;
  ended(): void;
}

/**
 * Performs a call with the retry rules: GETs and reference-carrying POSTs retry
 * transient failures with backoff; a POST that may have been applied and then
 * cannot be confirmed ends in `WalletOutcomeUnknownError`, never a guess. Resolves with the validated
 * body, and leaves the exchange behind it in `slot`.
 */
export function send<T>(config: TransportConfig, call: CallSpec<T>, slot?: ResponseSlot): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    new CallAttempts(config, call, slot, resolve, reject).attempt(1);
  });
}

/** What a settled attempt gives when another attempt follows: the call is not over. */
const RETRYING = Symbol('retrying');

/**
 * One call's attempts. It receives each attempt's outcome from the transport itself, and settles
 * the call's one promise: no promise or suspended frame per attempt, which counts with many calls
 * in flight.
 */
class CallAttempts<T> implements AttemptReceiver, AnsweredCall {
  readonly #config: TransportConfig;
  readonly #call: CallSpec<T>;
  readonly #slot: ResponseSlot | undefined;
  readonly #resolve: (body: T) => void;
  readonly #reject: (error: unknown) => void;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #body: string | undefined;
  readonly #timeoutMs: number;
  readonly #secrets: readonly string[];
  readonly #started = performance.now();
  #attemptNumber = 0;
  #attemptStarted = 0;
  /** Whether an earlier attempt may have been applied on the server. */
  #maybeApplied = false;
  #ended = false;
  /** The successful answer, kept for {@link CallAttempts.response}. */
  #answer: Answer | undefined;
  #durationMs = 0;

  constructor(
    config: TransportConfig,
    call: CallSpec<T>,
    slot: ResponseSlot | undefined,
    resolve: (body: T) => void,
    reject: (error: unknown) => void,
  ) {
    this.#config = config;
    this.#call = call;
    this.#slot = slot;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#headers = buildHeaders(config, call);
    this.#body = call.body === undefined ? undefined : JSON.stringify(call.body);
    this.#timeoutMs = call.timeoutMs ?? config.timeoutMs;
    this.#secrets = call.userToken ? [config.apiKey, call.userToken] : constantsOf(config).secrets;
    config.connections?.started();
  }

  /** The exchange behind the result, built when read: most callers never ask for it. */
  get response(): WalletResponse {
    return responseOf(this.#answer as Answer, this.#attemptNumber, this.#durationMs, this.#secrets);
  }

  /** Makes attempt number `attemptNumber`; its outcome comes back to {@link CallAttempts.arrived}. */
  attempt(attemptNumber: number): void {
    const config = this.#config;
    const call = this.#call;
    this.#attemptNumber = attemptNumber;
    this.#attemptStarted = config.logger?.debug ? performance.now() : 0;
    const request = {
      baseUrl: config.baseUrl,
      path: call.path,
      method: call.method,
      headers: this.#headers,
      body: this.#body,
      timeoutMs: this.#timeoutMs,
      signal: call.signal,
      maxResponseBytes: config.maxResponseBytes,
    };
    try {
      startAttempt(request, call, attemptNumber, this.#secrets, config.transport, this);
    } catch (error) {
      this.failed(error);
    }
  }

  /** The attempt's outcome: the call resolves, rejects, or waits for the next attempt. */
  arrived(outcome: AttemptOutcome): void {
    try {
      const body = this.#settle(outcome);
      if (body !== RETRYING && this.#end()) this.#resolve(body);
    } catch (error) {
      this.failed(error);
    }
  }

  /** The transport broke rather than report an outcome: the call rejects with its error. */
  failed(error: unknown): void {
    if (this.#end()) this.#reject(error);
  }

  /** Marks the call ended, once: whether it was still running. */
  #end(): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    this.#config.connections?.ended();
    return true;
  }

  /** The body of a 2xx answer; else the error to throw, or {@link RETRYING} once the next attempt is due. */
  #settle(outcome: AttemptOutcome): T | typeof RETRYING {
    const config = this.#config;
    const call = this.#call;
    const secrets = this.#secrets;
    const attemptNumber = this.#attemptNumber;
    if (config.logger?.debug) {
      logAttempt(config.logger, call, attemptNumber, secrets, outcome, this.#attemptStarted);
    }
    const answer = answerOf(outcome);
    if (answer && answer.status >= 200 && answer.status < 300) {
      const body = readSuccess(call, answer, attemptNumber, secrets, this.#maybeApplied);
      if (this.#slot) {
        this.#answer = answer;
        this.#durationMs = performance.now() - this.#started;
        this.#slot.answered = this;
      }
      return body;
    }
    if (outcome.kind === 'aborted') {
      throw abortError(call, this.#maybeApplied || outcome.maybeSent, attemptNumber);
    }

    const verdict = answer
      ? judgeAnswer(call, answer, secrets)
      : judge(call, outcome as Failure, attemptNumber, this.#timeoutMs);
    this.#maybeApplied ||= verdict.maybeApplied;
    if (call.method === 'POST' && attemptNumber > 1 && isReferenceAlreadyUsed(verdict.error)) {
      throw outcomeUnknown(
        call,
        attemptNumber,
        'a retry was answered reference_already_used, so an earlier attempt was most likely applied',
        verdict.error,
      );
    }
    // A first attempt lost on a stale keep-alive connection is retried at once, even with
    // `maxRetries: 0`, as stripe-node does: the same reference id keeps the retry safe.
    const staleRetry = outcome.kind === 'network' && outcome.staleSocket && attemptNumber === 1;
    const delayMs = staleRetry
      ? 0
      : (verdict.retryAfterMs ?? backoffDelay(attemptNumber - 1, config.backoff));
    const maxAttempts = (call.maxRetries ?? config.maxRetries) + 1;
    const canRetry =
      verdict.retryable &&
      (attemptNumber < maxAttempts || staleRetry) &&
      delayMs <= config.backoff.maxRetryAfterMs;
    if (!canRetry) {
      if (call.method === 'POST' && this.#maybeApplied) {
        throw outcomeUnknown(
          call,
          attemptNumber,
          `the last attempt failed (${verdict.error.message}) after a request that may have been applied`,
          verdict.error,
        );
      }
      throw verdict.error;
    }
    config.logger?.warn?.(`${call.method} ${call.path} failed, retrying`, {
      endpoint: call.endpoint,
      attempt: attemptNumber,
      reason: verdict.error.name,
      status: verdict.error instanceof WalletApiError ? verdict.error.status : undefined,
      requestId: verdict.error instanceof WalletApiError ? verdict.error.requestId : undefined,
      delayMs,
    });
    sleep(delayMs, call.signal).then((slept) => {
      if (slept) this.attempt(attemptNumber + 1);
      else this.failed(abortError(call, this.#maybeApplied, attemptNumber));
    });
    return RETRYING;
  }
}

/** What every call of one client shares, built on its first call. */
interface ClientConstants {
  /** The headers of its calls that add none of their own, frozen: the node transport reuses their list. */
  readonly headers: Readonly<Record<string, string>>;
  /** The secrets of its calls without a user token. */
  readonly secrets: readonly string[];
}

const clientConstants = new WeakMap<TransportConfig, ClientConstants>();

function constantsOf(config: TransportConfig): ClientConstants {
  let constants = clientConstants.get(config);
  if (!constants) {
    constants = {
      headers: Object.freeze({ ...config.headers, 'x-api-key': config.apiKey }),
      secrets: Object.freeze([config.apiKey]),
    };
    clientConstants.set(config, constants);
  }
  return constants;
}

function buildHeaders(config: TransportConfig, call: CallSpec<unknown>): Readonly<Record<string, string>> {
  if (call.headers === undefined && call.userToken === undefined && call.body === undefined) {
    return constantsOf(config).headers;
  }
  const headers: Record<string, string> = { ...config.headers, ...call.headers, 'x-api-key': config.apiKey };
  if (call.userToken !== undefined) headers.authorization = `Bearer ${call.userToken}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}
