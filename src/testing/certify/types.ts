/** How one check of `certify` ended: `pass`, `warn` (works, but risky or not gradable here) or `fail`. */
export type CertifyVerdict = 'pass' | 'warn' | 'fail';

/** The id of each check `certify` runs, in the order it runs them (see {@link CERTIFY_CHECKS}). */
export type CertifyCheckId =
  | 'route-accepts-post'
  | 'get-not-processed'
  | 'burst'
  | 'concurrent-copies'
  | 'copy-waits-for-first'
  | 'ack-after-effect'
  | 'replay-much-later'
  | 'out-of-order'
  | 'forged-completed'
  | 'forged-unknown-transaction'
  | 'forged-amount'
  | 'forged-currency'
  | 'forged-reference'
  | 'malformed-json'
  | 'oversized-body'
  | 'unknown-event-type'
  | 'made-up-token'
  | 'slow-read-back';

/** One check's result. */
export interface CertifyCheckResult {
  /** Which check. */
  readonly id: CertifyCheckId;
  /** What it checks, in a few words. */
  readonly title: string;
  /** How it ended. */
  readonly verdict: CertifyVerdict;
  /** What the endpoint did (answers, times, effects). */
  readonly detail: string;
  /** What to change, when the verdict is not `pass`. */
  readonly fix: string | undefined;
}

/** What `certify` reports about one endpoint. */
export interface CertifyReport {
  /** The endpoint graded. */
  readonly url: string;
  /**
   * `remote`: only the endpoint's answers were seen (`merchant-wallet certify`, the control API);
   * `in-process`: the merchant's effects were counted too (`certifyHandler`).
   */
  readonly mode: 'remote' | 'in-process';
  /** Every check run, in order. */
  readonly checks: readonly CertifyCheckResult[];
  /** Checks not run because the route itself refused genuine events (fix that first). */
  readonly notRun: readonly CertifyCheckId[];
  /** How many checks passed, warned and failed. */
  readonly totals: Readonly<Record<CertifyVerdict, number>>;
  /** What this mode can and cannot see. */
  readonly note: string;
}

/** What {@link CERTIFY_CHECKS} says of one check. */
export interface CertifyCheckText {
  /** What it checks, in a few words. */
  readonly title: string;
  /** What to change when it does not pass. */
  readonly fix: string;
}

/** Each check's title and the fix printed when it does not pass, in the order they run. */
export const CERTIFY_CHECKS: Readonly<Record<CertifyCheckId, CertifyCheckText>> = {
  'route-accepts-post': {
    title: 'a genuine event is accepted (2xx) by POST',
    fix: 'mount the handler for POST and exempt the route from login redirects, CSRF protection and auth middleware',
  },
  'get-not-processed': {
    title: 'a GET is not treated as an event',
    fix: 'answer anything but POST with 405 and an Allow: POST header',
  },
  burst: {
    title: '50 distinct events at once, each answered 2xx in time',
    fix: "answer within the sender's timeout under load: process events concurrently, or acknowledge after a durable write and work off a queue",
  },
  'concurrent-copies': {
    title: '10 copies of one event at once take effect once',
    fix: 'deduplicate by event (transaction id and status) in a store shared by every instance; answer 503 with Retry-After to copies in flight',
  },
  'copy-waits-for-first': {
    title: 'no copy is acknowledged before the first copy took effect',
    fix: 'claim the event with a processing lease: answer copies 503 with Retry-After until it completes, never "200 duplicate" while it runs',
  },
  'ack-after-effect': {
    title: 'the 2xx comes after the effect is written',
    fix: 'answer 2xx only after the write commits (or the hand-off to a durable queue succeeded); answer 5xx when it fails',
  },
  'replay-much-later': {
    title: 'the same event 3 days later (sandbox clock) is acknowledged, no second effect',
    fix: 'keep dedupe keys for longer than the sender retries (days), or make the effect idempotent by transaction id',
  },
  'out-of-order': {
    title: 'events arriving in another order than they happened',
    fix: 'act on the status read back for each transaction, not on the order events arrive in',
  },
  'forged-completed': {
    title: 'a forged "completed" for a pending deposit takes no effect',
    fix: 'read the transaction back from the status endpoint (verifyWith) and act on that, never on the body',
  },
  'forged-unknown-transaction': {
    title: 'an event for a transaction that does not exist takes no effect',
    fix: 'read the transaction back (verifyWith): transaction_not_found means a forgery',
  },
  'forged-amount': {
    title: 'an event with a changed amount takes no effect, the genuine one still does',
    fix: 'compare the event with the status read back and neither process nor dedupe an event that disagrees',
  },
  'forged-currency': {
    title: 'an event with a changed currency takes no effect, the genuine one still does',
    fix: 'compare the event with the status read back and neither process nor dedupe an event that disagrees',
  },
  'forged-reference': {
    title: 'an event with a changed reference takes no effect, the genuine one still does',
    fix: 'compare the event with the status read back and neither process nor dedupe an event that disagrees',
  },
  'malformed-json': {
    title: 'malformed JSON is refused with a 4xx',
    fix: 'parse the body before anything else and answer 400 when it is not JSON (a 5xx makes the sender retry it for days)',
  },
  'oversized-body': {
    title: 'a 1 MiB body is refused with a 4xx',
    fix: 'read at most a limit (64 KiB is plenty) and answer 413 beyond it',
  },
  'unknown-event-type': {
    title: 'an unknown event type takes no effect and is not retried forever',
    fix: 'answer 2xx (ignored) or 4xx to event types you do not handle, never 5xx',
  },
  'made-up-token': {
    title: 'user_authorized with a token the service never issued is not trusted',
    fix: 'keep a new token a candidate until a call with it succeeds (the token vault does), or check it with listProviders first',
  },
  'slow-read-back': {
    title: 'a slow status endpoint (1 s reads) still gets an answer in time',
    fix: 'bound the read-back and answer 503 to be retried when it runs out, rather than holding the sender past its timeout',
  },
};
