import { randomBytes } from 'node:crypto';
import { WalletConfigError } from '../errors.js';
import { assertErrorBodyShape, type ErrorBodyShape } from './http/error-body.js';
import { FaultInjector, type SandboxFaults } from './http/faults.js';
import type { RuleContext } from './model/context.js';
import { type SandboxBalances, snapshotBalances, sumMoney } from './model/read-models.js';
import { defaultSandboxSeed, type SandboxSeed } from './model/seed.js';
import { buildState, emailKey } from './model/state.js';
import {
  type SandboxTransaction,
  type TransactionRecord,
  toSandboxTransaction,
} from './model/transactions.js';
import { automaticOutcome, type SettleOutcome, settleDeposit } from './rules/settlement.js';
import {
  type SandboxWebhooks,
  type WebhookDelivery,
  WebhookDispatcher,
  type WebhookRetryOptions,
} from './serve/webhook-dispatcher.js';

/** Behaviour of a sandbox beyond its data. */
export interface SandboxOptions {
  /** Shape of error bodies; can be changed later through `sandbox.errorShape`. @default 'code' */
  errorShape?: ErrorBodyShape;
  /** Settle pending deposits automatically this many ms after they start; never when absent. */
  autoSettleMs?: number;
  /** Retry policy of webhook deliveries. */
  webhooks?: WebhookRetryOptions;
  /** Largest accepted request body; larger ones get 413. @default 65536 */
  maxBodyBytes?: number;
  /** The clock used for `date_completed` and record times. @default () => new Date() */
  now?: () => Date;
}

/** Which merchant's settings {@link Sandbox.updateMerchant} changes, and how. */
export interface MerchantPatch {
  active?: boolean;
  /** `null` removes the URL. */
  authWebhookUrl?: string | null;
  /** `null` removes the URL. */
  depositWebhookUrl?: string | null;
}

/** A stateful, in-memory Merchant Wallet service. Serve it with `startSandboxServer` or `sandboxHandlers`. */
export interface Sandbox {
  /** Shape of error bodies from now on. Setting an unknown shape throws `WalletConfigError`. */
  errorShape: ErrorBodyShape;
  /** Largest accepted request body in bytes. */
  readonly maxBodyBytes: number;
  /** Deliveries of `user_authorized` and transaction-result webhooks. */
  readonly webhooks: SandboxWebhooks;
  /** Fault injection for the API routes. */
  readonly faults: SandboxFaults;
  /**
   * Same effect as approving `appId` on the login page as `email`: issues a new
   * token (revoking the user's previous one for that app) and sends
   * `user_authorized` to the merchant's auth webhook URL in the background.
   * @returns the token
   */
  authorize(input: { email: string; appId: string }): string;
  /** Revokes a token, as a user would in the wallet app. @returns whether a live token was revoked */
  revoke(token: string): boolean;
  /** Ends a pending deposit and sends its result webhook. Throws `WalletConfigError` for anything but a pending deposit. */
  settle(transactionId: string, outcome: SettleOutcome): SandboxTransaction;
  /** One transaction, or `undefined`. */
  transaction(transactionId: string): SandboxTransaction | undefined;
  /** Every transaction, oldest first. */
  transactions(): SandboxTransaction[];
  /** A snapshot of every balance, in major units. */
  balances(): SandboxBalances;
  /** The sum of all balances (merchants, wallets, provider accounts) per currency; no request changes it. */
  totalMoney(): Record<string, number>;
  /** The sum of all balances in one currency; no request changes it. */
  totalMoney(currency: string): number;
  /** Changes a merchant's active flag or webhook URLs, e.g. once a test's receiver has a port. */
  updateMerchant(appId: string, patch: MerchantPatch): void;
  /** Stops automatic settlement timers and webhook retries. */
  close(): void;
}

/** What the request handler needs beyond the public surface. @internal */
export interface SandboxInternals {
  ctx: RuleContext;
  faults: FaultInjector;
  /** Like `authorize`, but also returns the delivery of `user_authorized`, if one was sent. */
  authorizeAndNotify(
    email: string,
    appId: string,
  ): { token: string; delivery: Promise<WebhookDelivery> | undefined };
}

const internalsBySandbox = new WeakMap<Sandbox, SandboxInternals>();

/** The internals of a sandbox made by {@link createSandbox}. @internal */
export function sandboxInternals(sandbox: Sandbox): SandboxInternals {
  const internals = internalsBySandbox.get(sandbox);
  if (!internals) throw new WalletConfigError('sandbox', 'must be a sandbox returned by createSandbox');
  return internals;
}

function optionalUrl(value: string | null | undefined, field: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new WalletConfigError(field, 'must be an absolute http(s) URL or null');
  }
  return value;
}

/**
 * Creates a sandbox holding `seed` (the default seed when absent; see
 * `defaultSandboxSeed`). The seed is copied, so later changes to it do nothing.
 *
 * @example
 * const sandbox = createSandbox();
 * const { baseUrl, authUrl, close } = await startSandboxServer({ sandbox, port: 0 });
 */
