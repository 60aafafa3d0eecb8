import { WalletRequestValidationError } from '../errors.js';
import {
  type IntentPage,
  type IntentQuery,
  type ListIntentsOptions,
  PAYMENT_INTENT_STATES,
  type PaymentIntent,
  type PaymentIntentEndpoint,
  type PaymentIntentState,
  type PaymentJournal,
} from './types.js';

/** A query once checked: times as ISO strings, the cursor decoded. */
export interface CheckedQuery {
  readonly states: readonly PaymentIntentState[] | undefined;
  readonly endpoint: PaymentIntentEndpoint | undefined;
  readonly since: string | undefined;
  readonly until: string | undefined;
  /** The last intent of the previous page: its recording time and reference id. */
  readonly after: readonly [createdAt: string, referenceId: string] | undefined;
  readonly limit: number;
}

function fail(path: string, message: string): never {
  throw new WalletRequestValidationError([{ path, message }], 'Invalid journal query');
}

function time(value: Date | string | undefined, path: string): string | undefined {
  if (value === undefined) return undefined;
  const ms =
    value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) fail(path, 'must be a Date or an ISO 8601 time');
  return new Date(ms).toISOString();
}

/** The cursor after `intent`: opaque to callers, base64url of its recording time and reference id. */
export function cursorAfter(intent: PaymentIntent): string {
  return btoa(JSON.stringify([intent.createdAt, intent.referenceId]))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function decodeCursor(cursor: unknown): readonly [string, string] {
  try {
    const text = atob(String(cursor).replaceAll('-', '+').replaceAll('_', '/'));
    const [createdAt, referenceId] = JSON.parse(text) as unknown[];
    if (
      typeof createdAt === 'string' &&
      typeof referenceId === 'string' &&
      !Number.isNaN(Date.parse(createdAt))
    ) {
      return [createdAt, referenceId];
    }
  } catch {
    // Reported below, naming the field.
  }
  return fail('after', "is not a cursor this journal gave (pass a page's `next`)");
}

/**
 * Checks `query` and normalizes it.
 * @throws {WalletRequestValidationError} naming the field at fault.
 */
export function checkQuery(query: IntentQuery): CheckedQuery {
  if (typeof query !== 'object' || query === null) fail('query', 'must be an object');
  const { state, endpoint, limit = 100 } = query;
  const states =
    state === undefined ? undefined : Array.isArray(state) ? [...state] : [state as PaymentIntentState];
  for (const [index, one] of (states ?? []).entries()) {
    if (!(PAYMENT_INTENT_STATES as readonly unknown[]).includes(one)) {
      fail(
        Array.isArray(state) ? `state.${index}` : 'state',
        `must be one of ${PAYMENT_INTENT_STATES.join(', ')}`,
      );
    }
  }
  if (endpoint !== undefined && endpoint !== 'deposit' && endpoint !== 'withdraw') {
    fail('endpoint', 'must be "deposit" or "withdraw"');
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1_000)
    fail('limit', 'must be a whole number from 1 to 1000');
  const since = time(query.since, 'since');
  const until = time(query.until, 'until');
  if (since !== undefined && until !== undefined && since > until) fail('since', 'must not be after until');
  const after = query.after === undefined ? undefined : decodeCursor(query.after);
  return { states, endpoint, since, until, after, limit };
}

/** Whether `intent` is selected by `query` (the memory journal's filter, and the rule SQL and Lua follow). */
export function matchesQuery(intent: PaymentIntent, query: CheckedQuery): boolean {
  const created = new Date(intent.createdAt).toISOString();
  if (query.states !== undefined && !query.states.includes(intent.state)) return false;
  if (query.endpoint !== undefined && intent.endpoint !== query.endpoint) return false;
  if (query.since !== undefined && created < query.since) return false;
  if (query.until !== undefined && created >= query.until) return false;
  if (query.after !== undefined) {
    const [createdAt, referenceId] = query.after;
    const after = new Date(createdAt).toISOString();
    if (created < after || (created === after && intent.referenceId <= referenceId)) return false;
  }
  return true;
}

/** The page of `sorted` intents (oldest first) that `query` selects. */
export function pageOf(sorted: Iterable<PaymentIntent>, query: CheckedQuery): IntentPage {
  const intents: PaymentIntent[] = [];
  for (const intent of sorted) {
    if (!matchesQuery(intent, query)) continue;
    if (intents.length === query.limit)
      return { intents, next: cursorAfter(intents[intents.length - 1] as PaymentIntent) };
    intents.push(intent);
  }
  return { intents, next: undefined };
}

/**
 * Every intent `query` selects, page by page through the journal's cursor, as a stream: for
 * dashboards, exports and `auditJournal`. Intents recorded meanwhile after the last page read are
 * included; none is seen twice.
 *
 * @example
 * for await (const intent of listIntents(journal, { state: 'completed', since: '2026-11-01' })) console.log(intent.referenceId);
 */
export async function* listIntents(
  journal: PaymentJournal,
  query: Omit<IntentQuery, 'after'> = {},
): AsyncIterableIterator<PaymentIntent> {
  let after: string | undefined;
  do {
    const page: IntentPage = await journal.list({ ...query, after });
    yield* page.intents;
    after = page.next;
  } while (after !== undefined);
}

type ListByState = (state: PaymentIntentState, options?: ListIntentsOptions) => Promise<PaymentIntent[]>;

/** The query form over the state form: every state's intents read, then filtered and sorted here. */
function scanning(byState: ListByState): (query: CheckedQuery) => Promise<IntentPage> {
  return async (query) => {
    const states = query.states ?? PAYMENT_INTENT_STATES;
    const all = (await Promise.all(states.map((state) => byState(state)))).flat();
    all.sort((a, b) => compareIntents(a, b));
    return pageOf(all, query);
  };
}

/** Recording order: time, then reference id. */
export function compareIntents(a: PaymentIntent, b: PaymentIntent): number {
  const byTime = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  return byTime !== 0 ? byTime : a.referenceId < b.referenceId ? -1 : a.referenceId > b.referenceId ? 1 : 0;
}

/**
 * A journal's `list`, in both forms: `list(state, options)` by `byState`, and `list(query)` by
 * `byQuery` (an adapter's indexed query), else by reading each state's intents and filtering them.
 */
export function listWithQueries(
  byState: ListByState,
  byQuery: (query: CheckedQuery) => Promise<IntentPage> = scanning(byState),
): PaymentJournal['list'] {
  return ((first: PaymentIntentState | IntentQuery, options?: ListIntentsOptions) =>
    typeof first === 'object' && first !== null
      ? byQuery(checkQuery(first))
      : byState(first, options)) as PaymentJournal['list'];
}
