import type { SandboxSeed, SandboxUrls } from '../../testing/index.js';

/** What `merchant-wallet sandbox` prints once it listens. */
export interface BannerInput {
  readonly urls: SandboxUrls;
  readonly seed: SandboxSeed;
  readonly errorShape: string;
  readonly autoSettleMs: number;
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
export function formatSandboxBanner({ urls, seed, errorShape, autoSettleMs }: BannerInput): string {
  const demo = seed.merchants[0];
  const lines = [
    'Merchant Wallet sandbox (fake data, in memory)',
    `base URL     ${urls.baseUrl}`,
    `auth URL     ${urls.authUrl}`,
    `error shape  ${errorShape}`,
    `auto-settle  pending deposits settle ${autoSettleMs} ms after they start`,
    '',
    'merchants (name, app id, API key)',
    ...table(
      seed.merchants.map((m) => [m.name ?? m.appId, m.appId, m.apiKey, m.active === false ? 'inactive' : '']),
    ),
    '',
    'users (email, wallet balances, providers)',
    ...table(
      seed.users.map((u) => [
        u.email,
        balances(u.balances),
        (u.providers ?? []).map((p) => p.name).join(', '),
        u.active === false ? 'inactive' : '',
      ]),
    ),
    '',
    'user tokens (token, email, app id)',
    ...table((seed.tokens ?? []).map((t) => [t.token, t.email, t.appId])),
    '',
    ...(demo === undefined
      ? []
      : ['Try it:', `  export WALLET_BASE_URL=${urls.baseUrl} WALLET_API_KEY=${demo.apiKey}`, '']),
    'Press Ctrl-C to stop.',
  ];
  return `${lines.join('\n')}\n`;
}
