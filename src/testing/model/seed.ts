import { SANDBOX_SCENARIOS } from './scenarios.js';

/**
 * How a user's account at one payment provider behaves:
 * - `ok`: requests go through; pending deposits settle as completed.
 * - `psp_error`: any request naming this provider fails with `psp_error`.
 * - `decline`: deposits start, but automatic settlement ends them `failed`.
 */
export type ProviderBehavior = 'ok' | 'psp_error' | 'decline';

/** A payment provider linked to a user, with the user's money held there. */
export interface SandboxProviderSeed {
  /** The value clients pass as `payment_provider`. Letters, digits, `_`, `-` and `.`, up to 64 characters. */
  name: string;
  /** Phone number tied to the provider for this user. */
  phone_number: string;
  /**
   * The user's balances at the provider, per currency. This is money outside
   * the wallet: deposits through the provider take from it, withdrawals to it add to it.
   * A currency absent here gives `psp_currency_balance_not_found`.
   */
  balances?: Record<string, number>;
  /** @default 'ok' */
  behavior?: ProviderBehavior;
}

/** A wallet user. */
export interface SandboxUserSeed {
  /** Matched case-insensitively. */
  email: string;
  /** Wallet balances per currency; a currency absent here gives `user_balance_not_found`. */
  balances?: Record<string, number>;
  /** @default true */
  active?: boolean;
  /** @default [] */
  providers?: SandboxProviderSeed[];
  /** @default the first provider's name, or `''` when there is none */
  default_deposit_provider?: string;
  /** @default the first provider's name, or `''` when there is none */
  default_withdraw_provider?: string;
}

/** A merchant account and its registered application. */
export interface SandboxMerchantSeed {
  /** Shown on the login page. @default the app id */
  name?: string;
  /** The `x-api-key` value. */
  apiKey: string;
  /** The `app_id` of the login URL. */
  appId: string;
  /** Merchant balances per currency; a currency absent here gives `merchant_balance_not_found`. */
  balances?: Record<string, number>;
  /** @default true */
  active?: boolean;
  /** Receives `user_authorized` events. */
  authWebhookUrl?: string;
  /** Receives deposit results when the request names no `webhook_url`. */
  depositWebhookUrl?: string;
}

/** A token issued before the sandbox starts, as if the user had approved the app. */
export interface SandboxTokenSeed {
  /** The token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /** The user it acts for. */
  email: string;
  /** The app it was issued to. */
  appId: string;
}

/** Everything the sandbox starts with. */
export interface SandboxSeed {
  /**
   * Currencies the service accepts; any other gives `invalid_currency`. Codes are
   * case-sensitive.
   * @default every currency named in a balance of the seed
   */
  currencies?: string[];
  /** The merchants; the first is the one the CLI's banner and `--webhook-url` are about. */
  merchants: SandboxMerchantSeed[];
  /** The wallet users. */
  users: SandboxUserSeed[];
  /** Tokens valid from the start. @default [] */
  tokens?: SandboxTokenSeed[];
}

/**
 * A fresh copy of the default seed, safe to modify before passing it to
 * `createSandbox`. It reaches every documented error code, and its scenario users
 * (`SANDBOX_SCENARIOS`) script how a pending deposit ends; see docs/sandbox.md
 * for which request gives which.
 *
 * @example
 * const seed = defaultSandboxSeed();
 * seed.merchants[0]!.depositWebhookUrl = receiverUrl;
 * const sandbox = createSandbox(seed);
 */
export function defaultSandboxSeed(): SandboxSeed {
  return {
    currencies: ['KES', 'UGX', 'TZS', 'USD'],
    merchants: [
      {
        name: 'Demo Shop',
        apiKey: 'sk_sandbox_demo_shop',
        appId: 'app_demo_shop',
        balances: { KES: 100_000, UGX: 1_000_000, USD: 1_000 },
      },
      {
        name: 'Other Shop',
        apiKey: 'sk_sandbox_other_shop',
        appId: 'app_other_shop',
        balances: { KES: 50_000 },
      },
      {
        name: 'Closed Shop',
        apiKey: 'sk_sandbox_closed_shop',
        appId: 'app_closed_shop',
        balances: { KES: 1_000 },
        active: false,
      },
    ],
    users: [
      {
        email: 'alice@example.com',
        balances: { KES: 5_000, UGX: 20_000, TZS: 10_000 },
        providers: [
          { name: 'mpesa', phone_number: '+254700000001', balances: { KES: 50_000 } },
          { name: 'airtel', phone_number: '+256700000001', balances: { UGX: 100_000 } },
        ],
      },
      {
        email: 'bob@example.com',
        balances: { KES: 100 },
        providers: [
          { name: 'mpesa', phone_number: '+254700000002', balances: { KES: 20_000 } },
          { name: 'airtel', phone_number: '+256700000002', balances: { UGX: 5_000 } },
          {
            name: 'flakypay',
            phone_number: '+254700000003',
            balances: { KES: 10_000 },
            behavior: 'psp_error',
          },
          {
            name: 'declinepay',
            phone_number: '+254700000004',
            balances: { KES: 10_000 },
            behavior: 'decline',
          },
        ],
        default_deposit_provider: 'mpesa',
        default_withdraw_provider: 'airtel',
      },
      {
        email: 'carol@example.com',
        balances: { KES: 1_000 },
        active: false,
        providers: [{ name: 'mpesa', phone_number: '+254700000005', balances: { KES: 1_000 } }],
      },
      ...scenarioUsers(),
    ],
    tokens: [
      { token: 'tok_sandbox_alice', email: 'alice@example.com', appId: 'app_demo_shop' },
      { token: 'tok_sandbox_bob', email: 'bob@example.com', appId: 'app_demo_shop' },
      { token: 'tok_sandbox_carol', email: 'carol@example.com', appId: 'app_demo_shop' },
      { token: 'tok_sandbox_alice_other', email: 'alice@example.com', appId: 'app_other_shop' },
      ...scenarioTokens(),
    ],
  };
}

/** The default seed's scenario users: an empty wallet and an `mpesa` account with the scenario's number. */
function scenarioUsers(): SandboxUserSeed[] {
  return SANDBOX_SCENARIOS.map((scenario) => ({
    email: scenario.email,
    balances: { KES: 0 },
    providers: [{ name: 'mpesa', phone_number: scenario.phoneNumber, balances: { KES: 10_000 } }],
  }));
}

/** Each scenario user's token for `app_demo_shop`. */
function scenarioTokens(): SandboxTokenSeed[] {
  return SANDBOX_SCENARIOS.map((scenario) => ({
    token: scenario.token,
    email: scenario.email,
    appId: 'app_demo_shop',
  }));
}
