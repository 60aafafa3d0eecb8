import type { Context } from 'hono';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export type Html = ReturnType<typeof html>;

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

/** Answers a page; `refresh` reloads it every so many seconds (a status that is still changing). */
export const show = (
  c: Context,
  title: string,
  body: Html,
  status: ContentfulStatusCode = 200,
  refresh?: number,
) => c.html(page(title, body, refresh), status);

export const table = (columns: string[], rows: unknown[][]) =>
  html`<table><tr>${columns.map((name) => html`<th scope="col">${name}</th>`)}</tr>
    ${rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell ?? ''}</td>`)}</tr>`)}</table>`;

export const kes = (amount: number) => `KES ${amount.toLocaleString('en', { minimumFractionDigits: 2 })}`;
