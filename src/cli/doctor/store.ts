import type { PaymentJournal } from '../../index.js';
import { createPostgresJournal } from '../../stores/postgres/journal.js';
import type { PostgresQueryable } from '../../stores/postgres/queryable.js';
import { readPostgresSchemaVersion } from '../../stores/postgres/schema.js';
import type { RedisClientLike } from '../../stores/redis/commander.js';
import { createRedisJournal } from '../../stores/redis/journal.js';
import { JOURNAL_PREFIX, OLD_JOURNAL_PREFIX } from '../../stores/redis/legacy-prefix.js';
import { LEGACY_ACCEPTED_STATE } from '../../stores/redis/legacy-states.js';
import { type CheckResult, fail, pass, warn } from './result.js';

/** The merchant's store, opened read-only for the schema and sweeper checks. */
export interface OpenedStore {
  /** `postgres` or `redis`, and its host: never the URL, which may hold a password. */
  readonly name: string;
  /** Whether the store is at the schema this package needs. */
  schema(): Promise<CheckResult>;
  /** The journal on it, for the sweeper check; `undefined` while the journal's first use would still change it. */
  journal(): Promise<PaymentJournal | undefined>;
  close(): Promise<void>;
}

const FIX_MIGRATE =
  'run migratePostgres(pool) once (start() of the wallet does), or apply postgresSchemaSql() with your migration tool';

async function openPostgres(url: URL, text: string): Promise<OpenedStore> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({
    connectionString: text,
    connectionTimeoutMillis: 4_000,
    query_timeout: 4_000,
  });
  await client.connect();
  const db = client as unknown as PostgresQueryable;
  const name = `postgres at ${url.host}`;
  return {
    name,
    async schema() {
      const { version, current } = await readPostgresSchemaVersion(db);
      if (version >= current) return pass(`${name}: schema version ${version}, the current one`);
      return fail(
        'store_not_migrated',
        version === 0
          ? `${name}: the journal's tables were never migrated`
          : `${name}: schema version ${version}, this package needs ${current}`,
        FIX_MIGRATE,
      );
    },
    journal: async () => createPostgresJournal({ db, groupCommit: false }),
    close: () => client.end(),
  };
}

async function openRedis(url: URL, text: string): Promise<OpenedStore> {
  const { createClient } = await import('redis');
  const client = createClient({ url: text, socket: { connectTimeout: 4_000, reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  const name = `redis at ${url.host}`;
  const exists = async (key: string) => (await client.exists(key)) === 1;
  const legacy = async () => (await client.zCard(`${JOURNAL_PREFIX}state:${LEGACY_ACCEPTED_STATE}`)) > 0;
  return {
    name,
    async schema() {
      if ((await exists(`${OLD_JOURNAL_PREFIX}sequence`)) && !(await exists(`${JOURNAL_PREFIX}sequence`))) {
        return fail(
          'store_not_migrated',
          `${name}: the journal is under the old prefix "${OLD_JOURNAL_PREFIX}"`,
          "stop every instance and run migrateRedisJournalPrefix({ client }) once, or pass prefix: 'merchant-wallet:journal:'",
        );
      }
      if (await legacy()) {
        return warn(
          'store_legacy_states',
          `${name}: intents in an earlier version's state "${LEGACY_ACCEPTED_STATE}"`,
          'start the wallet once: the journal renames them on first use',
        );
      }
      return pass(`${name}: journal at the current layout`);
    },
    journal: async () =>
      (await legacy()) ? undefined : createRedisJournal({ client: client as unknown as RedisClientLike }),
    close: async () => {
      await client.quit().catch(() => client.destroy());
    },
  };
}

/**
 * Opens the store `storeUrl` names (`postgres://`, `postgresql://`, `redis://`, `rediss://`) with
 * its driver, loaded only now: the doctor needs `pg` or `redis` only for the store it checks.
 * @throws {Error} when the URL names another kind of store or the driver is not installed.
 */
export async function openStore(storeUrl: string): Promise<OpenedStore> {
  const url = URL.canParse(storeUrl) ? new URL(storeUrl) : undefined;
  if (url?.protocol === 'postgres:' || url?.protocol === 'postgresql:') return openPostgres(url, storeUrl);
  if (url?.protocol === 'redis:' || url?.protocol === 'rediss:') return openRedis(url, storeUrl);
  throw new Error('WALLET_STORE_URL must start with postgres://, postgresql://, redis:// or rediss://');
}
