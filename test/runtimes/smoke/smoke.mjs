// Runs the built package (ESM) in whatever runtime executes this file and prints one JSON
// line of results. The system suite starts the sandbox, runs this in each runtime and
// compares the line with exact expectations.
import { WalletClient, WalletError } from '../../../dist/index.js';
import { buildLoginUrl, WalletLoginUrlError } from '../../../dist/login.js';
import { createWebhookHandler, parseWebhookEvent, WalletWebhookError } from '../../../dist/webhooks.js';
import { handlerChecks, loginUrlCheck, refusalChecks, vaultChecks } from './checks.mjs';
import { env, runtime, within } from './env.mjs';
import { serve } from './serve.mjs';

const baseUrl = env('SMOKE_BASE_URL');
const authUrl = env('SMOKE_AUTH_URL');
const alice = { userToken: 'tok_sandbox_alice' };
const bob = { userToken: 'tok_sandbox_bob' };

// Counts calls of the global fetch, so the result shows which transport the SDK picked.
const realFetch = globalThis.fetch;
let fetchCalls = 0;
globalThis.fetch = (...args) => {
  fetchCalls += 1;
  return realFetch(...args);
};

const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl, maxRetries: 1 });
const result = { runtime: runtime() };

result.providers = (await wallet.listProviders(alice)).payment_providers.mobile_payment_providers.map(
  (p) => p.provider_name,
);
result.transport = fetchCalls > 0 ? 'fetch' : 'node:http';

const deposit = await wallet.deposit({ reference_id: 'smoke-dep-1', amount: 150, currency: 'KES' }, alice);
result.deposit = pick(deposit, ['transaction_status', 'amount', 'currency']);

const withdrawal = await wallet.withdraw({ email: 'alice@example.com', amount: 300, currency: 'KES' });
result.withdrawal = {
  ...pick(withdrawal, ['transaction_status', 'amount']),
  hasDate: withdrawal.date_completed > 0,
};

const status = await wallet.getTransaction(deposit.transaction_id);
result.status = pick(status, ['transaction_status', 'amount', 'reference_id']);

// A given fetch is always the one called, on every runtime.
const viaFetch = new WalletClient({
  apiKey: 'sk_sandbox_demo_shop',
  baseUrl,
  fetch: (...args) => globalThis.fetch(...args),
});
const callsBefore = fetchCalls;
const statusViaFetch = await viaFetch.getTransaction(deposit.transaction_id);
result.fetchOption = {
  transaction_status: statusViaFetch.transaction_status,
  fetchCalls: fetchCalls - callsBefore,
};

// A Fetch-API webhook endpoint served by this runtime; the sandbox posts the pending deposit's result to it.
let resolveWebhook;
const webhookSeen = new Promise((resolve) => {
  resolveWebhook = resolve;
});
const served = await serve(
  createWebhookHandler({
    verifyWith: wallet,
    onTransaction: (event, context) =>
      resolveWebhook({
        transaction_status: event.transaction_status,
        verified: context.verified,
        confirmed: context.verified ? context.status.transaction_status : undefined,
      }),
    onUserAuthorized: () => undefined,
  }),
);
try {
  const pending = await wallet.deposit(
    {
      reference_id: 'smoke-dep-2',
      amount: 900,
      currency: 'KES',
      payment_provider: 'mpesa',
      webhook_url: served.url,
    },
    bob,
  );
  const final = await wallet.waitForTransaction(pending.transaction_id, {
    timeoutMs: 10_000,
    initialDelayMs: 50,
  });
  result.pending = { first: pending.transaction_status, final: final.transaction_status };
  result.delivered = await within(10_000, 'webhook delivery', webhookSeen);
  const posted = await realFetch(served.url, {
    method: 'POST',
    body: JSON.stringify({ event: 'user_authorized', user_email: 'alice@example.com', token: 'tok_x' }),
  });
  result.served = { via: served.via, status: posted.status, body: await posted.json() };
} finally {
  await served.close();
}

Object.assign(result, await refusalChecks(wallet, alice));
result.loginUrl = loginUrlCheck(authUrl);
const badLogin = catchSync(() =>
  buildLoginUrl({ authUrl, appId: ' ', redirectUrl: 'https://shop.example.com/' }),
);
result.loginError = {
  field: badLogin.field,
  isLoginError: badLogin instanceof WalletLoginUrlError,
  isWalletError: badLogin instanceof WalletError,
};

const event = parseWebhookEvent(
  new TextEncoder().encode('{"transaction_id":"txn_9","transaction_status":"failed","amount":"5.00"}'),
);
const badEvent = catchSync(() => parseWebhookEvent('{"event":"refund"}'));
result.parsed = {
  type: event.type,
  status: event.transaction_status,
  amount: event.amount,
  badReason: badEvent.reason,
  badIsWebhookError: badEvent instanceof WalletWebhookError,
};

result.handler = await handlerChecks();
result.vault = await vaultChecks(baseUrl);

console.log(JSON.stringify(result));

function pick(object, keys) {
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
}

function catchSync(run) {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
