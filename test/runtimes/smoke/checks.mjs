// Checks shared by the runtime smokes (smoke.mjs) and the Worker smoke (../worker/smoke-worker.mjs).
import {
  createMemoryTokenStore,
  createTokenVault,
  isWalletApiError,
  isWalletError,
  WalletClient,
  WalletError,
  WalletOutcomeUnknownError,
} from '../../../dist/index.js';
import { buildLoginUrl } from '../../../dist/login.js';
import { createWebhookHandler } from '../../../dist/webhooks.js';

/** A refused deposit narrowed by code, and a withdrawal whose outcome the suite makes unknown. */
export async function refusalChecks(wallet, user) {
  const refused = await wallet
    .deposit({ reference_id: 'smoke-dep-3', amount: 999_999, currency: 'KES' }, user)
    .catch((error) => error);
  // The suite arms a fault that applies this withdrawal and drops the connection, so the retry meets its own reference_id.
  const unknown = await wallet
    .withdraw({ email: 'alice@example.com', amount: 10, currency: 'KES', reference_id: 'smoke-wd-unknown' })
    .catch((error) => error);
  return {
    apiError: {
      narrowed: isWalletApiError(refused, 'insufficient_balance'),
      status: refused.status,
      endpoint: refused.endpoint,
    },
    outcomeUnknown: {
      name: unknown.name,
      isOutcomeUnknown: unknown instanceof WalletOutcomeUnknownError,
      isWalletError: unknown instanceof WalletError && isWalletError(unknown),
      referenceId: unknown.referenceId,
    },
  };
}

/** The login URL, with the sandbox's address replaced so the expectation is fixed. */
export function loginUrlCheck(authUrl) {
  return buildLoginUrl({
    authUrl,
    appId: 'app_demo_shop',
    redirectUrl: 'https://shop.example.com/done',
  }).replace(authUrl, '{authUrl}');
}

/** The webhook handler called with Requests: an event, its duplicate and a malformed body. */
export async function handlerChecks() {
  const seen = [];
  const handler = createWebhookHandler({ onTransaction: (e) => void seen.push(e.transaction_id) });
  const post = (body) => handler(new Request('http://shop.test/webhook', { method: 'POST', body }));
  const first = await post('{"transaction_id":"txn_7","transaction_status":"completed"}');
  const again = await post('{"transaction_id":"txn_7","transaction_status":"completed"}');
  const broken = await post('{');
  return {
    first: await first.json(),
    again: await again.json(),
    broken: [broken.status, (await broken.json()).error],
    seen,
  };
}

/** The token vault on this runtime's WebCrypto: a deposit by e-mail, a sealed row, a moved row refused. */
export async function vaultChecks(baseUrl) {
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const store = createMemoryTokenStore();
  const vault = createTokenVault({
    store,
    keys: { primary: 'k1', keys: { k1: key } },
    appId: 'app_demo_shop',
  });
  await vault.receive({ user_email: 'alice@example.com', token: 'tok_sandbox_alice' });
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl, maxRetries: 1, tokens: vault });
  const deposit = await wallet.deposit(
    { reference_id: 'smoke-vault-1', amount: 5, currency: 'KES' },
    { user: 'alice@example.com' },
  );
  const row = await store.get('user:alice@example.com');
  await store.compareAndSet('user:mallory@example.com', undefined, row);
  const moved = await vault.tokenFor('mallory@example.com').catch((error) => error);
  return {
    deposit: deposit.transaction_status,
    sealed: /^\{"current":"mwt1\.k1\.[\w-]{16}\.[\w-]+"\}$/.test(row),
    plaintextAtRest: row.includes('tok_sandbox_alice'),
    movedRow: moved.name,
  };
}