export function createSandbox(
  seed: SandboxSeed = defaultSandboxSeed(),
  options: SandboxOptions = {},
): Sandbox {
  const state = buildState(structuredClone(seed));
  let errorShape: ErrorBodyShape = options.errorShape ?? 'code';
  assertErrorBodyShape(errorShape, 'options.errorShape');
  const maxBodyBytes = options.maxBodyBytes ?? 65_536;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new WalletConfigError('options.maxBodyBytes', 'must be an integer >= 1');
  }
  const autoSettleMs = options.autoSettleMs;
  if (autoSettleMs !== undefined && !(Number.isFinite(autoSettleMs) && autoSettleMs >= 0)) {
    throw new WalletConfigError('options.autoSettleMs', 'must be a number >= 0');
  }
  const now = options.now ?? (() => new Date());
  const dispatcher = new WebhookDispatcher(options.webhooks);
  const faults = new FaultInjector();
  const timers = new Set<NodeJS.Timeout>();
  const transactions = new Map<string, TransactionRecord>();
  let transactionCount = 0;

  const ctx: RuleContext = {
    state,
    transactions,
    newTransactionId: () => `txn_${String(++transactionCount).padStart(6, '0')}`,
    now: () => new Date(now()),
    sendWebhook: (url, event) => void dispatcher.send(url, event),
    onPending: (tx) => {
      if (autoSettleMs === undefined) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (tx.status === 'pending') settleDeposit(ctx, tx.id, automaticOutcome(ctx, tx));
      }, autoSettleMs);
      timer.unref();
      timers.add(timer);
    },
  };

  const authorizeAndNotify = (email: string, appId: string) => {
    if (typeof email !== 'string') throw new WalletConfigError('email', 'must be a string');
    if (typeof appId !== 'string') throw new WalletConfigError('appId', 'must be a string');
    const user = state.users.get(emailKey(email));
    if (!user) throw new WalletConfigError('email', `names no sandbox user (${email})`);
    const merchant = state.merchantsByApp.get(appId);
    if (!merchant) throw new WalletConfigError('appId', `names no sandbox merchant (${appId})`);
    for (const record of state.tokens.values()) {
      if (record.appId === appId && emailKey(record.email) === emailKey(email)) record.revoked = true;
    }
    const token = `tok_${randomBytes(24).toString('base64url')}`;
    state.tokens.set(token, { token, email: user.email, appId, revoked: false });
    const delivery =
      merchant.authWebhookUrl === undefined
        ? undefined
        : dispatcher.send(merchant.authWebhookUrl, {
            event: 'user_authorized',
            user_email: user.email,
            token,
          });
    return { token, delivery };
  };

  function totalMoney(): Record<string, number>;
  function totalMoney(currency: string): number;
  function totalMoney(currency?: string): number | Record<string, number> {
    const totals = sumMoney(state);
    return currency === undefined ? totals : (totals[currency] ?? 0);
  }

  const sandbox: Sandbox = {
    get errorShape() {
      return errorShape;
    },
    set errorShape(shape: ErrorBodyShape) {
      assertErrorBodyShape(shape, 'errorShape');
      errorShape = shape;
    },
    maxBodyBytes,
    webhooks: dispatcher,
    faults,
    authorize: ({ email, appId }) => authorizeAndNotify(email, appId).token,
    revoke: (token) => {
      const record = state.tokens.get(token);
      if (!record || record.revoked) return false;
      record.revoked = true;
      return true;
    },
    settle: (transactionId, outcome) => toSandboxTransaction(settleDeposit(ctx, transactionId, outcome)),
    transaction: (id) => {
      const tx = transactions.get(id);
      return tx && toSandboxTransaction(tx);
    },
    transactions: () => [...transactions.values()].map(toSandboxTransaction),
    balances: () => snapshotBalances(state),
    totalMoney,
    updateMerchant: (appId, patch) => {
      const merchant = state.merchantsByApp.get(appId);
      if (!merchant) throw new WalletConfigError('appId', `names no sandbox merchant (${appId})`);
      if (patch.active !== undefined) {
        if (typeof patch.active !== 'boolean')
          throw new WalletConfigError('patch.active', 'must be a boolean');
        merchant.active = patch.active;
      }
      if (patch.authWebhookUrl !== undefined) {
        merchant.authWebhookUrl = optionalUrl(patch.authWebhookUrl, 'patch.authWebhookUrl');
      }
      if (patch.depositWebhookUrl !== undefined) {
        merchant.depositWebhookUrl = optionalUrl(patch.depositWebhookUrl, 'patch.depositWebhookUrl');
      }
    },
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      dispatcher.close();
    },
  };
  internalsBySandbox.set(sandbox, { ctx, faults, authorizeAndNotify });
  return sandbox;
}
