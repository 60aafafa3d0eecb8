// The CommonJS build, as `require` users load it in Node. Prints one JSON line of results.
const { WalletClient, WalletError, isWalletApiError } = require('../../../dist/index.cjs');
const { buildLoginUrl } = require('../../../dist/login.cjs');
const { createWebhookHandler, parseWebhookEvent } = require('../../../dist/webhooks.cjs');

async function main() {
  const baseUrl = process.env.SMOKE_BASE_URL;
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl });
  const viaFetch = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl, fetch });
  const result = { version: process.versions.node };

  const providers = await wallet.listProviders({ userToken: 'tok_sandbox_bob' });
  result.defaults = [providers.default_deposit_provider, providers.default_withdraw_provider];

  const deposit = await wallet.deposit(
    { reference_id: 'cjs-dep-1', amount: 50, currency: 'KES' },
    { userToken: 'tok_sandbox_alice' },
  );
  // A given fetch is called by the CJS build too.
  result.status = (await viaFetch.getTransaction(deposit.transaction_id)).transaction_status;

  const missing = await viaFetch.getTransaction('txn_missing').catch((error) => error);
  // The ESM build's WalletError must recognise errors of the CJS build: one app can load both.
  const esm = await import('../../../dist/index.js');
  result.missing = {
    narrowed: isWalletApiError(missing, 'transaction_not_found'),
    status: missing.status,
    cjsWalletError: missing instanceof WalletError,
    esmWalletError:
      missing instanceof esm.WalletError && esm.isWalletApiError(missing, 'transaction_not_found'),
  };

  result.loginUrl = buildLoginUrl({
    authUrl: 'https://auth.example.com/wallet',
    appId: 'app_demo_shop',
    redirectUrl: 'https://shop.example.com/done',
  });
  result.parsed = parseWebhookEvent(
    Buffer.from('{"event":"user_authorized","user_email":"a@b.c","token":"t"}'),
  ).type;
  const handler = createWebhookHandler({ onUserAuthorized: () => undefined });
  const answer = await handler(new Request('http://shop.test/', { method: 'PUT', body: '{}' }));
  result.handler = [answer.status, answer.headers.get('allow')];

  console.log(JSON.stringify(result));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
