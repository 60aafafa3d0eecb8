import { buildLoginUrl, isWalletApiError, parseDateCompleted, type TransactionResult } from '../../index.js';
import { money } from '../format-money.js';
import { submitLoginPage } from './browser-login.js';
import { DEMO_MERCHANT, type DemoEnvironment, SETTLE_AFTER_MS, startDemoEnvironment } from './environment.js';
import { createTranscript, type LineWriter, mask } from './transcript.js';

const USER = 'alice@example.com';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Called once everything is started, before the first step; tests use it to inject faults. */
  prepare?: (env: DemoEnvironment) => void;
}

/**
 * The whole merchant flow against a fresh sandbox, one transcript line per step. Rejects with a
 * `DemoStepError` naming the step that failed; everything it opened is closed either way.
 */
export async function runDemo(write: LineWriter, options: DemoOptions = {}): Promise<void> {
  const env = await startDemoEnvironment();
  try {
    options.prepare?.(env);
    await merchantFlow(env, write);
  } finally {
    await env.close();
  }
}

async function merchantFlow(env: DemoEnvironment, write: LineWriter): Promise<void> {
  const { sandbox, server, wallet, app } = env;
  const t = createTranscript(write);
  const moneyBefore = sandbox.totalMoney('KES');
  t.line('sandbox', `${server.baseUrl} (auth URL ${server.authUrl})`);
  t.line('merchant', `${DEMO_MERCHANT.name}, ${DEMO_MERCHANT.appId}, API key ${mask(DEMO_MERCHANT.apiKey)}`);
  t.line('webhooks', `${app.webhookUrl} (auth and deposit)`);

  const loginUrl = buildLoginUrl({
    authUrl: server.authUrl,
    appId: DEMO_MERCHANT.appId,
    redirectUrl: app.returnUrl,
    allowedRedirectHosts: [new URL(app.returnUrl).host],
  });
  t.line('login URL', loginUrl);

  await t.run('user approves', async () => {
    const visit = await submitLoginPage(loginUrl, USER, 'approve');
    if (visit.redirectedTo !== app.returnUrl) throw new Error(`redirected to ${visit.redirectedTo}`);
    return `"${visit.pageTitle}" as ${USER} → 303 to ${new URL(visit.redirectedTo).pathname} (${visit.landingStatus})`;
  });

  let userToken = '';
  await t.run('token received', async () => {
    const { event } = await app.inbox.waitFor(
      ({ event }) => event.type === 'user_authorized' && event.user_email === USER,
    );
    if (event.type !== 'user_authorized') throw new Error('unexpected event');
    userToken = event.token;
    return `user_authorized for ${event.user_email}: ${mask(event.token)}`;
  });

  await t.run('providers', async () => {
    const list = await wallet.listProviders({ userToken });
    const names = list.payment_providers.mobile_payment_providers.map((p) => p.provider_name).join(', ');
    return `${names} (defaults: deposit ${list.default_deposit_provider}, withdraw ${list.default_withdraw_provider})`;
  });

  let coveredId = '';
  await t.run('deposit', async () => {
    const result = await wallet.deposit(
      { reference_id: 'order-1001', amount: 150, currency: 'KES' },
      { userToken },
    );
    expectStatus(result.transaction_status, 'completed');
    coveredId = result.transaction_id;
    return `${coveredId}  ${money(result.amount, result.currency)}  ${result.transaction_status}, covered by the wallet`;
  });

  let pendingId = '';
  await t.run('deposit', async () => {
    const result = await wallet.deposit(
      { reference_id: 'order-1002', amount: 8000, currency: 'KES', payment_provider: 'mpesa' },
      { userToken },
    );
    expectStatus(result.transaction_status, 'pending');
    pendingId = result.transaction_id;
    return `${pendingId}  ${money(result.amount, result.currency)}  pending, through mpesa`;
  });

  await t.run('waited', async () => {
    const started = performance.now();
    let settledAt = 0;
    const settlement = setTimeout(() => {
      settledAt = performance.now();
      sandbox.settle(pendingId, { status: 'completed' });
    }, SETTLE_AFTER_MS);
    try {
      const seen: string[] = [];
      const final = await wallet.waitForTransaction(pendingId, {
        // The webhook ends this wait; polling is only the fallback in case it never comes.
        initialDelayMs: 15_000,
        timeoutMs: 5_000,
        events: app.transactionEvents,
        onStatus: (result) => void seen.push(result.transaction_status),
      });
      const seenAt = performance.now();
      expectStatus(final.transaction_status, 'completed');
      const woken = app.inbox.received.some((webhook) => webhook.status === final);
      return [
        `${pendingId}  ${seen.join(' → ')} in ${Math.round(seenAt - started)} ms:`,
        `settled at ${((settledAt - started) / 1000).toFixed(2)} s,`,
        `seen ${Math.round(seenAt - settledAt)} ms later`,
        woken ? 'on its verified webhook' : 'by polling',
      ].join(' ');
    } finally {
      clearTimeout(settlement);
    }
  });

  await t.run('webhook', async () => {
    const { verified } = await app.inbox.waitFor(
      ({ event }) => event.type === 'transaction' && event.transaction_id === pendingId,
    );
    if (!verified) throw new Error('the transaction webhook was not verified');
    return `${pendingId}  completed, read back from the status endpoint before trusting it`;
  });

  await t.run('withdrawal', async () => {
    const result = await wallet.withdraw({
      email: USER,
      amount: 300,
      currency: 'KES',
      reference_id: 'payout-2001',
      payment_provider: 'mpesa',
    });
    expectStatus(result.transaction_status, 'completed');
    if (result.date_completed === undefined) throw new Error('the withdrawal has no date_completed');
    const completed = parseDateCompleted(result.date_completed).toISOString();
    return `${result.transaction_id}  ${money(result.amount, result.currency)}  completed ${completed}, on to mpesa`;
  });

  await t.run('status', async () => {
    const result: TransactionResult = await wallet.getTransaction(coveredId);
    return `${coveredId}  ${result.transaction_status}, amount "${result.amount}", reference ${result.reference_id}`;
  });

  await t.run('handled error', async () => {
    try {
      await wallet.deposit({ reference_id: 'order-1003', amount: 999_999, currency: 'KES' }, { userToken });
    } catch (error) {
      if (!isWalletApiError(error, 'insufficient_balance')) throw error;
      return `${error.code} (HTTP ${error.status}): ask the user to pick a provider or top up`;
    }
    throw new Error('the deposit above the balance was accepted');
  });

  await t.run('money', async () => {
    const after = sandbox.totalMoney('KES');
    if (after !== moneyBefore) throw new Error(`KES total went from ${moneyBefore} to ${after}`);
    return `${money(after, 'KES')} across merchants, wallets and providers, unchanged`;
  });
}

function expectStatus(actual: string, expected: string): void {
  if (actual !== expected) throw new Error(`transaction is ${actual}, expected ${expected}`);
}
