import { traceAttempt } from '../diagnostics/request-trace.js';
import type { WalletEndpoint } from '../error-codes.js';
import {
  WalletAbortError,
  WalletApiError,
  WalletConnectionError,
  type WalletError,
  WalletOutcomeUnknownError,
  WalletResponseValidationError,
  WalletTimeoutError,
} from '../errors.js';
import type { WalletLogger } from '../logger.js';
import type { AttemptOutcome, Transport } from './attempt.js';
import { type BackoffPolicy, backoffDelay } from './backoff.js';
import { logAttempt } from './log-attempt.js';
import { type Answer, apiError, parseSuccessBody } from './read-answer.js';
import { redactSecrets } from './redact.js';
import { type ResponseSlot, responseOf, type WalletResponse } from './response.js';
import { sleep } from './sleep.js';

/** 4xx statuses worth another attempt: the server did not act on the request, and may later. */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 425, 429]);

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
}

/** One API call. POSTs carry the reference id that makes retrying them safe. */
export interface CallSpec<T = unknown> {
  readonly endpoint: WalletEndpoint;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: Record<string, unknown>;
  readonly referenceId?: string;
  readonly userToken?: string;
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /** This call's `maxRetries`, over the client's. */
  readonly maxRetries?: number | undefined;
  /** This call's extra headers (checked, lower-case names), over the client's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Checks a 2xx body and returns it typed, throwing `WalletResponseValidationError`.
   * It runs inside the retry loop so that an unreadable answer to a POST whose earlier
   * attempt may have been applied ends unknown rather than looking like a plain failure.
   */
  readonly validate: (body: unknown, status: number) => T;
}

/** How one attempt ended, once judged. */
interface Verdict {
  readonly error: WalletError;
  readonly retryable: boolean;
  /** Whether the request may have been applied on the server. */
  readonly maybeApplied: boolean;
  readonly retryAfterMs?: number | undefined;
}

/**
 * Performs a call with the retry rules: GETs and reference-carrying POSTs retry
 * transient failures with backoff; a POST that may have been applied and then
 * cannot be confirmed ends in `WalletOutcomeUnknownError`, never a guess. Resolves with the validated
 * body, and leaves the exchange behind it in `slot`.
 */
