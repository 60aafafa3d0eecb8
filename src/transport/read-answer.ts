import { defaultErrorMessage, type WalletEndpoint } from '../error-codes.js';
import { WalletApiError, WalletResponseValidationError } from '../errors.js';
import type { ResponseHeaders } from './attempt.js';
import { parseRetryAfter } from './backoff.js';
import { readErrorBody } from './error-body.js';
import { redactSecrets } from './redact.js';
import { requestIdOf } from './response.js';

/** An answer as the decision point sees it: `problem` says why its body could not be read. */
export interface Answer {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly text: string;
  readonly problem?: string | undefined;
}

/** The `WalletApiError` for a non-2xx answer, with every secret taken out of its body and request id. */
export function apiError(
  endpoint: WalletEndpoint,
  answer: Answer,
  secrets: readonly string[],
): WalletApiError {
  const body = redactSecrets(parseLoosely(answer.text), secrets);
  const reading = readErrorBody(body);
  const message =
    reading.message ??
    (reading.code !== 'unknown_error'
      ? defaultErrorMessage(reading.code, endpoint)
      : answer.problem
        ? `the API answered HTTP ${answer.status} and its ${answer.problem}`
        : `the API answered HTTP ${answer.status} without a recognised error code`);
  return new WalletApiError({
    code: reading.code,
    message,
    status: answer.status,
    endpoint,
    requestId: requestIdOf(answer.headers, secrets),
    body,
    retryAfterMs: parseRetryAfter(answer.headers.get('retry-after')),
  });
}

/** The JSON of a 2xx answer, or a `WalletResponseValidationError` saying why it cannot be read. */
export function parseSuccessBody(
  endpoint: WalletEndpoint,
  answer: Answer,
  secrets: readonly string[],
): unknown {
  const { status, text, problem } = answer;
  if (problem !== undefined) {
    throw new WalletResponseValidationError({
      issues: [{ path: '', message: problem }],
      endpoint,
      status,
      body: '',
    });
  }
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

/** The JSON of `text`, else `text` itself (`''` for blank): an error body may be anything. */
export function parseLoosely(text: string): unknown {
  if (text.trim() === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
