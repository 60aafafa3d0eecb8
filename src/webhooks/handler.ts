import { traceWebhooks, type WalletWebhookTrace } from '../diagnostics/webhook-trace.js';
import { WalletConfigError } from '../errors.js';
import type { WalletLogger } from '../logger.js';
import type { TransactionResult } from '../schemas/responses.js';
import { resolveMaxBytes, unreadable } from './body.js';
import {
  claimOutcome,
  createMemoryDedupeStore,
  DEFAULT_LEASE_MS,
  dedupeKey,
  type WebhookDedupeStore,
} from './dedupe.js';
import { WalletWebhookError } from './errors.js';
import {
  parseWebhookEvent,
  type TransactionEvent,
  type UserAuthorizedEvent,
  type WebhookEvent,
} from './parse.js';
import { checkFloodOptions, type FloodOptions, readGate } from './read-gate.js';
import { readRequestBody } from './read-request.js';
import { inProgress, json, methodNotAllowed, refused, retryLater } from './responses.js';
import {
  disagreementsWith,
  type TransactionReader,
  type UnverifiedTransaction,
  type UnverifiedTransactionEvent,
  type VerifiedTransaction,
} from './verify.js';

/** The `maxBytes` of each handler `createWebhookHandler` made, so `toNodeHandler` can apply the same limit. */
export const handlerLimits = new WeakMap<object, number>();

/** A Fetch-API request handler, as Bun, Deno, Cloudflare Workers, Hono and Next.js route handlers use. */
export type WebhookHandler = (request: Request) => Promise<Response>;

/** What every callback gets besides the event. */
export interface WebhookContext {
  /** The incoming request (its body already read), e.g. to look at headers. */
  readonly request: Request;
}

/**
 * What `onTransaction` gets besides the event: `verified` tells whether `status`, the transaction
 * as read back from the status endpoint, is there. Act on `status`; the event is only what was posted.
 */
export type TransactionContext = WebhookContext & (VerifiedTransaction | UnverifiedTransaction);

