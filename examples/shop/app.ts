import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import {
  isReauthorizationRequired,
  type PaymentJournal,
  type TokenVault,
  type WalletClient,
  WalletError,
  WalletJournalError,
  WalletLoginStateError,
  WalletOutcomeUnknownError,
} from 'merchant-wallet';
import type { WebhookHandler } from 'merchant-wallet/webhooks';
import { kes, page } from './html.js';
import type { Order, OrderStore } from './orders.js';
import { referenceOf, type Settle } from './settle.js';

export interface ShopDeps {
  readonly wallet: WalletClient;
  readonly vault: TokenVault;
  readonly journal: PaymentJournal;
  readonly orders: OrderStore;
  readonly webhook: WebhookHandler;
  readonly webhookUrl: string;
  readonly settle: Settle;
  /** Waits for a pending deposit (status polls, woken by its webhook) and settles it. */
  readonly follow: (referenceId: string, transactionId: string) => void;
  /** False until start-up recovery has run: no new payment before that. */
  readonly ready: () => boolean;
}

const PRODUCTS = [
  { name: 'Coffee beans, 1 kg', amount: 1_200 },
  { name: 'Espresso machine', amount: 8_000 },
];

const STATUS_TEXT: Record<Order['status'], string> = {
  new: 'Confirming your payment…',
  pending: 'Waiting for you to approve the payment on your phone…',
  paid: 'Paid. Thank you!',
  failed: 'The payment did not go through. Nothing was charged.',
};

