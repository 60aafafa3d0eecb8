import type { WalletEndpoint, WalletErrorCode, WithdrawRequest } from '../../src/index.js';
import { fetchWithout, KEYS, type Target, TOKENS, type TransportName } from './harness.js';

/** State the cases rely on, made through the SDK before they run. */
export interface Fixtures {
  /** A transaction of another merchant, which the demo merchant may not read. */
  readonly otherShopTransaction: string;
  /** A reference id the demo merchant has already used. */
  readonly usedReference: string;
  /** A fresh reference id; the same sequence on every target, so answers compare. */
  ref(): string;
}

/** Makes the {@link Fixtures} on `target`. */
export async function prepareFixtures(target: Target, transport: TransportName): Promise<Fixtures> {
  let count = 0;
  const ref = () => `ref-${++count}`;
  const other = await target
    .client(transport, { apiKey: KEYS.other })
    .deposit({ reference_id: ref(), amount: 10, currency: 'KES' }, { userToken: TOKENS.aliceAtOtherShop });
  const usedReference = ref();
  await target
    .client(transport)
    .deposit({ reference_id: usedReference, amount: 10, currency: 'KES' }, { userToken: TOKENS.alice });
  return { otherShopTransaction: other.transaction_id, usedReference, ref };
}

/**
 * How a case reaches its code: `request`, a request the SDK sends as is; `proxy`, a request
 * whose credential header is dropped on the way (the SDK always sends its own); `fault`, an
 * injected answer, for codes whose cause the SDK refuses before sending.
 */
export type Route = 'request' | 'proxy' | 'fault';

/** One documented error code and a call through the SDK that gets it from the sandbox. */
export interface CodeCase {
  readonly code: WalletErrorCode;
  readonly endpoint: WalletEndpoint;
  readonly route: Route;
  call(target: Target, transport: TransportName, fixtures: Fixtures): Promise<unknown>;
}

const alice = { userToken: TOKENS.alice };
const bob = { userToken: TOKENS.bob };
const kes = (fixtures: Fixtures, amount = 10) => ({ reference_id: fixtures.ref(), amount, currency: 'KES' });
const payout = (fixtures: Fixtures, fields: Partial<WithdrawRequest> = {}): WithdrawRequest => ({
  email: 'alice@example.com',
  amount: 10,
  currency: 'KES',
  reference_id: fixtures.ref(),
  ...fields,
});

/** Every one of the 22 codes, with the request the docs' table names where the SDK lets it through. */
export const CODE_CASES: readonly CodeCase[] = [
  {
    code: 'missing_api_key',
    endpoint: 'deposit',
    route: 'proxy',
    call: (t, _, f) => t.client('fetch', { fetch: fetchWithout('x-api-key') }).deposit(kes(f), alice),
  },
  {
    code: 'invalid_api_key',
    endpoint: 'providers',
    route: 'request',
    call: (t, tr) => t.client(tr, { apiKey: 'sk_unknown' }).listProviders(alice),
  },
  {
    code: 'authorization_token_not_found',
    endpoint: 'providers',
    route: 'proxy',
    call: (t) => t.client('fetch', { fetch: fetchWithout('authorization') }).listProviders(alice),
  },
  {
    code: 'application_not_authorized',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit(kes(f), { userToken: TOKENS.aliceAtOtherShop }),
  },
  {
    code: 'invalid_currency',
    endpoint: 'withdraw',
    route: 'request',
    call: (t, tr, f) => t.client(tr).withdraw(payout(f, { currency: 'XYZ' })),
  },
  {
    code: 'invalid_webhook_url',
    endpoint: 'deposit',
    route: 'fault',
    call: (t, tr, f) => {
      t.sandbox.faults.inject({ route: 'deposit', kind: 'error', code: 'invalid_webhook_url' });
      return t.client(tr).deposit({ ...kes(f), webhook_url: 'https://shop.example/hooks' }, alice);
    },
  },
  {
    code: 'user_not_active',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit(kes(f), { userToken: TOKENS.carol }),
  },
  {
    code: 'user_balance_not_found',
    endpoint: 'withdraw',
    route: 'request',
    call: (t, tr, f) => t.client(tr).withdraw(payout(f, { currency: 'USD' })),
  },
  {
    code: 'merchant_not_active',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr, { apiKey: KEYS.closed }).deposit(kes(f), alice),
  },
  {
    code: 'merchant_balance_not_found',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit({ ...kes(f), currency: 'TZS' }, alice),
  },
  {
    code: 'invalid_amount',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit(kes(f, 10.125), alice),
  },
  {
    code: 'insufficient_balance',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit(kes(f, 999_999), alice),
  },
  {
    code: 'provider_not_found',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit({ ...kes(f), payment_provider: 'tigo' }, alice),
  },
  {
    code: 'psp_currency_balance_not_found',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit({ ...kes(f, 5_000), payment_provider: 'airtel' }, bob),
  },
  {
    code: 'invalid_provider_name',
    endpoint: 'deposit',
    route: 'request',
    call: (t, tr, f) => t.client(tr).deposit({ ...kes(f), payment_provider: 'bad name!' }, alice),
  },
  {
    code: 'psp_error',
    endpoint: 'deposit',
    route: 'request',
    // 502 is retried; one attempt is enough to see the code.
    call: (t, tr, f) =>
      t.client(tr, { maxRetries: 0 }).deposit({ ...kes(f, 5_000), payment_provider: 'flakypay' }, bob),
  },
  {
    code: 'reference_already_used',
    endpoint: 'withdraw',
    route: 'request',
    call: (t, tr, f) => t.client(tr).withdraw(payout(f, { reference_id: f.usedReference })),
  },
  {
    code: 'invalid_email',
    endpoint: 'withdraw',
    route: 'fault',
    call: (t, tr, f) => {
      t.sandbox.faults.inject({ route: 'withdraw', kind: 'error', code: 'invalid_email' });
      return t.client(tr).withdraw(payout(f));
    },
  },
  {
    code: 'user_not_found',
    endpoint: 'withdraw',
    route: 'request',
    call: (t, tr, f) => t.client(tr).withdraw(payout(f, { email: 'nobody@example.com' })),
  },
  {
    code: 'transaction_not_found',
    endpoint: 'status',
    route: 'request',
    call: (t, tr) => t.client(tr).getTransaction('txn_999999'),
  },
  {
    code: 'transaction_access_forbidden',
    endpoint: 'status',
    route: 'request',
    call: (t, tr, f) => t.client(tr).getTransaction(f.otherShopTransaction),
  },
  {
    code: 'internal_server_error',
    endpoint: 'status',
    route: 'request',
    // 500 is retried; one attempt is enough to see the code.
    call: (t, tr) => t.client(tr, { maxRetries: 0 }).getTransaction('sandbox_internal_error'),
  },
];
