const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' } as const;

/** Escapes text for use in HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch as keyof typeof HTML_ESCAPES]);
}

const STYLE = `body{font-family:system-ui,sans-serif;color:#1f1f1f;background:#f4f5f7;margin:0;line-height:1.5}
main{max-width:26rem;margin:3rem auto;padding:1.5rem 1.75rem;background:#fff;border:1px solid #d9dce1;border-radius:.5rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box;border:1px solid #767676;border-radius:.25rem}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}
button{padding:.5rem 1.25rem;font-size:1rem;border-radius:.25rem;border:1px solid #767676;background:#fff;color:#1f1f1f;cursor:pointer}
button.primary{background:#0b57d0;border-color:#0b57d0;color:#fff}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
[role=alert]{color:#a00000;border:1px solid #a00000;border-radius:.25rem;padding:.5rem}`;

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

/** What the login form shows and posts back. */
export interface LoginPageModel {
  merchantName: string;
  appId: string;
  redirectUrl: string;
  /** Path the form posts to. */
  action: string;
  /** Shown in an alert above the form, e.g. after an unknown e-mail. */
  error?: string;
  /** Pre-filled e-mail. */
  email?: string;
}

/**
 * The login and consent page. The Deny button skips browser validation so a
 * user can refuse without typing an e-mail.
 */
export function renderLoginPage(model: LoginPageModel): string {
  const alert = model.error ? `<p role="alert" id="login-error">${escapeHtml(model.error)}</p>\n` : '';
  const described = model.error ? ' aria-describedby="login-error"' : '';
  return layout(
    'Sign in to Merchant Wallet',
    `<h1>Sign in to Merchant Wallet</h1>
<p><strong>${escapeHtml(model.merchantName)}</strong> is asking for access to your wallet: to take payments you approve and to list your payment providers.</p>
${alert}<form method="post" action="${escapeHtml(model.action)}">
<input type="hidden" name="app_id" value="${escapeHtml(model.appId)}">
<input type="hidden" name="redirect_url" value="${escapeHtml(model.redirectUrl)}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(model.email ?? '')}"${described}>
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

/** An error page; it never redirects, so a bad link cannot send the user anywhere. */
export function renderErrorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>`);
}

/**
 * The sandbox's own landing page, where a login redirects when no app page is given: the outcome,
 * and where the token went, so a login started from the banner ends on a page that exists.
 */
export function renderLandingPage(denied: boolean): string {
  const [title, outcome] = denied
    ? ['Access denied', 'The user chose Deny; a real app would read error=access_denied here.']
    : [
        'Access approved',
        "The wallet sent user_authorized, with the user's new token, to the app's webhook URL.",
      ];
  return layout(
    title,
    `<h1>${title}</h1>\n<p>${outcome}</p>\n<p>This sandbox page stands in for an app's redirect_url. Start the login with your app's page as redirect_url to land there instead.</p>`,
  );
}
