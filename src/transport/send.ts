import { traceAttempt } from '../diagnostics/request-trace.js';
import { defaultErrorMessage, type WalletEndpoint } from '../error-codes.js';
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
import type { AttemptOutcome, ResponseHeaders, Transport } from './attempt.js';
import { type BackoffPolicy, backoffDelay, parseRetryAfter } from './backoff.js';
import { readErrorBody } from './error-body.js';
import { logAttempt } from './log-attempt.js';
import { redactSecrets } from './redact.js';
import { responseOf, type WalletResponse } from './response.js';
import { sleep } from './sleep.js';

/** Statuses worth another attempt: the request was not processed, or the failure was transient. */
const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);
/** Statuses that say the server did not act on the request, so a POST answered with them was not applied. */
const NOT_APPLIED_STATUSES = new Set([408, 425, 429, 503]);

/** Settings shared by every call of one client. */
export interface TransportConfig {
  readonly baseUrl: URL;
  readonly apiKey: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly maxRetries: number;
  readonly timeoutMs: number;
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

/** A successful response's validated body, and the exchange behind it. */
export interface CallResult<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly response: WalletResponse;
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
 * cannot be confirmed ends in `WalletOutcomeUnknownError`, never a guess.
 */
export async function send<T>(config: TransportConfig, call: CallSpec<T>): Promise<CallResult<T>> {
  const url = new URL(call.path, config.baseUrl);
  const headers = buildHeaders(config, call);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const timeoutMs = call.timeoutMs ?? config.timeoutMs;
  const secrets = call.userToken ? [config.apiKey, call.userToken] : [config.apiKey];
  const maxAttempts = (call.maxRetries ?? config.maxRetries) + 1;
  const started = performance.now();
  let maybeApplied = false;

  for (let attemptNumber = 1; ; attemptNumber++) {
    const request = { url, method: call.method, headers, body, timeoutMs, signal: call.signal };
    const attemptStarted = config.logger?.debug ? performance.now() : 0;
    const outcome = await traceAttempt(request, call, attemptNumber, secrets, () =>
      config.transport(request),
    );
    if (config.logger?.debug)
      logAttempt(config.logger, call, attemptNumber, secrets, outcome, attemptStarted);
    if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300) {
      const response = responseOf(outcome, attemptNumber, started, secrets);
      return readSuccess(call, response, outcome.text, secrets, maybeApplied);
    }
    if (outcome.kind === 'aborted') throw abortError(call, maybeApplied || outcome.maybeSent, attemptNumber);

    const verdict = judge(call, outcome, attemptNumber, timeoutMs, secrets);
    maybeApplied ||= verdict.maybeApplied;
    if (call.method === 'POST' && attemptNumber > 1 && isReferenceAlreadyUsed(verdict.error)) {
      throw outcomeUnknown(
        call,
        attemptNumber,
        'a retry was answered reference_already_used, so an earlier attempt was most likely applied',
        verdict.error,
      );
    }
    const delayMs = verdict.retryAfterMs ?? backoffDelay(attemptNumber - 1, config.backoff);
    const canRetry =
      verdict.retryable && attemptNumber < maxAttempts && delayMs <= config.backoff.maxRetryAfterMs;
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

function buildHeaders(config: TransportConfig, call: CallSpec<unknown>): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers, ...call.headers, 'x-api-key': config.apiKey };
  if (call.userToken !== undefined) headers.authorization = `Bearer ${call.userToken}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

function judge(
  call: CallSpec<unknown>,
  outcome: Exclude<AttemptOutcome, { kind: 'aborted' }>,
  attempts: number,
  timeoutMs: number,
  secrets: readonly string[],
): Verdict {
  switch (outcome.kind) {
    case 'timeout':
      return {
        error: new WalletTimeoutError({ endpoint: call.endpoint, attempts, timeoutMs }),
        retryable: true,
        maybeApplied: outcome.maybeSent,
      };
    case 'network': {
      const message = outcome.redirect
        ? `${call.endpoint} failed: the API answered with a redirect, which is refused so the API key never reaches another host`
        : `${call.endpoint} failed after ${attempts} attempt(s): ${outcome.description}`;
      const error = new WalletConnectionError({ message, endpoint: call.endpoint, attempts });
      return { error, retryable: !outcome.redirect, maybeApplied: outcome.maybeSent };
    }
    case 'response': {
      const error = apiError(call.endpoint, outcome, secrets);
      const transient = error.code === 'unknown_error' || error.code === 'internal_server_error';
      const retryable = RETRYABLE_STATUSES.has(outcome.status) && transient;
      return {
        error,
        retryable,
        maybeApplied: retryable && !NOT_APPLIED_STATUSES.has(outcome.status),
        retryAfterMs: error.retryAfterMs,
      };
    }
  }
}

function apiError(
  endpoint: WalletEndpoint,
  response: { status: number; headers: ResponseHeaders; text: string },
  secrets: readonly string[],
): WalletApiError {
  const body = redactSecrets(parseLoosely(response.text), secrets);
  const reading = readErrorBody(body);
  const message =
    reading.message ??
    (reading.code === 'unknown_error'
      ? `the API answered HTTP ${response.status} without a recognised error code`
      : defaultErrorMessage(reading.code, endpoint));
  return new WalletApiError({
    code: reading.code,
    message,
    status: response.status,
    endpoint,
    requestId: redactSecrets(response.headers.get('x-request-id') ?? undefined, secrets),
    body,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/**
 * Parses and validates a 2xx answer. An unreadable one keeps no secret in its body, and
 * after an earlier attempt of a POST that may have been applied it ends unknown: the
 * caller must not take it for a failure and pay again under a new reference id.
 */
function readSuccess<T>(
  call: CallSpec<T>,
  response: WalletResponse,
  text: string,
  secrets: readonly string[],
  maybeApplied: boolean,
): CallResult<T> {
  const { status, attempts } = response;
  try {
    const body = call.validate(parseSuccessBody(call.endpoint, status, text, secrets), status);
    return { status, body, response };
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

function parseSuccessBody(
  endpoint: WalletEndpoint,
  status: number,
  text: string,
  secrets: readonly string[],
): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new WalletResponseValidationError({
      issues: [{ path: '', message: text.trim() === '' ? 'body is empty' : 'body is not valid JSON' }],
      endpoint,
      status,
      body: redactSecrets(text, secrets),
    });
  }
}

function parseLoosely(text: string): unknown {
  if (text.trim() === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
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