/** Where a failure reported to `onError` happened. */
export interface WebhookErrorInfo {
  /**
   * `body`: refused body (400/413); `verify`: the read-back failed, or disagreed with the webhook
   * (503); `dedupe`: the store failed (500); `callback`: your callback threw (500).
   */
  readonly stage: 'body' | 'verify' | 'dedupe' | 'callback';
  /** The event, once the body was parsed. */
  readonly event?: WebhookEvent;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions extends FloodOptions {
  /**
   * Called once per `user_authorized` event. Without it the event is acknowledged (200) and ignored,
   * and the first such event is reported at `warn` to `logger`.
   */
  onUserAuthorized?: (event: UserAuthorizedEvent, context: WebhookContext) => void | Promise<void>;
  /**
   * Called once per transaction status change. `event` is the body as posted (unauthenticated); with
   * `verifyWith`, `context.status` is the transaction as read back, and the callback runs only when
   * the event agrees with it. Optional with `verifyWith`: the read-back alone records the status in
   * the client's journal and settles the payment (`onSettled`, `onRefused`). Without either, the
   * event is acknowledged (200) and ignored, and the first such event is reported at `warn` to `logger`.
   */
  onTransaction?: (event: UnverifiedTransactionEvent, context: TransactionContext) => void | Promise<void>;
  /**
   * Webhooks are unsigned: anyone who knows the URL can post one. With a `WalletClient` here,
   * each transaction event is read back through the status endpoint before `onTransaction`
   * runs, and the callback gets the authoritative status. A client with a journal records the status
   * read and settles the payment with it, whether or not `onTransaction` is given. A failed read-back answers 503
   * `verification_failed`; an event that disagrees with it answers 503 `not_confirmed` without
   * calling the callback or using up the dedupe key, so the genuine delivery is still processed.
   * Concurrent deliveries of one transaction share one read; see {@link FloodOptions} for the
   * bound on reads in flight and the memory of `transaction_not_found`.
   */
  verifyWith?: TransactionReader;
  /**
   * Where processed events are remembered so redeliveries reach the callback once;
   * `false` turns deduplication off.
   * @default createMemoryDedupeStore() — 10,000 keys, this process only
   */
  dedupe?: WebhookDedupeStore | false;
  /**
   * How long a delivery's claim on its event lasts while the callback runs, in milliseconds. A
   * redelivery meanwhile is answered 503 `in_progress` (with `Retry-After`), never "duplicate":
   * if this process dies in the callback, a redelivery after the lease processes the event. A
   * callback that runs longer than the lease may run again beside it: keep callbacks idempotent.
   * @default 120000 (2 minutes)
   */
  leaseMs?: number;
  /**
   * Largest body accepted, in bytes; larger ones are answered 413 without being read in full.
   * @default 65536
   */
  maxBytes?: number;
  /**
   * Told about every failure the response hides or summarizes (a refused body, a failed
   * read-back, a throwing callback or store), for your logs and metrics. Errors it throws are ignored.
   */
  onError?: (error: unknown, info: WebhookErrorInfo) => void;
  /**
   * Where an event type that nothing handles is reported, once per type, at `warn` (nothing is
   * ignored silently). Never receives a token or an e-mail.
   * @default console
   */
  logger?: WalletLogger | undefined;
}

function checkOptions(options: WebhookHandlerOptions): void {
  for (const name of ['onUserAuthorized', 'onTransaction', 'onError'] as const) {
    if (typeof (options[name] ?? noop) !== 'function')
      throw new WalletConfigError(name, 'must be a function');
  }
  const { leaseMs, logger } = options;
  if (logger !== undefined && (typeof logger !== 'object' || logger === null))
    throw new WalletConfigError('logger', 'must be an object');
  // At most a day: a callback running longer is better retried than waited for.
  if (leaseMs !== undefined && !(typeof leaseMs === 'number' && leaseMs >= 1 && leaseMs <= 864e5))
    throw new WalletConfigError('leaseMs', 'must be a number of milliseconds from 1 to 86400000');
  checkFloodOptions(options);
}

const noop = () => undefined;

/**
 * Creates a webhook endpoint for the Fetch API. It answers:
 *
 * - 200 `{"received":true}` once the callback has returned (or resolved), and for a duplicate
 *   or an event nothing handles (reported once per type to `logger`), which are acknowledged
 *   without processing;
 * - 400 `{"error":<reason>,"message"}` for a body that is not a known, well-formed event,
 *   413 for one over `maxBytes`: redelivering it cannot help;
 * - 405 with `Allow: POST` for other methods;
 * - 500 when the callback (or the dedupe store) throws, 503 when `verifyWith` could not read
 *   the transaction back or the event disagrees with it: the service should deliver it again.
 *   The event's dedupe key is released (or, for a 503, never claimed), so that redelivery is processed;
 * - 503 `in_progress` with `Retry-After` while another delivery of the event holds its lease
 *   (`leaseMs`): that one may yet die, so this one must come again;
 * - 503 `busy` with `Retry-After: 1` when `maxVerifications` read-backs are in flight, and 503
 *   `verification_failed` with `Retry-After` while a `transaction_not_found` is remembered (`notFoundMs`).
 *
 * Each delivery is traced on the `merchant-wallet:webhook` diagnostics channel when anyone
 * subscribes (see {@link WalletWebhookTrace}).
 *
 * @throws {WalletConfigError} at creation, for an option of the wrong type.
 * @example
 * const handler = createWebhookHandler({
 *   verifyWith: wallet,
 *   onUserAuthorized: async (event) => tokens.save(event.user_email, event.token),
 *   onTransaction: async (event, context) => {
 *     if (context.verified) await orders.settle(context.status.transaction_id, context.status.transaction_status);
 *   },
 * });
 * export const POST = handler; // Next.js route handler
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  checkOptions(options);
  const maxBytes = resolveMaxBytes(options.maxBytes);
  const { onUserAuthorized, onTransaction, verifyWith, onError } = options;
  const store = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDedupeStore());
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const gate = verifyWith && readGate(verifyWith, options);

  const report = (error: unknown, info: WebhookErrorInfo): void => {
    try {
      onError?.(error, info);
    } catch {
      // A failing error reporter must not change the answer the sender gets.
    }
  };

  const warned = new Set<string>();
  const ignored = (type: WebhookEvent['type'], trace: WalletWebhookTrace | undefined): Response => {
    if (trace) trace.outcome = 'ignored';
    if (!warned.has(type)) {
      warned.add(type);
      try {
        // Short: this entry's size is budgeted. docs/webhooks.md names what handles each type.
        (options.logger ?? console).warn?.(`${type} webhooks ignored: nothing handles them`);
      } catch {
        // A failing logger must not change the answer the sender gets.
      }
    }
    return json(200, { received: true, ignored: true });
  };

  async function deliver(
    event: WebhookEvent,
    trace: WalletWebhookTrace | undefined,
    run: () => unknown,
  ): Promise<Response> {
    let key: string | undefined;
    let lease = '';
    if (store) {
      try {
        key = await dedupeKey(event);
        const claim = claimOutcome(await store.claim(key, leaseMs));
        if (trace) trace.duplicate = claim.outcome === 'duplicate';
        if (trace) trace.dedupe = claim.outcome;
        if (claim.outcome === 'duplicate') return json(200, { received: true, duplicate: true });
        if (claim.outcome === 'in_progress') return inProgress(claim.retryAfterMs);
        lease = claim.lease;
      } catch (error) {
        report(error, { stage: 'dedupe', event });
        return retryLater(500, 'dedupe_failed');
      }
    }
    // Never throws: a store that fails here is reported, and the lease then just runs out.
    const settleKey = (how: 'complete' | 'release') =>
      store && key !== undefined
        ? Promise.resolve()
            .then(() => store[how]?.(key as string, lease))
            .catch((storeError: unknown) => report(storeError, { stage: 'dedupe', event }))
        : undefined;
    try {
      await run();
    } catch (error) {
      report(error, { stage: 'callback', event });
      await settleKey('release');
      return retryLater(500, 'callback_failed');
    }
    await settleKey('complete');
    return json(200, { received: true });
  }

  async function handleTransaction(
    event: TransactionEvent,
    request: Request,
    trace: WalletWebhookTrace | undefined,
  ): Promise<Response> {
    if (!gate) {
      if (!onTransaction) return ignored('transaction', trace);
      if (trace) trace.verified = false;
      return deliver(event, trace, () => onTransaction(event, { request, verified: false }));
    }
    if (trace) trace.verified = false;
    // Busy, or a transaction the status endpoint did not know a moment ago: answered unread.
    return gate(event.transaction_id, async (read) => {
      let status: TransactionResult;
      try {
        status = await read;
        const issues = disagreementsWith(event, status);
        // Neither processed nor claimed: a forgery must not use up the key of the real status change,
        // and a genuine delivery ahead of the status endpoint is processed when it is delivered again.
        if (issues.length > 0) {
          throw new WalletWebhookError('not_confirmed', 'Webhook differs from the status endpoint', issues);
        }
      } catch (error) {
        report(error, { stage: 'verify', event });
        return retryLater(503, error instanceof WalletWebhookError ? error.reason : 'verification_failed');
      }
      if (trace) trace.verified = true;
      // The event agrees with `status`, so its dedupe key is that of the confirmed status change.
      // Reading it back recorded the status in the client's journal and settled the payment.
      return deliver(event, trace, () => onTransaction?.(event, { request, verified: true, status }));
    });
  }

  const handler = async (request: Request, trace?: WalletWebhookTrace): Promise<Response> => {
    if (request.method !== 'POST') return methodNotAllowed();
    let event: WebhookEvent;
    try {
      event = parseWebhookEvent(await readRequestBody(request, maxBytes), { maxBytes });
    } catch (error) {
      report(error, { stage: 'body' });
      return refused(error instanceof WalletWebhookError ? error : unreadable());
    }
    if (trace) {
      // Only what identifies the event: never the e-mail or the token of a user_authorized event.
      trace.type = event.type;
      if (event.type === 'transaction') {
        trace.transactionId = event.transaction_id;
        trace.referenceId = event.reference_id;
      }
    }
    if (event.type === 'transaction') return handleTransaction(event, request, trace);
    if (!onUserAuthorized) return ignored('user_authorized', trace);
    return deliver(event, trace, () => onUserAuthorized(event, { request }));
  };
  const traced = traceWebhooks(handler);
  handlerLimits.set(traced, maxBytes);
  return traced;
}
