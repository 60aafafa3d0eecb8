import { describe, expect, test } from 'vitest';
import { CONTROL_KEY, runCli } from './helpers.js';

/** Nothing listens here: a usage error must come before any attempt to reach it. */
const env = { WALLET_SANDBOX_KEY: CONTROL_KEY, WALLET_BASE_URL: 'http://127.0.0.1:9' };
const usage = (message: string, command: string) => ({
  code: 2,
  stdout: '',
  stderr: `error: ${message}\nRun "merchant-wallet ${command} --help" for usage.\n`,
});

describe('merchant-wallet sandbox <action> usage errors', () => {
  test('an unknown action is named, with the list of actions', async () => {
    expect(await runCli(['sandbox', 'foo'], { env })).toEqual(
      usage(
        'unknown sandbox action "foo": one of settle, advance, webhook-url, webhooks, redeliver, next-webhook, webhook-retries, forge, ledger, balance, user, revoke, fault, reset',
        'sandbox',
      ),
    );
  });

  test('balance needs exactly one of --app and --email, and --provider only with --email', async () => {
    const runs = await Promise.all([
      runCli(['sandbox', 'balance', 'KES', '10'], { env }),
      runCli(['sandbox', 'balance', 'KES', '10', '--app', 'app_demo_shop', '--email', 'bob@example.com'], {
        env,
      }),
      runCli(['sandbox', 'balance', 'KES', '10', '--app', 'app_demo_shop', '--provider', 'mpesa'], { env }),
    ]);
    expect(runs).toEqual([
      usage('name exactly one of --app APP_ID and --email EMAIL', 'sandbox balance'),
      usage('name exactly one of --app APP_ID and --email EMAIL', 'sandbox balance'),
      usage('--provider goes with --email', 'sandbox balance'),
    ]);
  });

  test('a duration that does not read as one is named as the argument or option typed', async () => {
    const runs = await Promise.all([
      runCli(['sandbox', 'advance', '5x'], { env }),
      runCli(['sandbox', 'settle', 'txn_000001', '--delivery', 'late', '--delay', 'soon'], { env }),
      runCli(['sandbox', 'next-webhook', 'late', '--delay', '-1s'], { env }),
    ]);
    expect(runs).toEqual([
      usage(
        '<duration> must be a duration such as 30s, 1500ms, 5m or 2h, or a number of ms',
        'sandbox advance',
      ),
      usage('--delay must be a duration such as 30s, 1500ms, 5m or 2h, or a number of ms', 'sandbox settle'),
      usage(
        '--delay must be a duration such as 30s, 1500ms, 5m or 2h, or a number of ms',
        'sandbox next-webhook',
      ),
    ]);
  });

  test('webhook-url names the URL argument or --deposit-webhook-url when it is not an http(s) URL', async () => {
    const runs = await Promise.all([
      runCli(['sandbox', 'webhook-url', 'notaurl'], { env }),
      runCli(['sandbox', 'webhook-url', 'http://127.0.0.1:3000/hooks', '--deposit-webhook-url', 'ftp://x'], {
        env,
      }),
    ]);
    expect(runs).toEqual([
      usage('<url> must be an absolute http(s) URL', 'sandbox webhook-url'),
      usage('--deposit-webhook-url must be an absolute http(s) URL', 'sandbox webhook-url'),
    ]);
  });
});