export async function send<T>(config: TransportConfig, call: CallSpec<T>, slot?: ResponseSlot): Promise<T> {
  const headers = buildHeaders(config, call);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const timeoutMs = call.timeoutMs ?? config.timeoutMs;
  const secrets = call.userToken ? [config.apiKey, call.userToken] : [config.apiKey];
  const maxAttempts = (call.maxRetries ?? config.maxRetries) + 1;
  const started = performance.now();
  let maybeApplied = false;

  for (let attemptNumber = 1; ; attemptNumber++) {
    const request = {
      baseUrl: config.baseUrl,
      path: call.path,
      method: call.method,
      headers,
      body,
      timeoutMs,
      signal: call.signal,
      maxResponseBytes: config.maxResponseBytes,
    };
    const attemptStarted = config.logger?.debug ? performance.now() : 0;
    const outcome = await traceAttempt(request, call, attemptNumber, secrets, config.transport);
    if (config.logger?.debug)
      logAttempt(config.logger, call, attemptNumber, secrets, outcome, attemptStarted);
    const answer = answerOf(outcome);
    if (answer && answer.status >= 200 && answer.status < 300) {
      const response = responseOf(answer, attemptNumber, started, secrets);
      const body = readSuccess(call, answer, response, secrets, maybeApplied);
      if (slot) slot.response = response;
      return body;
    }
    if (outcome.kind === 'aborted') throw abortError(call, maybeApplied || outcome.maybeSent, attemptNumber);

    const verdict = answer
      ? judgeAnswer(call, answer, secrets)
      : judge(call, outcome as Failure, attemptNumber, timeoutMs);
    maybeApplied ||= verdict.maybeApplied;
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
    const canRetry =
      verdict.retryable &&
      (attemptNumber < maxAttempts || staleRetry) &&
      delayMs <= config.backoff.maxRetryAfterMs;
    if (!canRetry) {
      if (call.method === 'POST' && maybeApplied) {
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
    if (!(await sleep(delayMs, call.signal))) throw abortError(call, maybeApplied, attemptNumber);
  }
}

/** Per client, the headers of its calls that add none of their own: built once, frozen, and shared. */
const fixedHeaders = new WeakMap<TransportConfig, Readonly<Record<string, string>>>();

function buildHeaders(config: TransportConfig, call: CallSpec<unknown>): Readonly<Record<string, string>> {
  if (call.headers === undefined && call.userToken === undefined && call.body === undefined) {
    let fixed = fixedHeaders.get(config);
    if (!fixed) {
      fixed = Object.freeze({ ...config.headers, 'x-api-key': config.apiKey });
      fixedHeaders.set(config, fixed);
    }
    return fixed;
  }
  const headers: Record<string, string> = { ...config.headers, ...call.headers, 'x-api-key': config.apiKey };
  if (call.userToken !== undefined) headers.authorization = `Bearer ${call.userToken}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

type Failure = Extract<AttemptOutcome, { kind: 'network' | 'timeout' }>;

/** The answer an outcome carries, if the server answered at all. */
function answerOf(outcome: AttemptOutcome): Answer | undefined {
  if (outcome.kind === 'response') return outcome;
  if (outcome.kind === 'unreadable') return { ...outcome, text: '' };
  return undefined;
}

function judge(call: CallSpec<unknown>, outcome: Failure, attempts: number, timeoutMs: number): Verdict {
  if (outcome.kind === 'timeout') {
    return {
      error: new WalletTimeoutError({ endpoint: call.endpoint, attempts, timeoutMs }),
      retryable: true,
      maybeApplied: outcome.maybeSent,
    };
  }
  const message = outcome.redirect
    ? `${call.endpoint} failed: the API answered with a redirect, which is not followed so the API key never reaches another host`
    : `${call.endpoint} failed after ${attempts} attempt(s): ${outcome.description}`;
  const error = new WalletConnectionError({ message, endpoint: call.endpoint, attempts });
  // A redirect answers a request that was sent: a POST may have been applied behind it, so it is
  // retried under its reference id; a GET learns nothing more by asking again.
  return { error, retryable: !outcome.redirect || call.method === 'POST', maybeApplied: outcome.maybeSent };
}

/**
 * The "not applied" rule: a POST answered 4xx, or with a documented business code other than
 * `internal_server_error`, was not applied. Any other answer (a 5xx without such a code, 503 and
 * a CDN's 520/524 included) may come from a proxy after the service applied it: it is retried
 * under the same reference id and, if never confirmed, ends unknown.
 */
function judgeAnswer(call: CallSpec<unknown>, answer: Answer, secrets: readonly string[]): Verdict {
  const error = apiError(call.endpoint, answer, secrets);
  const businessCode = error.code !== 'unknown_error' && error.code !== 'internal_server_error';
  const clientError = answer.status >= 400 && answer.status < 500;
  const maybeApplied = call.method === 'POST' && !clientError && !businessCode;
  return {
    error,
    retryable:
      !businessCode && (RETRYABLE_CLIENT_ERRORS.has(answer.status) || answer.status >= 500 || maybeApplied),
    maybeApplied,
    retryAfterMs: error.retryAfterMs,
  };
}

/**
 * Parses and validates a 2xx answer. An unreadable one keeps no secret in its body, and
 * after an earlier attempt of a POST that may have been applied it ends unknown: the
 * caller must not take it for a failure and pay again under a new reference id.
 */
function readSuccess<T>(
  call: CallSpec<T>,
  answer: Answer,
  response: WalletResponse,
  secrets: readonly string[],
  maybeApplied: boolean,
): T {
  const { status, attempts } = response;
  try {
    return call.validate(parseSuccessBody(call.endpoint, answer, secrets), status);
  } catch (error) {
    if (!(error instanceof WalletResponseValidationError)) throw error;
    const redacted = new WalletResponseValidationError({
      issues: error.issues,
      endpoint: call.endpoint,
      status,
      body: redactSecrets(error.body, secrets),
    });
    if (call.method !== 'POST') throw redacted;
    // A 2xx means the service took the money-moving request; an unreadable answer hides its
    // transaction id and status, so the caller must confirm it rather than treat it as failed.
    throw outcomeUnknown(
      call,
      attempts,
      maybeApplied
        ? 'an earlier attempt may have been applied and the answer to the retry could not be read'
        : `the service accepted the request (HTTP ${status}) but its answer could not be read`,
      redacted,
    );
  }
}

function isReferenceAlreadyUsed(error: WalletError): boolean {
  return error instanceof WalletApiError && error.code === 'reference_already_used';
}

function outcomeUnknown(
  call: CallSpec<unknown>,
  attempts: number,
  reason: string,
  cause: WalletError,
): WalletOutcomeUnknownError {
  return new WalletOutcomeUnknownError({
    endpoint: call.endpoint,
    referenceId: call.referenceId ?? '',
    attempts,
    reason,
    cause,
    body: call.body,
  });
}

function abortError(call: CallSpec<unknown>, maybeApplied: boolean, attempts: number): WalletError {
  const reason = call.signal?.reason;
  if (call.method !== 'POST' || !maybeApplied) return new WalletAbortError(call.endpoint, reason);
  return new WalletOutcomeUnknownError({
    endpoint: call.endpoint,
    referenceId: call.referenceId ?? '',
    attempts,
    reason: 'the call was aborted after the request was sent',
    cause: reason,
    body: call.body,
  });
}
