import { html } from 'hono/html';

type Html = ReturnType<typeof html>;

/** The page frame: every page has a language, a title, one h1 and the same navigation. */
export const page = (title: string, body: Html, refreshSeconds?: number) => html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    ${refreshSeconds === undefined ? '' : html`<meta http-equiv="refresh" content="${refreshSeconds}" />`}
    <title>${title === 'Wallet Shop' ? title : `${title} · Wallet Shop`}</title>
  </head>
  <body>
    <nav aria-label="Shop"><a href="/">Shop</a> · <a href="/payouts">Payouts</a> · <a href="/operator">Operator</a></nav>
    <main>
      <h1>${title}</h1>
      ${body}
    </main>
  </body>
</html>`;

export const kes = (amount: number) => `KES ${amount.toLocaleString('en', { minimumFractionDigits: 2 })}`;
