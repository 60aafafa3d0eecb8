// A transactional outbox for Kafka or any broker. `onSettled` writes the event as a row in the
// settlement's own PostgreSQL transaction, so the row exists exactly when the settlement committed:
// a rollback (a crash, a lease lost to another instance) leaves neither, and no event is published
// for a settlement that did not happen. A relay then publishes each row at least once, keyed by
// `reference_id`, and marks it published only after the broker accepted it: a relay killed between
// the two publishes that row again, so the consumer keeps the first message of each key.
import type { OnSettled } from 'merchant-wallet';
import type pg from 'pg';

/** The outbox table; create it with {@link migrateOutbox} beside the journal's migrations. */
export const OUTBOX_TABLE = 'merchant_wallet_outbox';

/** Creates the outbox table if it is missing. */
export async function migrateOutbox(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS ${OUTBOX_TABLE} (
    id bigserial PRIMARY KEY,
    reference_id text NOT NULL UNIQUE,
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS ${OUTBOX_TABLE}_unpublished ON ${OUTBOX_TABLE} (id) WHERE published_at IS NULL;`);
}

/** The event a settled payment publishes: its key is `referenceId`. */
export interface PaymentSettledEvent {
  readonly type: 'payment.settled';
  readonly referenceId: string;
  readonly status: 'completed' | 'failed';
  readonly endpoint: 'deposit' | 'withdraw';
  readonly transactionId: string | null;
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * An `onSettled` that writes the payment's event to the outbox in the settlement's transaction,
 * after `fulfil` (your own writes, through the same transaction). It needs that transaction: the
 * PostgreSQL journal on a `pg` Pool; elsewhere it throws rather than write outside of it.
 */
export function outboxOnSettled(fulfil?: OnSettled): OnSettled {
  return async (intent, status, context) => {
    const { transaction } = context;
    if (transaction === undefined) {
      throw new Error('the outbox needs the settlement transaction: use the PostgreSQL journal on a pg Pool');
    }
    await fulfil?.(intent, status, context);
    const event: PaymentSettledEvent = {
      type: 'payment.settled',
      referenceId: intent.referenceId,
      status,
      endpoint: intent.endpoint,
      transactionId: intent.transactionId ?? null,
      metadata: intent.metadata ?? {},
    };
    // One event per settlement; a settlement commits once, so the conflict never happens in practice.
    await transaction.query(
      `INSERT INTO ${OUTBOX_TABLE} (reference_id, payload) VALUES ($1, $2) ON CONFLICT (reference_id) DO NOTHING`,
      [intent.referenceId, JSON.stringify(event)],
    );
  };
}

/** One message for the broker: publish it under `key` (Kafka: the message key, so one partition). */
export interface OutboxMessage {
  readonly key: string;
  readonly value: string;
}

/** Sends messages to the broker; resolves once the broker has accepted all of them. */
export type Publish = (messages: readonly OutboxMessage[]) => Promise<void>;

/**
 * Publishes up to `limit` unpublished rows, oldest first, and marks them published once `publish`
 * resolved; answers how many. The rows stay locked (`FOR UPDATE SKIP LOCKED`) while they are
 * published, so relays on several instances never publish the same row at the same time.
 */
export async function relayOnce(pool: pg.Pool, publish: Publish, limit = 100): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string; reference_id: string; payload: unknown }>(
      `SELECT id, reference_id, payload FROM ${OUTBOX_TABLE} WHERE published_at IS NULL
       ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    if (rows.length > 0) {
      await publish(rows.map((row) => ({ key: row.reference_id, value: JSON.stringify(row.payload) })));
      await client.query(`UPDATE ${OUTBOX_TABLE} SET published_at = now() WHERE id = ANY($1::bigint[])`, [
        rows.map((row) => row.id),
      ]);
    }
    await client.query('COMMIT');
    return rows.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Relays until `signal` aborts: at once again while batches come back full, else every
 * `intervalMs`. A failed batch (the broker or the database down) is tried again after `intervalMs`.
 */
export async function relayOutbox(options: {
  readonly pool: pg.Pool;
  readonly publish: Publish;
  readonly signal: AbortSignal;
  readonly limit?: number;
  readonly intervalMs?: number;
  readonly onError?: (error: unknown) => void;
}): Promise<void> {
  const { pool, publish, signal, limit = 100, intervalMs = 500 } = options;
  while (!signal.aborted) {
    let relayed = 0;
    try {
      relayed = await relayOnce(pool, publish, limit);
    } catch (error) {
      options.onError?.(error);
    }
    if (relayed < limit) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        signal.addEventListener('abort', () => resolve(clearTimeout(timer)), { once: true });
      });
    }
  }
}
