import { WalletConfigError, type WalletIssue } from '../../errors.js';
import type { WalletLogger } from '../../logger.js';
import type { OptionKeys } from '../../option-keys.js';
import { reconnectDelayMs } from '../reconnect-delay.js';
import {
  createEventHub,
  type EventHub,
  type EventWire,
  type SharedTransactionEvents,
  type TransactionEventsErrorHandler,
} from '../shared-transaction-events.js';
import { checkTransactionEventsOptions, loggerOrNone } from '../transaction-events-options.js';
import {
  connectionStringSessions,
  type ListenSession,
  type OpenListenSession,
  type PostgresListenPool,
  type PostgresNotification,
  poolSessions,
} from './listen-session.js';
import { checkQueryable, type PostgresQueryable } from './queryable.js';

/**
 * Options of {@link createPostgresTransactionEvents}. Give exactly one of `connectionString` and `pool`:
 * where the LISTEN session comes from. LISTEN needs a session of its own, held for as long as the source
 * lives: PgBouncer in transaction pooling hands each statement to any server connection, so a LISTEN
 * made through it hears nothing (or the wrong client's notifications). Listen directly, or through
 * session pooling; NOTIFY (publishing) works through any pooler.
 */
export interface PostgresTransactionEventsOptions {
  /**
   * Where the source opens its own LISTEN connection, and re-opens it after a drop: a direct address
   * or one in session pooling, never PgBouncer in transaction pooling. `pg` is loaded for it.
   */
  connectionString?: string;
  /**
   * A `pg.Pool` reaching PostgreSQL directly or through session pooling: one client is checked out
   * and held for LISTEN (so count it in `max`), and destroyed rather than returned when done.
   */
  pool?: PostgresListenPool;
  /**
   * Where NOTIFY is sent (`SELECT pg_notify($1, $2)`): any `pg` Pool or client, behind any pooler.
   * @default `pool`, else the listening connection
   */
  db?: PostgresQueryable;
  /**
   * The channel, shared by every instance: a lower-case identifier.
   * @default 'merchant_wallet_transaction_events'
   */
  channel?: string;
  /**
   * Whether a status received from another instance is trusted as verified (see
   * {@link SharedTransactionEvents}). Any role that can connect to the database can NOTIFY on any
   * channel: on a database shared with roles you do not trust, set `false`, and each event only makes
   * the waits it concerns read the status at once.
   * @default true
   */
  trustPeerStatus?: boolean;
  /** Told about each failed send, dropped message, throwing listener and lost connection. */
  onError?: TransactionEventsErrorHandler;
  /**
   * Where the listening connection's changes are logged: a warning when it drops or cannot be opened
   * at start-up, a debug line per further failed attempt, a notice once it listens again. Only error
   * codes and class names, never a message or the connection string.
   */
  logger?: WalletLogger;
}

/** What {@link createPostgresTransactionEvents} resolves with. */
export type PostgresTransactionEvents = SharedTransactionEvents;

const OPTION_KEYS: OptionKeys<PostgresTransactionEventsOptions> = {
  connectionString: true,
  pool: true,
  db: true,
  channel: true,
  trustPeerStatus: true,
  onError: true,
  logger: true,
};
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const PROBE_TIMEOUT_MS = 2_000;

function checkListenSource(options: PostgresTransactionEventsOptions, issues: WalletIssue[]) {
  const { connectionString, pool } = options;
  if ((connectionString === undefined) === (pool === undefined)) {
    issues.push({
      path: 'connectionString',
      message: 'give exactly one of connectionString and pool, for the LISTEN session',
    });
    return undefined;
  }
  if (connectionString !== undefined) {
    if (typeof connectionString === 'string' && connectionString.length > 0) {
      return connectionStringSessions(connectionString);
    }
    issues.push({ path: 'connectionString', message: 'must be a non-empty string' });
    return undefined;
  }
  const candidate = pool as unknown as Record<string, unknown> | null;
  if (typeof candidate?.connect !== 'function' || typeof candidate.query !== 'function') {
    issues.push({ path: 'pool', message: 'must be a pg Pool' });
  } else if (typeof candidate.release === 'function' || 'connectionParameters' in candidate) {
    // A single client cannot be opened again once its connection drops, and the source must re-listen.
    issues.push({
      path: 'pool',
      message: 'must be a pg Pool, not a client: for one connection, give connectionString',
    });
  } else {
    return poolSessions(pool as PostgresListenPool, loggerOrNone(options.logger));
  }
  return undefined;
}

