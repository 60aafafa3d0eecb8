// The runtimes smoke as a Cloudflare Worker: bundled with esbuild (--platform=neutral) and run on
// workerd through miniflare by run-worker.mjs. A request to /smoke runs every check against the
// sandbox named by the SMOKE_BASE_URL and SMOKE_AUTH_URL bindings and answers one JSON object.
import { WalletClient } from '../../../dist/index.js';
import { handlerChecks, loginUrlCheck, refusalChecks, vaultChecks } from '../smoke/checks.mjs';

const alice = { userToken: 'tok_sandbox_alice' };
const bob = { userToken: 'tok_sandbox_bob' };

async function smoke(env) {
  const baseUrl = env.SMOKE_BASE_URL;
  const authUrl = env.SMOKE_AUTH_URL;
  // Counts calls of the global fetch: the SDK must pick its fetch transport, never the Node one.
  const realFetch = globalThis.fetch;
  let fetchCalls = 0;
  globalThis.fetch = (...args) => {
    fetchCalls += 1;
    return realFetch(...args);
  };
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl, maxRetries: 1 });
  const result = { runtime: { name: 'workerd', userAgent: globalThis.navigator?.userAgent } };

  result.providers = (await wallet.listProviders(alice)).payment_providers.mobile_payment_providers.map(
    (p) => p.provider_name,
  );
  result.transport = fetchCalls > 0 ? 'fetch' : 'node:http';

  const { data: deposit, response } = await wallet
    .deposit({ reference_id: 'smoke-dep-1', amount: 150, currency: 'KES' }, alice)
    .withResponse();
  result.deposit = pick(deposit, ['transaction_status', 'amount', 'currency']);
  result.withResponse = { status: response.status, attempts: response.attempts };

  const withdrawal = await wallet.withdraw({ email: 'alice@example.com', amount: 300, currency: 'KES' });
  result.withdrawal = {
    ...pick(withdrawal, ['transaction_status', 'amount']),
    hasDate: withdrawal.date_completed > 0,
  };

  const status = await wallet.getTransaction(deposit.transaction_id);
  result.status = pick(status, ['transaction_status', 'amount', 'reference_id']);

  const pending = await wallet.deposit(
    { reference_id: 'smoke-dep-2', amount: 900, currency: 'KES', payment_provider: 'mpesa' },
    bob,
  );
  const final = await wallet.waitForTransaction(pending.transaction_id, {
    timeoutMs: 10_000,
    initialDelayMs: 50,
  });
  result.pending = { first: pending.transaction_status, final: final.transaction_status };

  Object.assign(result, await refusalChecks(wallet, alice));
  result.loginUrl = loginUrlCheck(authUrl);
  result.handler = await handlerChecks();
  result.vault = await vaultChecks(baseUrl);
  result.fetchCalls = fetchCalls > 0;
  globalThis.fetch = realFetch;
  return result;
}

function pick(object, keys) {
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
}

export default {
  async fetch(_request, env) {
    try {
      return Response.json(await smoke(env));
    } catch (error) {
      return Response.json({ error: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
