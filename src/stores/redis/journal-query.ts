/**
 * The Redis journal's `list(query)`: a keyset page over the sorted set of intents by recording time
 * (`{prefix}created`, scored in ms; equal scores are ordered by reference id, as Redis orders members),
 * reading each intent and keeping those the query selects.
 */
import { type CheckedQuery, cursorAfter, matchesQuery } from '../../journal/query.js';
import type { IntentPage, PaymentIntent } from '../../journal/types.js';

/** What the query needs of the journal. */
export interface QueryParts {
  readonly createdKey: string;
  readonly send: (key: string, args: string[]) => Promise<unknown>;
  readonly get: (referenceId: string) => Promise<PaymentIntent | undefined>;
}

/** One page of `query`. */
export async function queryPage(parts: QueryParts, query: CheckedQuery): Promise<IntentPage> {
  const { createdKey, send, get } = parts;
  const intents: PaymentIntent[] = [];
  const max = query.until === undefined ? '+inf' : `(${Date.parse(query.until)}`;
  const min = String(
    Math.max(
      query.since === undefined ? 0 : Date.parse(query.since),
      query.after ? Date.parse(query.after[0]) : 0,
    ),
  );
  const batch = Math.min(1_000, query.limit * 4);
  let offset = 0;
  for (;;) {
    const members = (await send(createdKey, [
      'ZRANGEBYSCORE',
      createdKey,
      min,
      max,
      'LIMIT',
      String(offset),
      String(batch),
    ])) as string[];
    for (const intent of await Promise.all(members.map(get))) {
      if (intent === undefined || !matchesQuery(intent, query)) continue;
      if (intents.length === query.limit)
        return { intents, next: cursorAfter(intents[intents.length - 1] as PaymentIntent) };
      intents.push(intent);
    }
    if (members.length < batch) return { intents, next: undefined };
    offset += batch;
  }
}
