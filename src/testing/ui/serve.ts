import type { SandboxHttpResponse } from '../http/response.js';
import { UI_SCRIPT } from './app-script.js';
import { UI_CSS, UI_HTML } from './page.js';

/** The UI's path under the control prefix: `${baseUrl}/_sandbox/ui`. */
export const UI_PATH = '/ui';

const FILES: Readonly<Record<string, { type: string; body: string }>> = {
  [UI_PATH]: { type: 'text/html; charset=utf-8', body: UI_HTML },
  [`${UI_PATH}/app.js`]: { type: 'text/javascript; charset=utf-8', body: UI_SCRIPT },
  [`${UI_PATH}/app.css`]: { type: 'text/css; charset=utf-8', body: UI_CSS },
};

/**
 * One file of the sandbox UI for a GET of `path` (after the control prefix), or `undefined` when
 * `path` is not one. The files hold no data: what the page shows it fetches with the control key.
 * A strict CSP keeps the page to its own script and styles.
 */
export function uiFile(method: string, path: string): SandboxHttpResponse | undefined {
  const file = FILES[path];
  if (file === undefined || method !== 'GET') return undefined;
  return {
    kind: 'respond',
    status: 200,
    headers: {
      'content-type': file.type,
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
    body: file.body,
  };
}
