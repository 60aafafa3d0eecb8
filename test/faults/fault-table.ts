import type { FaultAction, WalletEndpoint } from '../../src/testing/index.js';

/**
 * Per-attempt time limit of the clients under test. It is generous so that a loaded machine never
 * turns an ordinary answer into a timeout; the rows about slowness set their own, shorter one.
 */
export const TIMEOUT_MS = 3_000;
/** The time limit of the rows about slow responses, and how slow those responses are. */
const SLOW_TIMEOUT_MS = 500;
const SLOW_MS = 2_000;

/** What a call must end in, exactly. `attempts` is how many requests the client made. */
export type Expected =
  /** Resolved; for POSTs, `transactions` is how many the sandbox holds for the reference id afterwards. */
  | {
      kind: 'success';
      attempts: number;
      transactions?: number;
      /** Bounds of the delay the client logged before its retry. */
      retryDelayMs?: readonly [number, number];
      /** The result is the body the fault answered with ({@link VALID_BODIES}), not the service's. */
      canned?: true;
    }
  | { kind: 'api'; status: number; code: string; attempts: number; bodyIncludes?: string }
  /** `issuePath` names the field at fault (`''` for the whole body); `issueMessage` is checked when given. */
  | {
      kind: 'response-validation';
      status: number;
      issuePath: string;
      issueMessage?: string;
      attempts: number;
    }
  | { kind: 'connection'; attempts: number }
  | { kind: 'timeout'; attempts: number }
  /**
   * `WalletOutcomeUnknownError` with the call's reference id; `transactions` as for success.
   * `unreadable` names the issue of the `WalletResponseValidationError` cause when a 2xx could not be read.
   */
  | {
      kind: 'unknown';
      attempts: number;
      transactions: number;
      unreadable?: { issuePath: string; issueMessage?: string };
    };

/** One row: a fault, how often it fires, and the outcome for money-moving POSTs and for GETs. */
export interface FaultCase {
  readonly name: string;
  /** The fault, built per route (some bodies depend on the endpoint). */
  readonly fault: (route: WalletEndpoint) => FaultAction;
  /** `once` fires on the first attempt only; `always` on every attempt. */
  readonly fires: 'once' | 'always';
  /** Time the sandbox needs to finish requests still running after the call settled. */
  readonly settleMs?: number;
  /** This row's per-attempt time limit, when not {@link TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  readonly post: Expected;
  readonly get: Expected;
  /** The status lookup's outcome, when it differs from the other GET's (its answer must name the id read). */
  readonly status?: Expected;
}

/** A body each route documents as valid, used by faults that answer 2xx themselves. */
export const VALID_BODIES: Record<WalletEndpoint, Record<string, unknown>> = {
  deposit: {
    transaction_id: 'txn_fake',
    reference_id: 'ref-fake',
    transaction_status: 'completed',
    amount: 1,
    currency: 'KES',
  },
  withdraw: {
    transaction_id: 'txn_fake',
    reference_id: 'ref-fake',
    transaction_status: 'completed',
    amount: 1,
    currency: 'KES',
  },
  status: {
    transaction_id: 'txn_fake',
    transaction_status: 'completed',
    amount: '1.00',
    currency: 'KES',
    failure_reason: null,
  },
  providers: {
    default_deposit_provider: 'mpesa',
    default_withdraw_provider: 'mpesa',
    payment_providers: { mobile_payment_providers: [] },
  },
};

/** The documented field the "missing field" fault leaves out, per route. */
export const DROPPED_FIELD: Record<WalletEndpoint, string> = {
  deposit: 'transaction_id',
  withdraw: 'currency',
  status: 'amount',
  providers: 'default_deposit_provider',
};

const HTML_PAGE = '<html><head><title>500 Internal Server Error</title></head><body>oops</body></html>';

const respond = (status: number, body?: unknown, headers?: Record<string, string>) => (): FaultAction => ({
  kind: 'respond',
  status,
  ...(body === undefined ? {} : { body }),
  ...(headers === undefined ? {} : { headers }),
});

const succeeds = (attempts: number): Pick<FaultCase, 'post' | 'get'> => ({
  post: { kind: 'success', attempts, transactions: 1 },
  get: { kind: 'success', attempts },
});

