import { html } from 'hono/html';
import type { ShopApp, ShopDeps } from './app.js';
import { paymentFailed } from './checkout.js';
import { kes, show, table } from './html.js';
import { referenceOf } from './settle.js';

/** Staff pages: payouts (withdrawals to a customer's e-mail) and the operator's view. Guard them. */
export function backOffice(app: ShopApp, { wallet, journal, orders, settle, ready }: ShopDeps): void {
  app.get('/payouts', async (c) => {
    const sent = (await orders.list(100)).filter((order) => order.kind === 'payout');
    return show(
      c,
      'Payouts',
      html`<form method="post" action="/payouts">
      <p><label>Customer e-mail <input name="email" type="email" required /></label></p>
      <p><label>Amount (KES) <input name="amount" type="number" min="1" step="0.01" required /></label></p>
      <button>Send payout</button></form>
      <h2>Sent</h2><ul>${sent.map((p) => html`<li>${p.id}: ${kes(p.amount)} to ${p.email}, ${p.status}</li>`)}</ul>`,
    );
  });

  app.post('/payouts', async (c) => {
    if (!ready()) return show(c, 'Starting up', html`<p>Try again in a moment.</p>`, 503);
    const form = await c.req.parseBody();
    if (!(Number(form.amount) > 0)) return c.redirect('/payouts', 303);
    const payout = await orders.create('payout', String(form.email), Number(form.amount));
    const body = {
      reference_id: referenceOf(payout),
      email: payout.email,
      amount: payout.amount,
      currency: 'KES',
    };
    try {
      const result = await wallet.withdraw(body);
      await settle(body.reference_id, result.transaction_status, result.transaction_id);
    } catch (error) {
      return paymentFailed(c, settle, payout, error);
    }
    return c.redirect('/payouts', 303);
  });

  app.get('/operator', async (c) => {
    const [recent, sending, unknown, applied] = await Promise.all([
      orders.list(50),
      journal.list('sending'),
      journal.list('unknown'),
      journal.list('applied'), // oldest first: the journal has no "newest" query yet
    ]);
    const intents = (list: typeof sending) =>
      table(
        ['Reference', 'Endpoint', 'State', 'Transaction', 'Reason', 'Updated'],
        list.map((i) => [i.referenceId, i.endpoint, i.state, i.transactionId, i.reason, i.updatedAt]),
      );
    const rows = recent.map((o) => [o.id, o.kind, o.email, kes(o.amount), o.status, o.transactionId]);
    return show(
      c,
      'Operator',
      html`<h2>Orders and payouts</h2>
      ${table(['Order', 'Kind', 'Customer', 'Amount', 'Status', 'Transaction'], rows)}
      <h2>Open payment intents (${sending.length + unknown.length})</h2>${intents([...sending, ...unknown])}
      <h2>Recently applied</h2>${intents(applied.slice(-10).reverse())}`,
    );
  });
}
