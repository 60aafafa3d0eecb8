/**
 * How the send loop judges an attempt: whether a failure may be retried and may have been applied,
 * and which error a call ends with, by the money-safety rules of docs/certainty.md.
 */
import { codesOfKind } from '../error-codes.js';
import {
  WalletAbortError,
  WalletApiError,
  WalletConnectionError,
  type WalletError,
  WalletOutcomeUnknownError,
  WalletResponseValidationError,
  WalletTimeoutError,
} from '../errors.js';
import type { AttemptOutcome } from './attempt.js';
import type { CallSpec } from './call-spec.js';
import { type Answer, apiError, parseSuccessBody } from './read-answer.js';
import { redactSecrets } from './redact.js';

/** Codes judged by the answer's status, like an answer without a code: any other is the service's refusal. */
const JUDGED_BY_STATUS = codesOfKind((kinds) => kinds.attempt === 'by-status');

/** 4xx statuses worth another attempt: the server did not act on the request, and may later. */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 425, 429]);

/** How one attempt ended, once judged. */
interface Verdict {
  readonly error: WalletError;
  readonly retryable: boolean;
  /** Whether the request may have been applied on the server. */
  readonly maybeApplied: boolean;
  readonly retryAfterMs?: number | undefined;
}

export type Failure = Extract<AttemptOutcome, { kind: 'network' | 'timeout' }>;

/** The answer an outcome carries, if the server answered at all. */
export function answerOf(outcome: AttemptOutcome): Answer | undefined {
  if (outcome.kind === 'response') return outcome;
  if (outcome.kind === 'unreadable') return { ...outcome, text: '' };
  return undefined;
}

export function judge(
  call: CallSpec<unknown>,
  outcome: Failure,
  attempts: number,
  timeoutMs: number,
): Verdict {
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
export function judgeAnswer(call: CallSpec<unknown>, answer: Answer, secrets: readonly string[]): Verdict {
  const error = apiError(call.endpoint, answer, secrets);
  const businessCode = !JUDGED_BY_STATUS.has(error.code);
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
export function readSuccess<T>(
  call: CallSpec<T>,
  answer: Answer,
  attempts: number,
  secrets: readonly string[],
  maybeApplied: boolean,
): T {
  const { status } = answer;
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

export function isReferenceAlreadyUsed(error: WalletError): boolean {
  return error instanceof WalletApiError && error.code === 'reference_already_used';
}

export function outcomeUnknown(
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

export function abortError(call: CallSpec<unknown>, maybeApplied: boolean, attempts: number): WalletError {
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
