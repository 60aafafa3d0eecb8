// Checks shared by the runtime smokes (smoke.mjs) and the Worker smoke (../worker/smoke-worker.mjs).
import {
  isWalletApiError,
  isWalletError,
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
