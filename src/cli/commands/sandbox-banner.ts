import { hostname } from 'node:os';
import { buildLoginUrl } from '../../login.js';
import {
  SANDBOX_LANDING_PATH,
  SANDBOX_SCENARIOS,
  type SandboxSeed,
  type SandboxUrls,
} from '../../testing/index.js';

/** What `merchant-wallet sandbox` prints once it listens. */
export interface BannerInput {
  readonly urls: SandboxUrls;
  /** The interface it listens on, as given. */
  readonly host: string;
  readonly seed: SandboxSeed;
  readonly errorShape: string;
  /** `undefined`: deposits settle only by command. */
  readonly autoSettleMs: number | undefined;
  readonly controlKey: string;
  /** `--redirect-url`: where the printed login page sends the user; the sandbox's own page when absent. */
  readonly redirectUrl?: string | undefined;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;

/** From other machines or containers the loopback URL is no use: say what to use instead. */
function reachability(host: string, urls: SandboxUrls): string[] {
  if (LOOPBACK.test(host)) return [];
  const port = new URL(urls.baseUrl).port;
  const name = host === '0.0.0.0' || host === '::' ? hostname() : host;
  return [
    `listening    on ${host}; from another machine or container use http://${name}:${port}`,
    '             (or the name it has there); plain http to a host other than loopback needs',
    '             the client option allowInsecureHttp: true',
  ];
}

/**
 * A login page URL for the demo shop that works as printed: after Approve or Deny it lands on
 * `redirectUrl` (`--redirect-url`), or else on the sandbox's own landing page, which always exists.
 * The webhook URL's origin is no guess for it: a webhook receiver (a tunnel, a worker) need not
 * serve pages. Then the command that builds one for another redirect.
 */
function loginPageLines(authUrl: string, seed: SandboxSeed, redirectUrl: string | undefined): string[] {
  const demo = seed.merchants[0];
  if (demo === undefined) return [];
  const landing = redirectUrl ?? `${authUrl.replace(/\/+$/, '')}${SANDBOX_LANDING_PATH}`;
  const page = buildLoginUrl({ authUrl, appId: demo.appId, redirectUrl: landing });
  return [
    `login page   ${page}`,
    redirectUrl === undefined
      ? "             (lands on this sandbox's own page; restart with --redirect-url URL for your app's, or run"
      : `             (lands on ${redirectUrl}; for another page run`,
    `             npx merchant-wallet login-url --auth-url ${authUrl} --app-id ${demo.appId} --redirect-url URL)`,
  ];
}

function webhookLines(seed: SandboxSeed): string[] {
  const demo = seed.merchants[0];
  if (demo?.authWebhookUrl === undefined && demo?.depositWebhookUrl === undefined) {
    return [
      'webhooks     none set: approved logins and deposit results are sent nowhere;',
      '             restart with --webhook-url URL or run "merchant-wallet sandbox webhook-url URL"',
    ];
  }
  return [
    `webhooks     user_authorized → ${demo?.authWebhookUrl ?? '(none)'}`,
    `             deposit results → ${demo?.depositWebhookUrl ?? '(none)'}`,
  ];
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) => `  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd());
}

function balances(amounts: Record<string, number> | undefined): string {
  return Object.entries(amounts ?? {})
    .map(([currency, amount]) => `${currency} ${amount}`)
    .join(', ');
}

/**
 * The addresses and every credential of the seed. These are the sandbox's own fake values,
 * printed in full on purpose: they are what a developer pastes into their configuration.
 */
export function formatSandboxBanner(input: BannerInput): string {
  const { urls, seed, errorShape, autoSettleMs, controlKey } = input;
  const demo = seed.merchants[0];
  const scenarioEmails = new Set(SANDBOX_SCENARIOS.map((s) => s.email));
  const lines = [
    'Merchant Wallet sandbox (fake data, in memory)',
    `base URL     ${urls.baseUrl}`,
    `auth URL     ${urls.authUrl}  (authUrl for buildLoginUrl; not a page itself)`,
    ...loginPageLines(urls.authUrl, seed, input.redirectUrl),
    ...reachability(input.host, urls),
    `error shape  ${errorShape}`,
    autoSettleMs === undefined
      ? 'auto-settle  off: pending deposits settle only by "sandbox settle" (or a scenario token)'
      : `auto-settle  pending deposits settle ${autoSettleMs} ms after they start (sandbox clock)`,
    ...webhookLines(seed),
    `control key  ${controlKey}`,
    // The key rides in the fragment, which the browser never sends; the page moves it to sessionStorage.
    `browser UI   ${urls.baseUrl}/_sandbox/ui#key=${encodeURIComponent(controlKey)}`,
    '',
    'merchants (name, app id, API key)',
    ...table(
      seed.merchants.map((m) => [m.name ?? m.appId, m.appId, m.apiKey, m.active === false ? 'inactive' : '']),
    ),
    '',
    'users (email, wallet balances, providers)',
    ...table(
      seed.users
        .filter((u) => !scenarioEmails.has(u.email))
        .map((u) => [
          u.email,
          balances(u.balances),
          (u.providers ?? []).map((p) => p.name).join(', '),
          u.active === false ? 'inactive' : '',
        ]),
    ),
    '',
    'user tokens (token, email, app id)',
    ...table(
      (seed.tokens ?? []).filter((t) => !scenarioEmails.has(t.email)).map((t) => [t.token, t.email, t.appId]),
    ),
    '',
    'scenario tokens (a deposit with payment_provider mpesa ends by itself like this)',
    ...table(SANDBOX_SCENARIOS.map((s) => [s.token, s.phoneNumber, s.description])),
    '',
    ...(demo === undefined
      ? []
      : [
          'Try it:',
          `  export WALLET_BASE_URL=${urls.baseUrl} WALLET_API_KEY=${demo.apiKey} WALLET_SANDBOX_KEY=${controlKey}`,
          '  npx merchant-wallet sandbox settle <transaction_id>    (also: advance 60s, webhooks, ledger, --help)',
          '',
        ]),
    'Press Ctrl-C to stop.',
  ];
  return `${lines.join('\n')}\n`;
}
