/** The PostgreSQL journal's `list(query)`: a keyset page on (created_at, reference_id). */
import { type CheckedQuery, cursorAfter } from '../../journal/query.js';
import type { IntentPage, PaymentIntent } from '../../journal/types.js';
import { toIntent } from './journal-rows.js';
import type { PostgresQueryable } from './queryable.js';

/** One page of `query`, read with `select` (the journal's `SELECT columns FROM table`). */
export async function queryPage(
  db: PostgresQueryable,
  select: string,
  query: CheckedQuery,
): Promise<IntentPage> {
  const [afterCreated, afterReference] = query.after ?? [null, null];
  const { rows } = await db.query(
    `${select}
WHERE ($1::text[] IS NULL OR state = ANY($1::text[]))
  AND ($2::text IS NULL OR endpoint = $2::text)
  AND ($3::timestamptz IS NULL OR created_at >= $3::timestamptz)
  AND ($4::timestamptz IS NULL OR created_at < $4::timestamptz)
  AND ($5::timestamptz IS NULL OR (created_at, reference_id COLLATE "C") > ($5::timestamptz, $6::text COLLATE "C"))
ORDER BY created_at, reference_id COLLATE "C"
LIMIT $7`,
    [
      query.states ?? null,
      query.endpoint ?? null,
      query.since ?? null,
      query.until ?? null,
      afterCreated,
      afterReference,
      query.limit + 1,
    ],
  );
  const intents = rows.slice(0, query.limit).map((row) => toIntent(row) as PaymentIntent);
  const last = intents[intents.length - 1];
  return { intents, next: rows.length > query.limit && last !== undefined ? cursorAfter(last) : undefined };
}