/**
 * The fault matrix. With the default `maxRetries` of 2 a call makes at most 3 attempts.
 * Rules exercised: 408/425/429/503 mean "not applied", so a POST that only met them ends in a
 * plain `WalletApiError`; 500/502/504, timeouts and post-connect drops may have been applied,
 * so a POST that cannot be confirmed ends in `WalletOutcomeUnknownError`; a 5xx naming a
 * business code is final; a 2xx the SDK cannot read is a `WalletResponseValidationError`, wrapped
 * in `WalletOutcomeUnknownError` for POSTs, whose 2xx means the money-moving request was taken.
 */
export const FAULT_CASES: readonly FaultCase[] = [
  {
    name: '500 internal_server_error',
    fault: () => ({ kind: 'error', code: 'internal_server_error' }),
    fires: 'once',
    ...succeeds(2),
  },
  {
    name: '500 internal_server_error',
    fault: () => ({ kind: 'error', code: 'internal_server_error' }),
    fires: 'always',
    post: { kind: 'unknown', attempts: 3, transactions: 0 },
    get: { kind: 'api', status: 500, code: 'internal_server_error', attempts: 3 },
  },
  ...([502, 503, 504] as const).map(
    (status): FaultCase => ({
      name: `${status} with an empty JSON body`,
      fault: respond(status, {}),
      fires: 'once',
      ...succeeds(2),
    }),
  ),
  {
    name: '502 with an empty JSON body',
    fault: respond(502, {}),
    fires: 'always',
    post: { kind: 'unknown', attempts: 3, transactions: 0 },
    get: { kind: 'api', status: 502, code: 'unknown_error', attempts: 3 },
  },
  {
    name: '503 with an empty JSON body',
    fault: respond(503, {}),
    fires: 'always',
    post: { kind: 'api', status: 503, code: 'unknown_error', attempts: 3 },
    get: { kind: 'api', status: 503, code: 'unknown_error', attempts: 3 },
  },
  {
    name: '504 with an empty JSON body',
    fault: respond(504, {}),
    fires: 'always',
    post: { kind: 'unknown', attempts: 3, transactions: 0 },
    get: { kind: 'api', status: 504, code: 'unknown_error', attempts: 3 },
  },
  {
    name: '502 psp_error, a business code',
    fault: () => ({ kind: 'error', code: 'psp_error' }),
    fires: 'always',
    post: { kind: 'api', status: 502, code: 'psp_error', attempts: 1 },
    get: { kind: 'api', status: 502, code: 'psp_error', attempts: 1 },
  },
  {
    name: '429 with Retry-After: 1 (seconds)',
    fault: respond(429, {}, { 'retry-after': '1' }),
    fires: 'once',
    post: { kind: 'success', attempts: 2, transactions: 1, retryDelayMs: [1000, 1000] },
    get: { kind: 'success', attempts: 2, retryDelayMs: [1000, 1000] },
  },
  {
    name: '429 with Retry-After as an HTTP date about a second ahead',
    fault: () => respond(429, {}, { 'retry-after': new Date(Date.now() + 1500).toUTCString() })(),
    fires: 'once',
    post: { kind: 'success', attempts: 2, transactions: 1, retryDelayMs: [1, 1500] },
    get: { kind: 'success', attempts: 2, retryDelayMs: [1, 1500] },
  },
  {
    name: '429 without Retry-After',
    fault: respond(429, {}),
    fires: 'always',
    post: { kind: 'api', status: 429, code: 'unknown_error', attempts: 3 },
    get: { kind: 'api', status: 429, code: 'unknown_error', attempts: 3 },
  },
  {
    name: `a response slower than timeoutMs (${SLOW_MS} ms)`,
    fault: () => ({ kind: 'latency', ms: SLOW_MS }),
    fires: 'once',
    settleMs: SLOW_MS,
    timeoutMs: SLOW_TIMEOUT_MS,
    ...succeeds(2),
  },
  {
    name: `a response slower than timeoutMs (${SLOW_MS} ms)`,
    fault: () => ({ kind: 'latency', ms: SLOW_MS }),
    fires: 'always',
    settleMs: SLOW_MS,
    timeoutMs: SLOW_TIMEOUT_MS,
    post: { kind: 'unknown', attempts: 3, transactions: 1 },
    get: { kind: 'timeout', attempts: 3 },
  },
  {
    name: 'connection dropped before the request is applied',
    fault: () => ({ kind: 'drop-before' }),
    fires: 'once',
    ...succeeds(2),
  },
  {
    name: 'connection dropped before the request is applied',
    fault: () => ({ kind: 'drop-before' }),
    fires: 'always',
    post: { kind: 'unknown', attempts: 3, transactions: 0 },
    get: { kind: 'connection', attempts: 3 },
  },
  {
    name: 'connection dropped after the request is applied',
    fault: () => ({ kind: 'drop-after' }),
    fires: 'once',
    post: { kind: 'unknown', attempts: 2, transactions: 1 },
    get: { kind: 'success', attempts: 2 },
  },
  {
    name: 'connection dropped after the request is applied',
    fault: () => ({ kind: 'drop-after' }),
    fires: 'always',
    post: { kind: 'unknown', attempts: 3, transactions: 1 },
    get: { kind: 'connection', attempts: 3 },
  },
  {
    name: 'connection reset in the middle of the body',
    fault: () => ({ kind: 'reset-mid-body' }),
    fires: 'once',
    post: { kind: 'unknown', attempts: 2, transactions: 1 },
    get: { kind: 'success', attempts: 2 },
  },
  {
    name: 'connection reset in the middle of the body',
    fault: () => ({ kind: 'reset-mid-body' }),
    fires: 'always',
    post: { kind: 'unknown', attempts: 3, transactions: 1 },
    get: { kind: 'connection', attempts: 3 },
  },
  {
    name: '200 with malformed JSON',
    fault: respond(200, '{"transaction_id": "txn_', { 'content-type': 'application/json' }),
    fires: 'always',
    post: {
      kind: 'unknown',
      attempts: 1,
      transactions: 0,
      unreadable: { issuePath: '', issueMessage: 'body is not valid JSON' },
    },
    get: {
      kind: 'response-validation',
      status: 200,
      issuePath: '',
      issueMessage: 'body is not valid JSON',
      attempts: 1,
    },
  },
  {
    name: '500 with malformed JSON',
    fault: respond(500, '{"code": "internal_', { 'content-type': 'application/json' }),
    fires: 'once',
    ...succeeds(2),
  },
  {
    name: '500 HTML error page',
    fault: respond(500, HTML_PAGE, { 'content-type': 'text/html' }),
    fires: 'always',
    post: { kind: 'unknown', attempts: 3, transactions: 0 },
    get: { kind: 'api', status: 500, code: 'unknown_error', attempts: 3, bodyIncludes: '<title>500' },
  },
  {
    name: '200 HTML page',
    fault: respond(200, HTML_PAGE, { 'content-type': 'text/html' }),
    fires: 'always',
    post: {
      kind: 'unknown',
      attempts: 1,
      transactions: 0,
      unreadable: { issuePath: '', issueMessage: 'body is not valid JSON' },
    },
    get: {
      kind: 'response-validation',
      status: 200,
      issuePath: '',
      issueMessage: 'body is not valid JSON',
      attempts: 1,
    },
  },
  {
    name: '200 with an empty body',
    fault: respond(200, ''),
    fires: 'always',
    post: {
      kind: 'unknown',
      attempts: 1,
      transactions: 0,
      unreadable: { issuePath: '', issueMessage: 'body is empty' },
    },
    get: {
      kind: 'response-validation',
      status: 200,
      issuePath: '',
      issueMessage: 'body is empty',
      attempts: 1,
    },
  },
  { name: '502 with an empty body', fault: respond(502, ''), fires: 'once', ...succeeds(2) },
  {
    name: '200 with a valid JSON body about another payment, labelled text/html',
    fault: (route) => respond(200, JSON.stringify(VALID_BODIES[route]), { 'content-type': 'text/html' })(),
    fires: 'always',
    // The label is not checked, but the answer is about another reference, amount or transaction:
    // it answers no request of this call. Nothing reached the service, yet the client cannot know that.
    post: { kind: 'unknown', attempts: 1, transactions: 0, unreadable: { issuePath: 'reference_id' } },
    get: { kind: 'success', attempts: 1, canned: true },
    status: { kind: 'response-validation', status: 200, issuePath: 'transaction_id', attempts: 1 },
  },
  {
    name: '200 JSON missing a documented field',
    fault: (route) => {
      const { [DROPPED_FIELD[route]]: _dropped, ...body } = VALID_BODIES[route];
      return respond(200, body)();
    },
    fires: 'always',
    post: {
      kind: 'unknown',
      attempts: 1,
      transactions: 0,
      unreadable: { issuePath: '<dropped>' },
    },
    get: { kind: 'response-validation', status: 200, issuePath: '<dropped>', attempts: 1 },
  },
];
