import type { WalletApiErrorCode, WalletEndpoint } from './error-codes.js';
import { WalletError, type WalletIssue } from './wallet-error.js';

export { WalletError, type WalletIssue, WalletJournalError } from './wallet-error.js';

/**
 * Marks every API error, subclasses included, so `instanceof WalletApiError` holds across the ESM and
 * CJS builds and across realms, without this module knowing the subclasses other layers define.
 */
const walletApiErrorBrand = Symbol.for('merchant-wallet.api-error');

/** The API answered a request with an error. */
export class WalletApiError<C extends WalletApiErrorCode = WalletApiErrorCode> extends WalletError {
  /** `'WalletApiError'`, or the name of the subclass (each narrows it to its own). */
  override readonly name: string = 'WalletApiError';
  /** A documented error code, or `unknown_error` when the body carried none the SDK knows. */
  readonly code: C;
  /** HTTP status of the response. */
  readonly status: number;
  /** The endpoint that answered. */
  readonly endpoint: WalletEndpoint;
  /** The service's request id, from the `x-request-id` response header when present. */
  readonly requestId: string | undefined;
  /** The response body as received: parsed JSON when it was JSON, else the text. */
  readonly body: unknown;
  /**
   * How long the API asked to wait before asking again (its `Retry-After` header, in seconds or
   * as an HTTP date), in milliseconds; `undefined` when it sent none. `waitForTransaction` honours
   * it after a 429 or 503.
   */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    code: C;
    message: string;
    status: number;
    endpoint: WalletEndpoint;
    requestId?: string | undefined;
    body: unknown;
    retryAfterMs?: number | undefined;
  }) {
    super(`${init.message} (${init.code}, HTTP ${init.status} from ${init.endpoint})`);
    this.code = init.code;
    this.status = init.status;
    this.endpoint = init.endpoint;
    this.requestId = init.requestId;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
    Object.defineProperty(this, walletApiErrorBrand, { value: true });
  }

  /**
   * `error instanceof WalletApiError` is true for an API error of any subclass, also one thrown by the
   * other build or another realm; subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the receiver is the point of this method.
    if (this !== WalletApiError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && walletApiErrorBrand in value;
  }
}

/** `subject: path: message; …`, the message of an error that lists its issues. */
export function describeIssues(subject: string, issues: readonly WalletIssue[]): string {
  const lines = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  return `${subject}: ${lines.join('; ')}`;
}

/** The SDK refused to send a request because an argument was invalid. Nothing was sent. */
export class WalletRequestValidationError extends WalletError {
  /** Always `'WalletRequestValidationError'`. */
  override readonly name = 'WalletRequestValidationError' as const;
  /** Every problem found, each naming its field. */
  readonly issues: readonly WalletIssue[];

  constructor(issues: readonly WalletIssue[], subject = 'Invalid request') {
    super(describeIssues(subject, issues));
    this.issues = issues;
  }
}

/**
 * A successful (2xx) response did not have the documented shape, or a value the API sends (such
 * as `date_completed` given to `parseDateCompleted`) could not be read.
 */
export class WalletResponseValidationError extends WalletError {
  /** Always `'WalletResponseValidationError'`. */
  override readonly name = 'WalletResponseValidationError' as const;
  /** Every problem found, each naming its field. */
  readonly issues: readonly WalletIssue[];
  /** The endpoint that answered; `undefined` when the value was checked outside a response (`parseDateCompleted`). */
  readonly endpoint: WalletEndpoint | undefined;
  /** The HTTP status of that answer; `undefined` when there was no response. */
  readonly status: number | undefined;
  /** The response body (or the value) as received. */
  readonly body: unknown;

  constructor(
    init:
      | { issues: readonly WalletIssue[]; endpoint: WalletEndpoint; status: number; body: unknown }
      | { issues: readonly WalletIssue[]; subject: string; body: unknown },
  ) {
    const subject =
      'subject' in init ? init.subject : `Unexpected response from ${init.endpoint} (HTTP ${init.status})`;
    super(describeIssues(subject, init.issues));
    this.issues = init.issues;
    this.endpoint = 'endpoint' in init ? init.endpoint : undefined;
    this.status = 'status' in init ? init.status : undefined;
    this.body = init.body;
  }
}

