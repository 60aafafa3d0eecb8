import { describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import {
  createSandbox,
  createSandboxRequestHandler,
  defaultSandboxSeed,
  startSandboxServer,
} from '../../src/testing/index.js';

function configError(fn: () => unknown, option: string) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WalletConfigError);
    expect((error as WalletConfigError).option).toBe(option);
    return;
  }
  throw new Error(`expected a WalletConfigError for ${option}`);
}

describe('bad arguments to the sandbox helpers throw WalletConfigError naming the field', () => {
  test('seed problems name the exact field', () => {
    const seed = defaultSandboxSeed();
    seed.users[1]!.balances = { KES: -1 };
    configError(() => createSandbox(seed), 'seed.users[1].balances.KES');
    const dupKey = defaultSandboxSeed();
    dupKey.merchants[1]!.apiKey = dupKey.merchants[0]!.apiKey;
    configError(() => createSandbox(dupKey), 'seed.merchants[1].apiKey');
    const badToken = defaultSandboxSeed();
    badToken.tokens![0]!.email = 'ghost@example.com';
    configError(() => createSandbox(badToken), 'seed.tokens[0].email');
    const badUrl = defaultSandboxSeed();
    badUrl.merchants[0]!.depositWebhookUrl = 'ftp://x';
    configError(() => createSandbox(badUrl), 'seed.merchants[0].depositWebhookUrl');
    configError(() => createSandbox({ ...defaultSandboxSeed(), currencies: ['KES'] }), 'seed.currencies');
  });

  test('option problems name the option', () => {
    configError(() => createSandbox(undefined, { errorShape: 'xml' as never }), 'options.errorShape');
    configError(() => createSandbox(undefined, { maxBodyBytes: 0 }), 'options.maxBodyBytes');
    configError(() => createSandbox(undefined, { autoSettleMs: -1 }), 'options.autoSettleMs');
    configError(() => createSandbox(undefined, { webhooks: { attempts: 0 } }), 'options.webhooks.attempts');
  });

  test('helper problems name the argument', () => {
    const sandbox = createSandbox();
    configError(() => sandbox.authorize({ email: 'ghost@example.com', appId: 'app_demo_shop' }), 'email');
    configError(() => sandbox.authorize({ email: 'alice@example.com', appId: 'app_nope' }), 'appId');
    configError(() => sandbox.settle('txn_404', { status: 'completed' }), 'transactionId');
    configError(() => sandbox.updateMerchant('app_nope', {}), 'appId');
    configError(
      () => sandbox.updateMerchant('app_demo_shop', { authWebhookUrl: 'nope' }),
      'patch.authWebhookUrl',
    );
    configError(
      () => createSandboxRequestHandler(sandbox, { baseUrl: 'x', authUrl: 'http://a/auth' }),
      'baseUrl',
    );
    configError(
      () => createSandboxRequestHandler(sandbox, { baseUrl: 'http://a', authUrl: 'http://a' }),
      'authUrl',
    );
    configError(
      () => createSandboxRequestHandler({} as never, { baseUrl: 'http://a', authUrl: 'http://a/auth' }),
      'sandbox',
    );
  });

  test('startSandboxServer rejects a bad port', async () => {
    await expect(startSandboxServer({ sandbox: createSandbox(), port: 70_000 })).rejects.toThrow(/port:/);
  });

  test('the seed is copied: changing it afterwards changes nothing', () => {
    const seed = defaultSandboxSeed();
    const sandbox = createSandbox(seed);
    seed.merchants[0]!.balances!.KES = 1;
    expect(sandbox.balances().merchants.app_demo_shop?.KES).toBe(100_000);
  });
});
