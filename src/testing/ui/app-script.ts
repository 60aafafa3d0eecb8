/**
 * The sandbox UI's script, plain browser JavaScript with no build step. It keeps the control key in
 * sessionStorage (from the form, or the URL fragment the banner prints, which never reaches a server),
 * and sends it as x-sandbox-key on every control call. Everything shown is set as text, never as HTML.
 */
export const UI_SCRIPT = `'use strict';
const KEY = 'merchant-wallet-sandbox-key';
const $ = (id) => document.getElementById(id);
if (location.hash.startsWith('#key=')) {
  sessionStorage.setItem(KEY, decodeURIComponent(location.hash.slice(5)));
  history.replaceState(null, '', location.pathname);
}
const base = location.pathname.replace(/\\/ui\\/?$/, '');
async function call(method, path, body) {
  const response = await fetch(base + path, {
    method,
    headers: { 'x-sandbox-key': sessionStorage.getItem(KEY) || '', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (response.status === 401) { sessionStorage.removeItem(KEY); showKeyForm(); throw new Error('the control key was refused'); }
  if (!response.ok) throw new Error(answer.message || 'HTTP ' + response.status);
  return answer;
}
function cell(row, text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}
function button(td, label, action) {
  const b = document.createElement('button');
  b.textContent = label;
  b.addEventListener('click', () => act(action));
  td.appendChild(b);
}
function fill(id, items, render) {
  const body = $(id);
  body.replaceChildren();
  for (const item of items) { const row = document.createElement('tr'); render(row, item); body.appendChild(row); }
}
/** \`{ KES: 100, mpesa: { KES: 5 } }\` as "KES 100; mpesa: KES 5". */
function money(value) {
  return Object.entries(value).map(([k, v]) => (typeof v === 'object' ? k + ': ' + money(v) : k + ' ' + v)).join('; ');
}
function say(text) { $('status').textContent = text; }
async function act(action) {
  try { say(await action()); } catch (error) { say('Refused: ' + error.message); }
  await refresh();
}
async function refresh() {
  const [ledger, hooks, clock] = await Promise.all([call('GET', '/ledger'), call('GET', '/webhooks'), call('GET', '/clock')]);
  $('clock').textContent = 'sandbox clock ' + clock.now + ' (' + clock.pending + ' timed event(s) waiting)';
  const owners = [];
  for (const [kind, byOwner] of Object.entries(ledger.balances)) {
    for (const [owner, value] of Object.entries(byOwner)) owners.push([kind.replace(/s$/, '') + ' ' + owner, money(value)]);
  }
  fill('balances', owners, (row, [owner, value]) => { cell(row, owner); cell(row, value); });
  fill('transactions', [...ledger.transactions].reverse(), (row, tx) => {
    cell(row, tx.transaction_id); cell(row, tx.type); cell(row, tx.reference_id || '');
    cell(row, tx.currency + ' ' + tx.amount);
    cell(row, tx.transaction_status + (tx.failure_reason ? ' (' + tx.failure_reason + ')' : ''), tx.transaction_status);
    const actions = cell(row, '');
    if (tx.transaction_status === 'pending' && tx.type === 'c2b') {
      const path = '/transactions/' + encodeURIComponent(tx.transaction_id) + '/settle';
      button(actions, 'Settle', async () => { await call('POST', path, { status: 'completed' }); return tx.transaction_id + ' settled'; });
      button(actions, 'Fail', async () => { await call('POST', path, { status: 'failed' }); return tx.transaction_id + ' failed'; });
    }
  });
  fill('deliveries', [...hooks.deliveries].reverse(), (row, d) => {
    cell(row, d.id + (d.redeliveryOf ? ' (copy of ' + d.redeliveryOf + ')' : ''));
    cell(row, d.event.event + (d.event.transaction_id ? ' ' + d.event.transaction_id + ' ' + d.event.transaction_status : '') + (d.forgery ? ' [forged: ' + d.forgery + ']' : '') + ' → ' + d.url);
    cell(row, d.state + (d.mode !== 'deliver' ? ' (' + d.mode + ')' : ''), d.state);
    cell(row, d.attempts.map((a, i) => '#' + (i + 1) + ' ' + (a.status === undefined ? a.error : 'HTTP ' + a.status)).join('; ') || 'none');
    button(cell(row, ''), 'Redeliver', async () => {
      const answer = await call('POST', '/webhooks/' + encodeURIComponent(d.id) + '/redeliver', { mode: 'deliver' });
      return 'redelivering ' + d.id + ' as ' + answer.delivery.id;
    });
  });
}
$('advance').addEventListener('click', () => act(async () => {
  const answer = await call('POST', '/clock/advance', { by: $('advance-by').value });
  return answer.ran + ' timed event(s) ran';
}));
$('plan').addEventListener('click', () => act(async () => {
  await call('POST', '/webhooks/plan', { mode: $('plan-mode').value });
  return 'next webhook: ' + $('plan-mode').value;
}));
$('revoke').addEventListener('click', () => act(async () => {
  const answer = await call('POST', '/tokens/revoke', { email: $('revoke-email').value });
  return answer.email + ': ' + answer.revoked + ' token(s) revoked';
}));
$('certify').addEventListener('click', () => act(async () => {
  say('Certifying ' + $('certify-url').value + ' ...');
  const report = await call('POST', '/certify', { url: $('certify-url').value });
  $('certify-report').hidden = false;
  $('certify-note').textContent = report.totals.pass + ' passed, ' + report.totals.warn + ' warned, ' + report.totals.fail + ' failed. ' + report.note;
  fill('certify-rows', report.checks, (row, c) => { cell(row, c.verdict, c.verdict); cell(row, c.title); cell(row, c.detail); cell(row, c.fix || ''); });
  return 'certified: ' + report.totals.fail + ' check(s) failed';
}));
function showKeyForm() { $('main').hidden = true; $('key-form').hidden = false; }
$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $('key').value);
  start();
});
let timer;
function start() {
  $('key-form').hidden = true; $('main').hidden = false;
  refresh().catch((error) => say(error.message));
  // Deliveries finish after the click that started them: the page follows them.
  clearInterval(timer);
  timer = setInterval(() => { if (!$('main').hidden) refresh().catch((error) => say(error.message)); }, 1000);
}
if (sessionStorage.getItem(KEY)) start(); else showKeyForm();
`;
