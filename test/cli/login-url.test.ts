import { describe, expect, test } from 'vitest';
import { runCli } from './helpers.js';

describe.concurrent('merchant-wallet login-url', () => {
  test('prints the URL buildLoginUrl builds', async () => {
    const run = await runCli([
      'login-url',
      '--auth-url',
      'https://auth.wallet.example/wallet',
      '--app-id',
      'app_123',
      '--redirect-url',
      'https://shop.example.com/wallet/done?order=42',
    ]);
    expect(run).toEqual({
      code: 0,
      stdout:
        'https://auth.wallet.example/wallet/login?app_id=app_123&redirect_url=https%3A%2F%2Fshop.example.com%2Fwallet%2Fdone%3Forder%3D42\n',
      stderr: '',
    });
  });

  test('--allow-host may be repeated, and a redirect to any of the hosts is accepted', async () => {
    const run = await runCli([
      'login-url',
      '--auth-url=https://auth.wallet.example',
      '--app-id=app_123',
      '--redirect-url=https://pay.shop.example.com/back',
      '--allow-host',
      'shop.example.com',
      '--allow-host',
      '*.shop.example.com',
    ]);
    expect(run).toEqual({
      code: 0,
      stdout:
        'https://auth.wallet.example/login?app_id=app_123&redirect_url=https%3A%2F%2Fpay.shop.example.com%2Fback\n',
      stderr: '',
    });
  });

  test('a redirect host outside the allow-list is refused with the SDK message, exit 1', async () => {
    const run = await runCli([
      'login-url',
      '--auth-url=https://auth.wallet.example',
      '--app-id=app_123',
      '--redirect-url=https://evil.example.net/back',
      '--allow-host=shop.example.com',
    ]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: redirectUrl host "evil.example.net" is not in allowedRedirectHosts\n',
    });
  });

  test('plain http to a non-loopback host is refused', async () => {
    const run = await runCli([
      'login-url',
      '--auth-url=http://auth.wallet.example',
      '--app-id=app_123',
      '--redirect-url=https://shop.example.com/back',
    ]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: authUrl must use https (http only on loopback hosts)\n',
    });
  });

  test('missing required options are named together as a usage error', async () => {
    expect(await runCli(['login-url', '--app-id', 'app_123'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: missing --auth-url, --redirect-url\nRun "merchant-wallet login-url --help" for usage.\n',
    });
  });

  test('an option without its value is a usage error', async () => {
    expect(await runCli(['login-url', '--auth-url'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: option --auth-url needs a value\nRun "merchant-wallet login-url --help" for usage.\n',
    });
  });
});
