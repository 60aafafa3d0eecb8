import type { Context } from 'hono';
import { html } from 'hono/html';
import {
  isReauthorizationRequired,
  WalletError,
  WalletJournalError,
  WalletOutcomeUnknownError,
} from 'merchant-wallet';
import type { ShopApp, ShopDeps } from './app.js';
import { kes, show } from './html.js';
import { type Order, type OrderStore, referenceOf } from './orders.js';

export const PRODUCTS = [
  { name: 'Coffee beans, 1 kg', amount: 1_200 },
  { name: 'Espresso machine', amount: 8_000 },
];

const STATUS_TEXT: Record<Order['status'] | 'pending', string> = {
  new: 'Confirming your payment…',
  pending: 'Waiting for you to approve the payment on your phone…',
  paid: 'Paid. Thank you!',
  failed: 'The payment did not go through. Nothing was charged.',
};

/** What the customer sees when a payment throws: wait, reconnect, or a refusal. */
export async function paymentFailed(c: Context, orders: OrderStore, order: Order, error: unknown) {
  if (
    error instanceof WalletOutcomeUnknownError ||
    (error instanceof WalletJournalError && error.mayBeSentLater)
  )
    return c.redirect(`/orders/${order.id}`, 303); // money may have moved: the sweeper or recovery settles it
  if (!(error instanceof WalletError)) throw error;
  await orders.finish(order.id, 'failed', undefined); // refused: nothing moved, nothing to settle
  if (!isReauthorizationRequired(error))
    return show(
      c,
      'Payment refused',
      html`<p>${error.message}</p><p><a href="/">Back to the shop</a></p>`,
      422,
    );
  const link = `/wallet/connect?email=${encodeURIComponent(error.userEmail ?? order.email)}`;
  return show(
    c,
    'Reconnect your wallet',
    html`<p>Your wallet no longer lets this shop take payments.</p>
    <p><a href="${link}">Reconnect your wallet</a>, then try again. Nothing was charged.</p>`,
  );
}

/** Checkout by deposit, paid by the connected wallet's e-mail, and the order's live status page. */
export function checkout(app: ShopApp, deps: ShopDeps): void {
  const { wallet, journal, orders, ready, webhookUrl } = deps;
  app.post('/checkout', async (c) => {
    if (!ready()) return show(c, 'Starting up', html`<p>Try again in a moment.</p>`, 503);
    const email = await orders.walletOf(c.get('account'));
    const product = PRODUCTS[Number((await c.req.parseBody()).product)];
    if (email === undefined || product === undefined) return c.redirect('/', 303);
    const order = await orders.create('order', email, product.amount);
    try {
      // Naming the user's provider lets a short wallet pay through it: pending until approved on the phone.
      const { default_deposit_provider } = await wallet.listProviders({ user: email });
      await wallet.deposit(
        {
          reference_id: referenceOf(order),
          amount: order.amount,
          currency: 'KES',
          webhook_url: webhookUrl,
          payment_provider: default_deposit_provider,
        },
        { user: email, metadata: { orderId: order.id } },
      );
      // A final answer was settled (onSettled) before deposit() returned; a pending one is settled by
      // its webhook or, if that never comes, by the sweeper.
    } catch (error) {
      return paymentFailed(c, orders, order, error);
    }
    return c.redirect(`/orders/${order.id}`, 303);
  });

  app.get('/orders/:id', async (c) => {
    const order = await orders.get(c.req.param('id'));
    if (order === undefined) return c.notFound();
    const open = order.status === 'new';
    const pending = open && (await journal.get(referenceOf(order)))?.transactionStatus === 'pending';
    const body = html`<p>${kes(order.amount)} from the wallet of ${order.email}</p>
      <p role="status">${STATUS_TEXT[pending ? 'pending' : order.status]}</p><p><a href="/">Back to the shop</a></p>`;
    return show(c, `Order ${order.id}`, body, 200, open ? 1 : undefined); // reloads until final
  });
}