/** The request could not reach the service, or the connection failed, on every attempt. */
export class WalletConnectionError extends WalletError {
  /** `'WalletConnectionError'`, or `'WalletTimeoutError'` for that subclass. */
  override readonly name: 'WalletConnectionError' | 'WalletTimeoutError' = 'WalletConnectionError';
  /** The endpoint that could not be reached, e.g. `'deposit'`. */
  readonly endpoint: WalletEndpoint;
  /** How many attempts were made, the first included (at most `maxRetries + 1`). */
  readonly attempts: number;

  constructor(init: { message: string; endpoint: WalletEndpoint; attempts: number; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.endpoint = init.endpoint;
    this.attempts = init.attempts;
  }
}

/** Every attempt ran past `timeoutMs`. */
export class WalletTimeoutError extends WalletConnectionError {
  /** Always `'WalletTimeoutError'`. */
  override readonly name = 'WalletTimeoutError' as const;
  /** The per-attempt time limit that was exceeded. */
  readonly timeoutMs: number;

  constructor(init: { endpoint: WalletEndpoint; attempts: number; timeoutMs: number }) {
    super({
      message: `${init.endpoint} timed out after ${init.timeoutMs} ms on each of ${init.attempts} attempt(s)`,
      endpoint: init.endpoint,
      attempts: init.attempts,
    });
    this.timeoutMs = init.timeoutMs;
  }
}

/** The caller's `AbortSignal` stopped the call before anything could have been applied. */
export class WalletAbortError extends WalletError {
  /** Always `'WalletAbortError'`. */
  override readonly name = 'WalletAbortError' as const;
  /** The endpoint of the call that was stopped. */
  readonly endpoint: WalletEndpoint;

  constructor(endpoint: WalletEndpoint, reason: unknown) {
    super(`${endpoint} was aborted by the caller`, { cause: reason });
    this.endpoint = endpoint;
  }
}

/**
 * A money-moving request may or may not have been applied: an attempt died after
 * it was sent, or a retry was answered `reference_already_used`. Do not send a new
 * request with a new reference id; find out what happened first (the transaction
 * webhook, or a later retry with the same `referenceId`).
 */
export class WalletOutcomeUnknownError extends WalletError {
  /** Always `'WalletOutcomeUnknownError'`. */
  override readonly name = 'WalletOutcomeUnknownError' as const;
  /** The money-moving endpoint: `'deposit'` or `'withdraw'`. */
  readonly endpoint: WalletEndpoint;
  /** The reference id the request carried; the service keeps it unique, so it identifies the payment. */
  readonly referenceId: string;
  /** How many attempts were sent, the first included. */
  readonly attempts: number;
  /**
   * The request body as sent, for `wallet.resolveOutcome`, which re-sends it under the same
   * `reference_id`. It holds no secret: the API key and user token travel in headers.
   */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  /**
   * The identity of the merchant whose client sent it (`WalletClient.merchant`): `resolveOutcome`
   * refuses to re-send it through another merchant's client.
   */
  declare merchant?: string;

  constructor(init: {
    endpoint: WalletEndpoint;
    referenceId: string;
    attempts: number;
    reason: string;
    cause?: unknown;
    body?: Readonly<Record<string, unknown>> | undefined;
  }) {
    super(
      `Outcome of ${init.endpoint} with reference_id "${init.referenceId}" is unknown: ${init.reason}. It may have been applied; do not retry it with a new reference_id`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.endpoint = init.endpoint;
    this.referenceId = init.referenceId;
    this.attempts = init.attempts;
    this.body = init.body;
  }
}

/**
 * Something was configured wrongly (missing API key, bad base URL, bad or unknown option). Thrown
 * before anything is sent; every problem found is named in one error, each in `issues`.
 */
export class WalletConfigError extends WalletError {
  /** Always `'WalletConfigError'`. */
  override readonly name = 'WalletConfigError' as const;
  /** The option at fault, e.g. `baseUrl` or `headers.X-Trace`; the first one when there are several. */
  readonly option: string;
  /** Every problem found, each naming its option in `path`. */
  readonly issues: readonly WalletIssue[];

  /**
   * @param option The option at fault, when there is one problem; or every problem found.
   * @param problem What is wrong with `option`; or, with a list of problems, what was being checked.
   */
  constructor(option: string, problem: string);
  constructor(issues: readonly WalletIssue[], subject: string);
  constructor(option: string | readonly WalletIssue[], problem: string) {
    const issues = typeof option === 'string' ? [{ path: option, message: problem }] : option;
    super(typeof option === 'string' ? `${option}: ${problem}` : describeIssues(problem, issues));
    this.option = issues[0]?.path ?? '';
    this.issues = issues;
  }
}
