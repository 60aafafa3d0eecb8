import { html } from 'hono/html';
import { listIntents, type PaymentIntent, type PaymentIntentState } from 'merchant-wallet';
import type { ShopApp, ShopDeps } from './app.js';
import { paymentFailed } from './checkout.js';
import { kes, show, table } from './html.js';
import { referenceOf } from './orders.js';

/** The payments the service took: pending, completed or failed. */
const ACCEPTED: PaymentIntentState[] = ['accepted', 'completed', 'failed'];

const HOUR = 3_600_000;

/** Staff pages: payouts (withdrawals to a customer's e-mail) and the operator's view. Guard them. */
export function backOffice(app: ShopApp, { wallet, journal, orders, ready }: ShopDeps): void {
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
      // Its final answer is settled (onSettled) before withdraw() returns.
      await wallet.withdraw(body, { metadata: { orderId: payout.id } });
    } catch (error) {
      return paymentFailed(c, orders, payout, error);
    }
    return c.redirect('/payouts', 303);
  });

  app.get('/operator', async (c) => {
    // The payments recorded in the last hour, oldest first; the page shows the newest ten.
    const recent: PaymentIntent[] = [];
    for await (const intent of listIntents(journal, { state: ACCEPTED, since: new Date(Date.now() - HOUR) }))
      if (recent.push(intent) > 10) recent.shift();
    const [health, latest] = await Promise.all([wallet.journalHealth(), orders.list(50)]);
    const rows = latest.map((o) => [o.id, o.kind, o.email, kes(o.amount), o.status, o.transactionId]);
    const columns = ['Reference', 'Endpoint', 'State', 'Status', 'Settled', 'Updated'];
    const cells = (i: PaymentIntent) => [
      i.referenceId,
      i.endpoint,
      i.state,
      i.transactionStatus,
      i.settledAt,
      i.updatedAt,
    ];
    const counts = Object.entries(health.counts).map(([state, n]) => `${n} ${state}`);
    return show(
      c,
      'Operator',
      html`<h2>Payment journal</h2>
      <p>${counts.join(', ')}. ${health.pending} pending (the oldest for ${Math.round(health.oldestPendingMs / 1000)} s),
        ${health.unsettled} final but not yet settled.</p>
      <h2>Stuck payments (${health.stuck.length})</h2>
      <p>Look each up in the wallet's portal, then read its status or close it (docs/settlement.md).</p>
      ${table(
        [...columns, 'Why'],
        health.stuck.map((s) => [...cells(s.intent), s.why]),
      )}
      <h2>Recent payments</h2>${table(columns, recent.reverse().map(cells))}
      <h2>Orders and payouts</h2>
      ${table(['Order', 'Kind', 'Customer', 'Amount', 'Status', 'Transaction'], rows)}`,
    );
  });
}
