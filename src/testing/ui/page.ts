/** The sandbox UI's page: no data in it, so it is served without the key; every call it makes sends one. */
export const UI_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant Wallet sandbox</title>
<link rel="stylesheet" href="ui/app.css">
</head>
<body>
<header><h1>Merchant Wallet sandbox</h1><span id="clock" aria-live="polite"></span></header>
<form id="key-form" hidden>
  <label>Control key <input id="key" type="password" autocomplete="off" required></label>
  <button type="submit">Open</button>
  <p class="hint">The key the sandbox banner prints (WALLET_SANDBOX_KEY).</p>
</form>
<main id="main" hidden>
  <p id="status" role="status"></p>
  <section>
    <h2>Controls</h2>
    <div class="row">
      <label>Advance clock by <input id="advance-by" value="60s" size="6"></label>
      <button id="advance">Advance</button>
    </div>
    <div class="row">
      <label>Next webhook <select id="plan-mode"><option>deliver</option><option>twice</option><option>late</option><option>out-of-order</option><option>drop</option></select></label>
      <button id="plan">Apply to next webhook</button>
    </div>
    <div class="row">
      <label>Revoke tokens of <input id="revoke-email" type="email" placeholder="alice@example.com"></label>
      <button id="revoke">Revoke</button>
    </div>
    <div class="row">
      <label>Certify my endpoint <input id="certify-url" type="url" placeholder="http://127.0.0.1:3000/webhooks" size="34"></label>
      <button id="certify">Certify</button>
    </div>
  </section>
  <section id="certify-report" hidden><h2>Certify report</h2><p id="certify-note"></p><table><thead><tr><th>verdict</th><th>check</th><th>what happened</th><th>fix</th></tr></thead><tbody id="certify-rows"></tbody></table></section>
  <section><h2>Balances</h2><table><thead><tr><th>owner</th><th>balances</th></tr></thead><tbody id="balances"></tbody></table></section>
  <section><h2>Transactions</h2><table><thead><tr><th>id</th><th>type</th><th>reference</th><th>amount</th><th>status</th><th></th></tr></thead><tbody id="transactions"></tbody></table></section>
  <section><h2>Webhook deliveries</h2><table><thead><tr><th>id</th><th>event</th><th>state</th><th>attempts</th><th></th></tr></thead><tbody id="deliveries"></tbody></table></section>
</main>
<script src="ui/app.js" defer></script>
</body>
</html>
`;

/** The page's styles. */
export const UI_CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px;color:#1b1f24}
header{display:flex;justify-content:space-between;align-items:baseline;border-bottom:1px solid #ddd}
h1{font-size:20px}h2{font-size:16px;margin:20px 0 6px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee;vertical-align:top}
.row{margin:6px 0}button{margin-left:6px}.hint{color:#666}
.pending,.scheduled,.warn{color:#8a5a00}.completed,.delivered,.pass{color:#116329}.failed,.dropped,.fail{color:#b3261e}
#status{min-height:1.4em;color:#444}
`;
