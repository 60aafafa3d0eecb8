import type { TokenKeyring } from '../auth/keyring.js';
import type { ReauthorizationNotice } from '../auth/reauthorization.js';
import type { VaultLoginSettings } from '../auth/vault.js';
import type { WalletClientOptions } from '../client/options.js';
import type { SuperviseOptions } from '../settlement/supervise.js';
import type { GroupCommitOptions } from '../stores/postgres/group-commit.js';
import type { PostgresQueryable } from '../stores/postgres/queryable.js';
import type { PostgresTables } from '../stores/postgres/schema.js';
import type { RedisClientLike } from '../stores/redis/commander.js';
import type { WebhookHandlerOptions } from '../webhooks/handler.js';
import type { UserAuthorizedEvent } from '../webhooks/parse.js';

/**
 * Where every part of a wallet keeps its state: the journal, the webhook dedupe store and the
 * token store share it.
 *
 * - `'memory'`: this process only, lost on exit: for tests, the sandbox and demos.
 * - `{ postgres: pool }`: one `pg` Pool for all of them; `start()` migrates the tables. A Pool (not a
 *   single client) lets `onSettled` and `onRefused` commit in the settlement's own transaction.
 * - `{ redis: client }`: one node-redis or ioredis client for all of them.
 */
export type WalletStoreConfig =
  | 'memory'
  | {
      /** A `pg` Pool (or client). Its connections stay yours: `close()` never ends the pool. */
      readonly postgres: PostgresQueryable;
      /** Other table names than the defaults. */
      readonly tables?: PostgresTables | undefined;
      /** The journal's group commit (see `createPostgresJournal`). */
      readonly groupCommit?: GroupCommitOptions | false | undefined;
    }
  | {
      /**
       * A node-redis or ioredis client (or cluster), each store under its default key prefix. It
       * stays yours: `close()` never quits it.
       */
      readonly redis: RedisClientLike;
    };

/** The token vault of a wallet: how user tokens are sealed, and where logins point. */
export interface WalletVaultConfig {
  /** The keyring: `{ primary: 'k1', keys: { k1: '<32 bytes, base64>' } }`. */
  readonly keys: TokenKeyring;
  /** Your application id: bound into every ciphertext and used in login URLs. */
  readonly appId: string;
  /** Where login URLs point: the service's login page and your redirect (needed by `startLogin`). */
  readonly login?: VaultLoginSettings | undefined;
  /** Called once per refused token across the fleet: e-mail the user a reconnect link. */
  readonly onReauthorizationRequired?: ((notice: ReauthorizationNotice) => void | Promise<void>) | undefined;
}

/** The webhook endpoint of a wallet. */
export interface WalletWebhookConfig {
  /**
   * How long one delivery holds its event while it is processed (see `createWebhookHandler`).
   * @default 120000
   */
  readonly leaseMs?: number | undefined;
  /**
   * Largest body accepted, in bytes.
   * @default 65536
   */
  readonly maxBytes?: number | undefined;
  /**
   * How long a processed event is remembered, so a redelivery is acknowledged without processing.
   * @default 604800000 (7 days)
   */
  readonly dedupeTtlMs?: number | undefined;
  /** Told about every failure the endpoint's answers hide (see `createWebhookHandler`). */
  readonly onError?: WebhookHandlerOptions['onError'];
  /**
   * Read-backs of the transaction in flight at most; beyond it a delivery is answered 503 `busy` with
   * `Retry-After` (see `createWebhookHandler`).
   * @default 16
   */
  readonly maxVerifications?: number | undefined;
  /**
   * How long a `transaction_not_found` read-back is remembered, so a flood of one forged id reads it
   * once; 0 remembers nothing (see `createWebhookHandler`).
   * @default 30000
   */
  readonly notFoundMs?: number | undefined;
}

/**
 * The sweeper a wallet runs from `start()` to `close()`. Its restart rule is not an option: a
 * `sending` intent is taken over once no call could still be sending it (see `restartGraceMs`).
 */
export type WalletSweeperConfig = Omit<SuperviseOptions, 'signal' | 'sendingGraceMs'>;

/**
 * Everything a wallet is built from: the client's options (API key, base URL, `onSettled`,
 * `onRefused`, logger, timeouts…) and where its parts keep their state. A `doctor` reads the same object.
 */
export interface WalletConfig extends Omit<WalletClientOptions, 'journal' | 'tokens'> {
  /**
   * Where the journal, the webhook dedupe store and the token store live.
   * @default 'memory'
   */
  store?: WalletStoreConfig | undefined;
  /**
   * The token vault: its keys, app id and login settings. With it, deposits take `{ user: email }`
   * and the webhook endpoint stores each user's token; without it, calls take `{ userToken }`.
   */
  vault?: WalletVaultConfig | undefined;
  /** Called for each `user_authorized` webhook once the vault (if any) took the token. */
  onUserAuthorized?: ((event: UserAuthorizedEvent) => void | Promise<void>) | undefined;
  /**
   * Called for each verified transaction webhook, after its status was recorded and settled. Not
   * needed for settlement: `onSettled` and `onRefused` are.
   */
  onTransaction?: WebhookHandlerOptions['onTransaction'];
  /** The webhook endpoint's limits, de-duplication window and error reporting. */
  webhooks?: WalletWebhookConfig | undefined;
  /**
   * The sweeper's schedule and bounds, or `false` for none (a job engine calls `client.sweepOnce()`).
   * @default the sweeper's defaults
   */
  sweeper?: WalletSweeperConfig | false | undefined;
}
