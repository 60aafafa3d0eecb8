import { type TraceScope, tracingChannel } from './channel.js';

/**
 * What the `merchant-wallet:webhook` tracing channel publishes for each delivery a webhook handler
 * answers. `method` is set at `start`; the event fields once the body is parsed; `status` and
 * `outcome` by `asyncEnd`. Never carries a header, the body, the user's e-mail or token, or the answer.
 * A subscriber may set `runInScope` at `start`, so that the read-back and the callbacks run inside
 * its context (see {@link TraceScope}).
 */
export interface WalletWebhookTrace extends TraceScope {
  /** The HTTP method of the delivery. */
  readonly method: string;
  /** The event type, once the body was parsed. */
  type?: 'transaction' | 'user_authorized';
  /** The `transaction_id` of a transaction event. */
  transactionId?: string;
  /** The `reference_id` of a transaction event, when it has one. */
  referenceId?: string | undefined;
  /**
   * For a transaction event with an `onTransaction` callback: `true` when it was read back through
   * `verifyWith` and agreed with the status endpoint, `false` when it was not read back or did not agree.
   */
  verified?: boolean;
  /** Once the dedupe store was asked: `true` when the event was already processed (a redelivery). */
  duplicate?: boolean;
  /**
   * Once the dedupe store was asked, its answer: `claimed` (a first delivery, processed now),
   * `duplicate` (already processed) or `in_progress` (another delivery holds its lease; answered 503).
   */
  dedupe?: 'claimed' | 'duplicate' | 'in_progress';
  /** The HTTP status answered: 200, 400, 405, 413, 500 or 503. */
  status?: number;
  /**
   * How the delivery ended: `processed` (the callback returned), `duplicate` or `ignored` (no
   * callback for the event), all answered 200; `refused` (4xx, not redelivered); `failed` (5xx,
   * delivered again later).
   */
  outcome?: 'processed' | 'duplicate' | 'ignored' | 'refused' | 'failed';
}

/** One channel for every handler, looked up when the module loads. */
const webhookChannel = tracingChannel('merchant-wallet:webhook');

/**
 * Wraps a webhook handler so each delivery is traced on `merchant-wallet:webhook` when anyone
 * listens; otherwise it only checks `hasSubscribers`, and the handler gets no trace to fill in.
 * The traced function resolves nothing, so the published context never holds the `Response`
 * (a subscriber reading its body would take it from the sender).
 */
export function traceWebhooks(
  handle: (request: Request, trace?: WalletWebhookTrace) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return (request) => {
    const channel = webhookChannel;
    if (!channel?.hasSubscribers) return handle(request);
    const trace: WalletWebhookTrace = { method: request.method };
    let response!: Response;
    const traced = channel.tracePromise(async () => {
      // Not `inScope` (the client's lazily loaded tracing code): the webhooks entry loads no client code.
      const run = trace.runInScope;
      response = await (run ? run(() => handle(request, trace)) : handle(request, trace));
      const { status } = response;
      trace.status = status;
      trace.outcome ??=
        status >= 500 ? 'failed' : status >= 400 ? 'refused' : trace.duplicate ? 'duplicate' : 'processed';
    }, trace);
    return traced.then(() => response);
  };
}
