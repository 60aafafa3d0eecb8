import { html } from 'hono/html';
import { WalletLoginStateError } from 'merchant-wallet';
import type { ShopApp, ShopDeps } from './app.js';
import { show } from './html.js';

/** "Connect your wallet": a login whose one-time state links the wallet e-mail to this account. */
export function connect(app: ShopApp, { vault, wallet, orders }: ShopDeps): void {
  app.get('/wallet/connect', async (c) => {
    const email = c.req.query('email'); // known when reconnecting: only that wallet may match
    const login = await vault.startLogin({
      account: c.get('account'),
      ...(email ? { expectedEmail: email } : {}),
    });
    return c.redirect(login.url);
  });

  app.get('/wallet/connected', async (c) => {
    const again = html`<a href="/wallet/connect">Connect your wallet</a>`;
    if (c.req.query('error') === 'access_denied')
      return show(c, 'Wallet not connected', html`<p>You declined. ${again} to try again.</p>`);
    const state = c.req.query('state') ?? '';
    const email = c.req.query('email');
    try {
      // The user_authorized webhook may land after this redirect: wait for it a little. The
      // wallet client checks the new token, so a connected wallet pays at once.
      const result = await vault.completeLogin(state, {
        client: wallet,
        waitMs: 5_000,
        ...(email ? { email } : {}),
      });
      if (result.status === 'pending')
        return show(c, 'Connecting your wallet', html`<p role="status">Waiting for your wallet…</p>`, 200, 1);
      if (result.status === 'ambiguous')
        return show(
          c,
          'Which wallet?',
          html`<p>${result.ask}</p><form method="get">
          <input type="hidden" name="state" value="${state}" />
          <label>Wallet e-mail <input name="email" type="email" required /></label> <button>Connect</button></form>`,
        );
      await orders.linkWallet(result.account, result.email);
      const body = html`<p>Connected <strong>${result.email}</strong>.</p><p><a href="/">Back to the shop</a></p>`;
      return show(c, 'Wallet connected', body);
    } catch (error) {
      if (!(error instanceof WalletLoginStateError)) throw error;
      return show(c, 'Connection link expired', html`<p>This link was ${error.problem}. ${again}.</p>`, 400);
    }
  });
}