/**
 * Transaction events shared by every instance on one PostgreSQL database, over LISTEN/NOTIFY, so a
 * wait on one instance ends as soon as a webhook verified on another arrives, not at its next poll.
 *
 * The source holds one dedicated LISTEN session (`connectionString` or one client of `pool`; never
 * through PgBouncer transaction pooling, where LISTEN succeeds and then hears nothing: the source sends
 * itself a probe once listening and reports a `WalletConfigError` naming the option to `onError` when it
 * is not heard within 2 s). When the session drops, the source reports it to `onError`, logs it to
 * `logger`, and listens again with backoff (100 ms up to 5 s); so it does at start-up. `health()` says
 * where it stands (connected, or reconnecting since when and after which error). Events published during the gap are not heard here:
 * waits still poll, so they end anyway, only later. A message is at most 7,999 bytes (NOTIFY's limit);
 * a status too large for it is sent as a hint, which makes waits read it themselves.
 *
 * @example
 * const events = await createPostgresTransactionEvents({
 *   connectionString: process.env.DATABASE_DIRECT_URL!, // LISTEN: direct or session pooling
 *   db: pool, // NOTIFY: any pool, PgBouncer transaction pooling included
 * });
 * const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: events.publish });
 * const final = await wallet.waitForTransaction(transactionId, { events });
 * @throws {WalletConfigError} naming every option at fault, before connecting.
 * @returns once the source is listening, or once its first attempt failed: a database that is down at
 * start-up is then waited for with the same backoff as after a drop, each failure reported to
 * `onError`, and waits poll meanwhile. Rejects only for a {@link WalletConfigError}.
 */
export function createPostgresTransactionEvents(
  options: PostgresTransactionEventsOptions,
): Promise<PostgresTransactionEvents> {
  const settings = checkTransactionEventsOptions(
    'createPostgresTransactionEvents',
    options,
    OPTION_KEYS,
    {
      defaultChannel: 'merchant_wallet_transaction_events',
      checkChannel: (value) => (CHANNEL.test(value) ? undefined : 'must be a lower-case identifier'),
    },
    (issues) => {
      const open = checkListenSource(options, issues);
      let db: PostgresQueryable | undefined;
      try {
        db = options.db === undefined ? undefined : checkQueryable('db', options.db);
      } catch (error) {
        issues.push(...(error as WalletConfigError).issues);
      }
      const listenOption = options.pool === undefined ? 'connectionString' : 'pool';
      return { open: open as OpenListenSession, db: db ?? options.pool, listenOption };
    },
  );
  return listen(settings, createEventHub({ ...settings, name: 'PostgreSQL transaction events' }));
}

async function listen(
  settings: {
    channel: string;
    open: OpenListenSession;
    db: PostgresQueryable | undefined;
    listenOption: string;
  },
  hub: EventHub,
): Promise<PostgresTransactionEvents> {
  const { channel, open } = settings;
  let session: ListenSession | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  // Each failure is reported to onError and to the status (logged, and shown by health()) before the
  // next attempt is scheduled.
  const failed = (error: unknown, attempt: number): void => {
    hub.report(error, 'connection');
    const delay = reconnectDelayMs(attempt);
    hub.status.failed(error, delay);
    retry = setTimeout(() => {
      retry = undefined;
      if (closed) return;
      listenOnce().then(
        () => probe(),
        (next: unknown) => failed(next, attempt + 1),
      );
    }, delay);
  };

  async function listenOnce(): Promise<void> {
    const connection = await open();
    let disposed: Promise<void> | undefined;
    // Closing the connection fires its `end`, and a pool refuses a second release: let go once.
    const opened: ListenSession = {
      client: connection.client,
      dispose: () => (disposed ??= connection.dispose().catch(() => undefined)),
    };
    let listening = false;
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (session === opened) session = undefined;
      void opened.dispose();
      // Before LISTEN answered, its rejection reports the failure; after close(), nothing is wrong.
      if (!listening || closed) return;
      failed(error ?? new Error('The LISTEN connection ended'), 0);
    };
    opened.client.on('notification', (message: PostgresNotification) => {
      if (message.channel === channel) hub.receive(message.payload ?? '');
    });
    opened.client.on('error', drop);
    opened.client.on('end', () => drop());
    try {
      await opened.client.query(`LISTEN "${channel}"`);
    } catch (error) {
      drop();
      throw error;
    }
    if (dropped) throw new Error('The LISTEN connection ended before it listened');
    if (closed) return void (await opened.dispose());
    listening = true;
    session = opened;
    hub.status.connected();
  }

  // A database that is down at start-up is waited for, with backoff, as after a drop: the source
  // starts, reports each failure to onError, and listens once the database answers.
  let probe = () => {};
  const started = listenOnce().then(
    () => probe(),
    (error: unknown) => {
      if (error instanceof WalletConfigError) throw error;
      failed(error, 0);
    },
  );
  await started;
  const wire: EventWire = {
    async send(message) {
      const db = settings.db ?? session?.client;
      if (db === undefined) throw new Error('Not sent: the LISTEN connection is being re-established');
      await db.query('SELECT pg_notify($1, $2)', [channel, message]);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = session;
      session = undefined;
      await open?.dispose();
    },
  };
  // A LISTEN through PgBouncer in transaction pooling succeeds and then hears nothing: say so, once
  // the first LISTEN answered.
  let probed = false;
  probe = () => {
    if (probed) return;
    probed = true;
    void hub.heard(wire, PROBE_TIMEOUT_MS).then((heard) => {
      if (heard || closed) return;
      hub.report(
        new WalletConfigError(
          settings.listenOption,
          `LISTEN heard nothing within ${PROBE_TIMEOUT_MS} ms of its own NOTIFY: it must reach PostgreSQL directly or through session pooling, never PgBouncer transaction pooling`,
        ),
        'connection',
      );
    });
  };
  if (session !== undefined) probe();
  return hub.connect(wire);
}
