import { hostname } from 'node:os';
import { describe, expect, test } from 'vitest';
import { formatSandboxBanner } from '../../src/cli/commands/sandbox-banner.js';
import { defaultSandboxSeed } from '../../src/testing/index.js';
import { reachableHost } from '../../src/testing/serve/node-server.js';

const urls = { baseUrl: 'http://127.0.0.1:4010', authUrl: 'http://127.0.0.1:4010/auth' };
const banner = (host: string, seed = defaultSandboxSeed(), redirectUrl?: string) =>
  formatSandboxBanner({
    urls,
    host,
    seed,
    errorShape: 'code',
    autoSettleMs: 2000,
    controlKey: 'sbx_key_for_banner',
    redirectUrl,
  });
const loginPage = (text: string) => new URL(/^login page {3}(\S+)$/m.exec(text)?.[1] ?? 'about:blank');

describe('sandbox banner', () => {
  test('listening on every interface, the URLs use loopback and a note names the host for other machines', () => {
    expect(reachableHost('0.0.0.0', 'IPv4')).toBe('127.0.0.1');
    expect(reachableHost('::', 'IPv6')).toBe('[::1]');
    expect(reachableHost('10.1.2.3', 'IPv4')).toBe('10.1.2.3');
    const text = banner('0.0.0.0');
    expect(text).toContain('\nbase URL     http://127.0.0.1:4010\n');
    expect(text).toContain(
      `\nlistening    on 0.0.0.0; from another machine or container use http://${hostname()}:4010\n` +
        '             (or the name it has there); plain http to a host other than loopback needs\n' +
        '             the client option allowInsecureHttp: true\n',
    );
    expect(text).not.toContain('0.0.0.0:4010');
  });

  test('on loopback there is no note', () => {
    expect(banner('127.0.0.1')).not.toContain('listening');
  });

  test("without --redirect-url the login page lands on the sandbox's own page, whatever the webhook URL", () => {
    const seed = defaultSandboxSeed();
    Object.assign(seed.merchants[0] ?? {}, { authWebhookUrl: 'http://127.0.0.1:8080/hooks' });
    for (const text of [banner('127.0.0.1'), banner('127.0.0.1', seed)]) {
      const page = loginPage(text);
      expect(page.href.startsWith('http://127.0.0.1:4010/auth/login?')).toBe(true);
      expect(page.searchParams.get('app_id')).toBe('app_demo_shop');
      expect(page.searchParams.get('redirect_url')).toBe('http://127.0.0.1:4010/auth/connected');
      expect(text).toContain("(lands on this sandbox's own page; restart with --redirect-url URL");
      expect(text).not.toContain('placeholder');
    }
  });

  test('with --redirect-url the login page carries it, and the banner says where it lands', () => {
    const app = 'https://shop.example/wallet/connected?state=a&b=c';
    const text = banner('127.0.0.1', defaultSandboxSeed(), app);
    expect(loginPage(text).searchParams.get('redirect_url')).toBe(app);
    expect(text).toContain(`\n             (lands on ${app}; for another page run\n`);
    expect(text).toContain(
      '             npx merchant-wallet login-url --auth-url http://127.0.0.1:4010/auth --app-id app_demo_shop --redirect-url URL)\n',
    );
  });

  test('the webhook lines say where webhooks go, or that none is set', () => {
    const seed = defaultSandboxSeed();
    Object.assign(seed.merchants[0] ?? {}, {
      authWebhookUrl: 'http://127.0.0.1:3000/auth-hook',
      depositWebhookUrl: 'http://127.0.0.1:3000/deposit-hook',
    });
    expect(banner('127.0.0.1', seed)).toContain(
      'webhooks     user_authorized → http://127.0.0.1:3000/auth-hook\n' +
        '             deposit results → http://127.0.0.1:3000/deposit-hook\n',
    );
    expect(banner('127.0.0.1')).toContain(
      'webhooks     none set: approved logins and deposit results are sent nowhere;\n',
    );
  });
});
