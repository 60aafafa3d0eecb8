import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { PaymentJournal, TokenVault, WalletClient } from 'merchant-wallet';
import type { WebhookHandler } from 'merchant-wallet/webhooks';
import { backOffice } from './back-office.js';
import { checkout, PRODUCTS } from './checkout.js';
import { connect } from './connect.js';
import { kes, show } from './html.js';
import type { OrderStore } from './orders.js';

export interface ShopDeps {
  readonly wallet: WalletClient;
  readonly vault: TokenVault;
  readonly journal: PaymentJournal;
  readonly orders: OrderStore;
  readonly webhook: WebhookHandler;
  readonly webhookUrl: string;
  /** False until start-up recovery has run: no new payment before that. */
  readonly ready: () => boolean;
}

export type ShopApp = Hono<{ Variables: { account: string } }>;

export function createApp(deps: ShopDeps): ShopApp {
  const app: ShopApp = new Hono();
  // The handler reads the body itself, with a size limit: hand it the raw request.
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

  app.get('/', async (c) => {
    const email = await deps.orders.walletOf(c.get('account'));
    const items = PRODUCTS.map(
      ({ name, amount }, index) => html`<li><form method="post" action="/checkout">${name}, ${kes(amount)}
        <input type="hidden" name="product" value="${index}" />
        <button ${email ? '' : 'disabled'}>Buy ${name}</button></form></li>`,
    );
    const wallet = email
      ? html`<p>Paying with the wallet of <strong>${email}</strong>.</p>`
      : html`<p><a href="/wallet/connect">Connect your wallet</a> to buy.</p>`;
    return show(c, 'Wallet Shop', html`${wallet}<h2>Products</h2><ul>${items}</ul>`);
  });

  connect(app, deps);
  checkout(app, deps);
  backOffice(app, deps);
  return app;
}
