import type { TokenVault } from '../auth/vault.js';
import { WalletClient } from '../client/client.js';
import type { PaymentJournal } from '../journal/types.js';
import type { SweepOptions, SweepReport } from '../settlement/sweep.js';
import { DEFAULT_WEBHOOK_MAX_BYTES } from '../webhooks/body.js';
import type { WebhookDedupeStore } from '../webhooks/dedupe.js';
import { createWebhookHandler, handlerLimits, type WebhookHandler } from '../webhooks/handler.js';
import { type NodeWebhookHandler, toNodeHandler } from '../webhooks/node.js';
import { splitConfig } from './check-config.js';
import type { WalletConfig } from './config.js';
import { Lifecycle, type WalletStartReport, type WalletState } from './lifecycle.js';
import { restartGraceMs } from './restart-rule.js';
import { DEFAULT_DEDUPE_TTL_MS, openStores } from './stores.js';
import { buildVault } from './vault.js';

/** A wallet built by {@link createWallet}: its parts, its webhook endpoint, and its life. */
export interface Wallet {
  /** The client: deposits, withdrawals, status reads, waits. Pay only once {@link Wallet.ready}. */
  readonly client: WalletClient;
  /** The payment journal every payment is recorded in. */
  readonly journal: PaymentJournal;
  /** Where webhook deliveries are de-duplicated across instances. */
  readonly dedupe: WebhookDedupeStore;
  /** The token vault (logins, tokens by e-mail); `undefined` without the `vault` option. */
  readonly vault: TokenVault | undefined;
  /**
   * The webhook endpoint in the Fetch form (`Request` → `Response`): Hono, Next.js route handlers,
   * Workers, Bun, Deno. It verifies each transaction event by reading it back, which records and
   * settles the payment; it answers 503 (deliver again) before `start()` migrated the stores and
   * once `close()` began.
   */
  readonly webhooks: WebhookHandler;
  /** The same endpoint for `node:http` and Express (it reads the raw body itself). */
  readonly nodeWebhooks: NodeWebhookHandler;
  /** Where the wallet is in its life. */
  readonly state: WalletState;
  /** The readiness signal for health checks: `true` from the end of `start()` until `close()`. */
  readonly ready: boolean;
  /**
   * Migrates the stores, opens the webhook intake, recovers what a crash left (intents the
   * restart rule says nobody is sending any more), and starts the sweeper; then the wallet is
   * ready. Calling it again answers the same promise.
   * @throws what a step threw (the store is unreachable, say); the wallet is then `failed`.
   */
  start(): Promise<WalletStartReport>;
  /**
   * Shuts the webhook intake (503 from now on), stops the sweeper after its pass, waits for the
   * deliveries in progress, then closes the client (calls in flight finish first). The database
   * pool or Redis client stays open: it is yours.
   */
  close(): Promise<void>;
  /** Same as {@link Wallet.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Sweeps until a pass leaves nothing due (it claimed less than its limit): the recovery `start()`
 * waits for. The sweeper's own claims keep instances starting together off each other's intents.
 */
async function recoveryPass(client: WalletClient, options: SweepOptions): Promise<SweepReport> {
  const limit = options.limit ?? 100;
  let total: SweepReport = { claimed: 0, settled: 0, intents: [] };
  for (;;) {
    const pass = await client.sweepOnce(options);
    total = {
      claimed: total.claimed + pass.claimed,
      settled: total.settled + pass.settled,
      intents: [...total.intents, ...pass.intents],
    };
    if (pass.claimed < limit) return total;
  }
}

/**
 * Builds a whole wallet from one configuration: the client with its journal, the webhook dedupe
 * store, the token vault, settlement (`onSettled`, `onRefused`), the sweeper and the webhook
 * endpoint, all on one store (memory by default, one `pg` Pool, or one Redis client). The parts
 * stay public for those who assemble their own.
 *
 * @throws {WalletConfigError} naming every bad option at once.
 * @example
 * const wallet = createWallet({
 *   apiKey: process.env.WALLET_API_KEY,
 *   baseUrl: 'https://wallet.example.com',
 *   store: { postgres: pool },
 *   onSettled: (intent, status) => orders.settle(intent.referenceId, status),
 *   onRefused: (intent) => orders.release(intent.referenceId, intent.reason),
 * });
 * app.post('/wallet/webhooks', (c) => wallet.webhooks(c.req.raw));
 * await wallet.start();
 */
export function createWallet(config: WalletConfig = {}): Wallet {
  const { wallet: options, client: clientOptions } = splitConfig(config);
  const webhookOptions = options.webhooks ?? {};
  const logger = clientOptions.logger;
  const stores = openStores(options.store, webhookOptions.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS, logger);
  const vault = buildVault(options.vault, stores, logger);
  const client = new WalletClient({
    ...clientOptions,
    journal: stores.journal,
    ...(vault && { tokens: vault }),
  });
  const { onUserAuthorized, onTransaction, sweeper } = options;
  const handler = createWebhookHandler({
    verifyWith: client,
    dedupe: stores.dedupe,
    ...(webhookOptions.leaseMs !== undefined && { leaseMs: webhookOptions.leaseMs }),
    ...(webhookOptions.maxBytes !== undefined && { maxBytes: webhookOptions.maxBytes }),
    ...(webhookOptions.onError && { onError: webhookOptions.onError }),
    ...(webhookOptions.maxVerifications !== undefined && {
      maxVerifications: webhookOptions.maxVerifications,
    }),
    ...(webhookOptions.notFoundMs !== undefined && { notFoundMs: webhookOptions.notFoundMs }),
    ...(logger && { logger }),
    ...(onTransaction && { onTransaction }),
    ...((vault ?? onUserAuthorized) && {
      onUserAuthorized: async (event) => {
        await vault?.receive(event);
        await onUserAuthorized?.(event);
      },
    }),
  });
  const sweep = { ...(sweeper || {}), sendingGraceMs: restartGraceMs(clientOptions) };
  const lifecycle = new Lifecycle({
    migrate: stores.migrate,
    recover: () => recoveryPass(client, sweep),
    supervise: sweeper === false ? undefined : (signal) => client.supervise({ ...sweep, signal }),
    closeClient: () => client.close(),
  });
  const webhooks = lifecycle.gate(handler);
  handlerLimits.set(webhooks, webhookOptions.maxBytes ?? DEFAULT_WEBHOOK_MAX_BYTES);
  return {
    client,
    journal: stores.journal,
    dedupe: stores.dedupe,
    vault,
    webhooks,
    nodeWebhooks: toNodeHandler(webhooks),
    get state() {
      return lifecycle.state;
    },
    get ready() {
      return lifecycle.state === 'ready';
    },
    start: () => lifecycle.start(),
    close: () => lifecycle.close(),
    [Symbol.asyncDispose]: () => lifecycle.close(),
  };
}
