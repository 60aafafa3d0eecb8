import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, type WalletClientOptions, WalletConfigError } from '../../src/index.js';

const API_KEY = 'sk_test_compose';
const STATUS = {
  transaction_id: 'txn_1',
  reference_id: 'order-1',
  transaction_status: 'completed',
  amount: '10.00',
  currency: 'KES',
};

beforeEach(() => {
  vi.stubEnv('WALLET_API_KEY', undefined);
  vi.stubEnv('WALLET_BASE_URL', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

function refusal(options: WalletClientOptions): WalletConfigError {
  try {
    new WalletClient(options);
  } catch (error) {
    expect(error).toBeInstanceOf(WalletConfigError);
    return error as WalletConfigError;
  }
  throw new Error('the client was constructed');
}

/** A fetch that answers every request with a completed status and records where it went. */
function recordingFetch() {
  const urls: string[] = [];
  const fetch = async (input: Request | URL | string) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return new Response(JSON.stringify(STATUS), { headers: { 'content-type': 'application/json' } });
  };
  return { urls, fetch: fetch as typeof globalThis.fetch };
}

describe('allowInsecureHttp', () => {
  test('by default plain http to a named host is refused, and the message names the option that allows it', () => {
    const error = refusal({ apiKey: API_KEY, baseUrl: 'http://sandbox:4010' });

    expect(error.option).toBe('baseUrl');
    expect(error.message).toContain('allowInsecureHttp: true');
    expect(error.message).not.toContain('WALLET_BASE_URL');
  });

  test('a plain http WALLET_BASE_URL is refused the same way, saying where the URL came from', () => {
    vi.stubEnv('WALLET_BASE_URL', 'http://sandbox:4010');
    const error = refusal({ apiKey: API_KEY });

    expect(error.option).toBe('baseUrl');
    expect(error.message).toContain('WALLET_BASE_URL');
    expect(error.message).toContain('allowInsecureHttp: true');
  });

  test('allowInsecureHttp: false refuses like the default', () => {
    const error = refusal({ apiKey: API_KEY, baseUrl: 'http://10.0.0.7:8080', allowInsecureHttp: false });
    expect(error.message).toContain('allowInsecureHttp');
  });

  test('with allowInsecureHttp: true requests go over plain http to the named host', async () => {
    const { urls, fetch } = recordingFetch();
    const wallet = new WalletClient({
      apiKey: API_KEY,
      baseUrl: 'http://sandbox:4010',
      allowInsecureHttp: true,
      fetch,
    });

    expect(wallet.baseUrl).toBe('http://sandbox:4010/');
    await wallet.getTransaction('txn_1');
    expect(urls).toEqual(['http://sandbox:4010/merchants/transactions/status/txn_1']);
  });

  test('allowInsecureHttp: true also applies to a WALLET_BASE_URL', () => {
    vi.stubEnv('WALLET_BASE_URL', 'http://sandbox:4010/api');
    expect(new WalletClient({ apiKey: API_KEY, allowInsecureHttp: true }).baseUrl).toBe(
      'http://sandbox:4010/api/',
    );
  });

  test('allowInsecureHttp does not loosen the other checks: other schemes and credentials are still refused', () => {
    expect(refusal({ apiKey: API_KEY, baseUrl: 'ftp://sandbox', allowInsecureHttp: true }).option).toBe(
      'baseUrl',
    );
    const error = refusal({ apiKey: API_KEY, baseUrl: 'http://u:hunter2@sandbox', allowInsecureHttp: true });
    expect(error.message).toContain('credentials');
    expect(error.message).not.toContain('hunter2');
  });

  test.each([
    ['the string "true"', 'true'],
    ['1', 1],
  ])('allowInsecureHttp of %s is refused naming the option', (_, value) => {
    const error = refusal({
      apiKey: API_KEY,
      baseUrl: 'http://sandbox:4010',
      allowInsecureHttp: value as never,
    });
    expect(error.option).toBe('allowInsecureHttp');
  });
});
