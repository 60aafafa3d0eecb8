import type { ForgeryRequest } from './forge/forgery.js';
import type { ErrorBodyShape } from './http/error-body.js';
import type { SandboxFaults } from './http/faults.js';
import type { SandboxClock } from './model/clock.js';
import type { SandboxEvent } from './model/events.js';
import type { SandboxBalances } from './model/read-models.js';
import type { SandboxUserSeed } from './model/seed.js';
import type { SandboxTransaction } from './model/transactions.js';
import type { BalanceTarget } from './rules/admin.js';
import type { RevokeResult, RevokeTarget } from './rules/revoke.js';
import type { SettleOutcome } from './rules/settlement.js';
import type { SandboxWebhooks, WebhookDelivery, WebhookRetryOptions } from './serve/webhook-types.js';

/** Behaviour of a sandbox beyond its data. */
export interface SandboxOptions {
  /** Shape of error bodies; can be changed later through `sandbox.errorShape`. @default 'code' */
  errorShape?: ErrorBodyShape;
  /**
   * Settle pending deposits automatically this many ms (of sandbox time) after they start, at most
   * ten years (`SANDBOX_LIMITS.autoSettleMs`); never when absent. Scenario phone numbers (`SANDBOX_SCENARIOS`) settle on their own schedule either way.
   */
  autoSettleMs?: number;
  /** Retry policy of webhook deliveries. */
  webhooks?: WebhookRetryOptions;
  /** Largest accepted request body, 1 to 67108864 (64 MiB); larger ones get 413. @default 65536 */
  maxBodyBytes?: number;
  /**
   * The clock used for `date_completed` and record times, before any `clock.advance`. Its dates must
   * fall in the years 1 to 9999 (`date_completed` has four digits for the year).
   * @default () => new Date()
   */
  now?: () => Date;
  /**
   * The key of the control API under `${baseUrl}/_sandbox/`, sent as the `x-sandbox-key` header.
   * Without it the control API answers 404, as if absent. At least 16 characters.
   */
  controlKey?: string;
  /** Called with every {@link SandboxEvent} (webhook attempts, approvals, settlements), e.g. to print them. */
  onEvent?: (event: SandboxEvent) => void;
}

/** Which merchant's settings {@link Sandbox.updateMerchant} changes, and how. */
export interface MerchantPatch {
  /** Whether the merchant may make payments (`merchant_not_active` when not). */
  active?: boolean;
  /** Receives `user_authorized`. `null` removes the URL. */
  authWebhookUrl?: string | null;
  /** Receives deposit results when the request names no `webhook_url`. `null` removes the URL. */
  depositWebhookUrl?: string | null;
}

/** A stateful, in-memory Merchant Wallet service. Serve it with `startSandboxServer` or `sandboxHandlers`. */
export interface Sandbox {
  /** Shape of error bodies from now on. Setting an unknown shape throws `WalletConfigError`. */
  errorShape: ErrorBodyShape;
  /** Largest accepted request body in bytes. */
  readonly maxBodyBytes: number;
  /** Deliveries of `user_authorized` and transaction-result webhooks, and delivery faults. */
  readonly webhooks: SandboxWebhooks;
  /** Fault injection for the API routes. */
  readonly faults: SandboxFaults;
  /** The sandbox's time; `clock.advance(ms)` settles and delivers what that time would. */
  readonly clock: SandboxClock;
  /**
   * Same effect as approving `appId` on the login page as `email`: issues a new
   * token (revoking the user's previous one for that app) and sends
   * `user_authorized` to the merchant's auth webhook URL in the background.
   * @returns the token
   */
  authorize(input: {
    /** The user's e-mail. */
    email: string;
    /** The app to approve. */
    appId: string;
  }): string;
  /**
   * Ends tokens, as a user revoking the app in the wallet app does: one `token`, or every token of
   * the user with `email` (for `appId` only, when given). Deposits and provider listings with them
   * are answered `application_not_authorized` until the user approves the app again on the login
   * page, which issues a new token. Revoking a token that is already revoked changes nothing.
   * @throws {SandboxNotFoundError} (a `WalletConfigError`) naming `token`, `email` or `appId` when
   *   the sandbox holds no such token, user or app; the token itself is never repeated.
   * @example
   * sandbox.revoke({ email: 'alice@example.com' }); // { email: 'alice@example.com', revoked: 2 }
   */
  revoke(target: RevokeTarget): RevokeResult;
  /**
   * Short form of `revoke({ token })` that never throws.
   * @returns whether a live token was revoked
   */
  revoke(token: string): boolean;
  /**
   * Ends a pending deposit and sends its result webhook (as `outcome.delivery` says).
   * Throws `WalletConfigError` for anything but a pending deposit.
   */
  settle(transactionId: string, outcome: SettleOutcome): SandboxTransaction;
  /**
   * Sends what an attacker or a broken network would in place of a genuine webhook: a forged event
   * (unknown transaction id; changed amount, status, reference or currency), malformed JSON, an
   * oversized body, an unknown event type, or `user_authorized` with a made-up token. It is logged,
   * retried and planned like any delivery, with `forgery` and the exact `body` on its record.
   * @throws {WalletConfigError} naming the field: an unknown kind, merchant or deposit, or no URL.
   * @returns the delivery as it starts
   * @example
   * sandbox.forge({ kind: 'changed-amount', transactionId: 'txn_000002' });
   */
  forge(request: ForgeryRequest): WebhookDelivery;
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
  /** Sets one balance (this creates or destroys money, unlike a request). */
  setBalance(target: BalanceTarget): void;
  /** Adds a user, or replaces the one with that e-mail (its tokens stay valid). */
  putUser(user: SandboxUserSeed): void;
  /**
   * Back to the seed: balances, users, tokens and merchant settings as created; no transactions,
   * deliveries, delivery plans, faults or timed events. Transaction ids keep counting up, and the
   * clock keeps its offset (time never runs backwards).
   */
  reset(): void;
  /** Stops timed events and webhook retries. */
  close(): void;
}
