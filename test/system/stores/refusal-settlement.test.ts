/**
 * PostgreSQL schema step 12 on a real server: refusals recorded before it count as settled (so an
 * upgrade never runs onRefused for old ones), and a refusal recorded after it is claimed once.
 */
import { expect, test } from 'vitest';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { SCHEMA_VERSIONS_TABLE } from '../../../src/stores/postgres/schema.js';
import { usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool({ max: 4 });

test('step 12 settles the refusals an earlier version left, and a later refusal is claimed once', async () => {
  await migratePostgres(postgres.pool);
  const journal = createPostgresJournal({ db: postgres.pool });
  await journal.record({ referenceId: 'old-refusal', endpoint: 'withdraw', body: {} });
  await journal.update('old-refusal', { state: 'refused', reason: 'insufficient_balance' });
  // As a database at step 10 holds it: unsettled, and the schema record says 10.
  await postgres.pool.query('UPDATE merchant_wallet_payment_intents SET settled_at = NULL');
  await postgres.pool.query(`UPDATE ${SCHEMA_VERSIONS_TABLE} SET version = 10`);
  await migratePostgres(postgres.pool);
  const old = await journal.get('old-refusal');
  expect(old?.settledAt).toBe(old?.updatedAt);
  expect(await journal.claimSettlement?.('old-refusal', 'lease', 60_000)).toBeUndefined();

  await journal.record({ referenceId: 'new-refusal', endpoint: 'withdraw', body: {} });
  await journal.update('new-refusal', { state: 'refused', reason: 'insufficient_balance' });
  const claims = await Promise.all(
    Array.from({ length: 8 }, (_, at) => journal.claimSettlement?.('new-refusal', `lease-${at}`, 60_000)),
  );
  expect(claims.filter((claim) => claim !== undefined).map((claim) => claim?.reason)).toEqual([
    'insufficient_balance',
  ]);
  const { rows } = await postgres.pool.query(
    `SELECT indexdef FROM pg_indexes WHERE indexname LIKE '%due%' AND tablename = 'merchant_wallet_payment_intents'`,
  );
  expect(String(rows[0]?.indexdef)).toContain("'refused'");
});