export function createApp(deps: ShopDeps) {
  const { wallet, vault, journal, orders, settle } = deps;
  const app = new Hono<{ Variables: { account: string } }>();

  // The webhook reads its own body (with a size limit): hand it the raw request.
  app.post('/wallet/webhook', (c) => deps.webhook(c.req.raw));

  // A browser is an account; a real shop has its own sign-in here.
  app.use(async (c, next) => {
    let account = getCookie(c, 'account');
    if (account === undefined) {
      account = randomUUID();
      setCookie(c, 'account', account, { httpOnly: true, sameSite: 'Lax', path: '/' });
    }
    c.set('account', account);
    await next();
  });

  /** What the customer sees when a payment throws: reconnect, wait, or a refusal. */
  async function paymentFailed(c: Context, order: Order, error: unknown) {
    const reference = referenceOf(order);
    if (
      error instanceof WalletOutcomeUnknownError ||
      (error instanceof WalletJournalError && error.mayBeSentLater)
    )
      return c.redirect(`/orders/${order.id}`, 303); // may have moved money: recovery or the webhook settles it
    if (!(error instanceof WalletError)) throw error;
    await settle(reference, 'failed'); // a plain refusal: nothing moved
    if (isReauthorizationRequired(error)) {
      const connect = `/wallet/connect?email=${encodeURIComponent(error.userEmail ?? order.email)}`;
      return c.html(
        page(
          'Reconnect your wallet',
          html`<p>Your wallet no longer lets this shop take payments.</p>
          <p><a href="${connect}">Reconnect your wallet</a>, then try again. Nothing was charged.</p>`,
        ),
      );
    }
    return c.html(
      page('Payment refused', html`<p>${error.message}</p><p><a href="/">Back to the shop</a></p>`),
      422,
    );
  }

  app.get('/', async (c) => {
    const email = await orders.walletOf(c.get('account'));
    const wallet = email
      ? html`<p>Paying with the wallet of <strong>${email}</strong>.</p>`
      : html`<p><a href="/wallet/connect">Connect your wallet</a> to buy.</p>`;
    const items = PRODUCTS.map(
      (product, index) => html`<li>
        <form method="post" action="/checkout">
          ${product.name}, ${kes(product.amount)}
          <input type="hidden" name="product" value="${index}" />
          <button ${email ? '' : 'disabled'}>Buy ${product.name}</button>
        </form>
      </li>`,
    );
    return c.html(page('Wallet Shop', html`${wallet}<h2>Products</h2><ul>${items}</ul>`));
  });

  app.get('/wallet/connect', async (c) => {
    const email = c.req.query('email');
    const login = await vault.startLogin({
      account: c.get('account'),
      ...(email ? { expectedEmail: email } : {}),
    });
    return c.redirect(login.url);
  });

  app.get('/wallet/connected', async (c) => {
    const retry = html`<a href="/wallet/connect">Connect your wallet</a>`;
    if (c.req.query('error') === 'access_denied')
      return c.html(page('Wallet not connected', html`<p>You declined. ${retry} to try again.</p>`));
    const state = c.req.query('state') ?? '';
    const email = c.req.query('email');
    try {
      const result = await vault.completeLogin(state, { waitMs: 5_000, ...(email ? { email } : {}) });
      if (result.status === 'connected') {
        await orders.linkWallet(result.account, result.email);
        return c.html(
          page(
            'Wallet connected',
            html`<p>Connected <strong>${result.email}</strong>.</p>
          <p><a href="/">Back to the shop</a></p>`,
          ),
        );
      }
      if (result.status === 'pending')
        return c.html(
          page('Connecting your wallet', html`<p role="status">Waiting for your wallet…</p>`),
          200,
        );
      return c.html(
        page(
          'Which wallet?',
          html`<p>${result.ask}</p><form method="get">
          <input type="hidden" name="state" value="${state}" />
          <label>Wallet e-mail <input name="email" type="email" required /></label><button>Connect</button></form>`,
        ),
      );
    } catch (error) {
      if (!(error instanceof WalletLoginStateError)) throw error;
      return c.html(
        page('Connection link expired', html`<p>This link was ${error.problem}. ${retry}.</p>`),
        400,
      );
    }
  });

  app.post('/checkout', async (c) => {
    if (!deps.ready()) return c.html(page('Starting up', html`<p>Try again in a moment.</p>`), 503);
    const email = await orders.walletOf(c.get('account'));
    const product = PRODUCTS[Number((await c.req.parseBody()).product)];
    if (email === undefined || product === undefined) return c.redirect('/', 303);
    const order = await orders.create('order', email, product.amount);
    try {
      // A short wallet pays through the user's provider: pending until approved on the phone.
      const providers = await wallet.listProviders({ user: email });
      const deposit = await wallet.deposit(
        {
          reference_id: referenceOf(order),
          amount: order.amount,
          currency: 'KES',
          payment_provider: providers.default_deposit_provider,
          webhook_url: deps.webhookUrl,
        },
        { user: email },
      );
      if (deposit.transaction_status === 'pending') {
        await orders.pending(order.id, deposit.transaction_id);
        deps.follow(deposit.reference_id, deposit.transaction_id);
      } else await settle(deposit.reference_id, deposit.transaction_status, deposit.transaction_id);
    } catch (error) {
      return paymentFailed(c, order, error);
    }
    return c.redirect(`/orders/${order.id}`, 303);
  });

  app.get('/orders/:id', async (c) => {
    const order = await orders.get(c.req.param('id'));
    if (order === undefined) return c.notFound();
    const open = order.status === 'new' || order.status === 'pending';
    const body = html`<p>${kes(order.amount)} from the wallet of ${order.email}</p>
      <p role="status" id="order-status">${STATUS_TEXT[order.status]}</p><p><a href="/">Back to the shop</a></p>`;
    return c.html(page(`Order ${order.id}`, body, open ? 1 : undefined)); // refreshes until it is final
  });

  app.get('/payouts', async (c) => {
    const rows = (await orders.list(100)).filter((order) => order.kind === 'payout');
    return c.html(
      page(
        'Payouts',
        html`<form method="post" action="/payouts">
        <p><label>Customer e-mail <input name="email" type="email" required /></label></p>
        <p><label>Amount (KES) <input name="amount" type="number" min="1" step="0.01" required /></label></p>
        <button>Send payout</button></form>
        <h2>Sent</h2><ul>${rows.map((p) => html`<li>${p.id}: ${kes(p.amount)} to ${p.email}, ${p.status}</li>`)}</ul>`,
      ),
    );
  });

  app.post('/payouts', async (c) => {
    if (!deps.ready()) return c.html(page('Starting up', html`<p>Try again in a moment.</p>`), 503);
    const form = await c.req.parseBody();
    if (!(Number(form.amount) > 0)) return c.redirect('/payouts', 303);
    const payout = await orders.create('payout', String(form.email), Number(form.amount));
    try {
      const result = await wallet.withdraw({
        reference_id: referenceOf(payout),
        email: payout.email,
        amount: payout.amount,
        currency: 'KES',
      });
      await settle(referenceOf(payout), result.transaction_status, result.transaction_id);
    } catch (error) {
      return paymentFailed(c, payout, error);
    }
    return c.redirect('/payouts', 303);
  });

  app.get('/operator', async (c) => {
    const [recent, sending, unknown, applied] = await Promise.all([
      orders.list(50),
      journal.list('sending'),
      journal.list('unknown'),
      journal.list('applied'), // oldest first, and the journal has no "newest" query: see the README
    ]);
    const intents = (list: typeof sending) =>
      list.map(
        (i) => html`<tr><td>${i.referenceId}</td><td>${i.endpoint}</td><td>${i.state}</td>
          <td>${i.transactionId ?? ''}</td><td>${i.reason ?? ''}</td><td>${i.updatedAt}</td></tr>`,
      );
    const head = html`<tr><th>Reference</th><th>Endpoint</th><th>State</th><th>Transaction</th><th>Reason</th><th>Updated</th></tr>`;
    return c.html(
      page(
        'Operator',
        html`<h2>Orders and payouts</h2>
        <table><tr><th>Order</th><th>Kind</th><th>Customer</th><th>Amount</th><th>Status</th><th>Transaction</th></tr>
        ${recent.map(
          (o) => html`<tr><td>${o.id}</td><td>${o.kind}</td><td>${o.email}</td><td>${kes(o.amount)}</td>
            <td>${o.status}</td><td>${o.transactionId ?? ''}</td></tr>`,
        )}</table>
        <h2>Open payment intents (${sending.length + unknown.length})</h2>
        <table>${head}${intents([...sending, ...unknown])}</table>
        <h2>Recently applied</h2><table>${head}${intents(applied.slice(-10).reverse())}</table>`,
      ),
    );
  });

  return app;
}
