import { afterEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, WalletConfigError } from '../../src/index.js';

const NOT_LOOPBACK = [
  'http://api.example.com',
  'http://localhost.example.com',
  'http://127.0.0.1.nip.io',
  'http://10.0.0.1',
  'http://192.168.1.10:8080',
  'http://[::ffff:10.0.0.1]',
  'http://[2001:db8::1]',
  'ftp://api.example.com',
  'ws://127.0.0.1',
] as const;
const LOOPBACK = ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010', 'http://127.0.0.2'];

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('https is enforced for every host but loopback', () => {
  test.each(NOT_LOOPBACK)('baseUrl %s is a WalletConfigError naming baseUrl', (baseUrl) => {
    const make = () => new WalletClient({ apiKey: 'sk_x', baseUrl });

    expect(make).toThrow(WalletConfigError);
    expect(make).toThrow(expect.objectContaining({ option: 'baseUrl' }));
  });

  test.each(NOT_LOOPBACK)('WALLET_BASE_URL=%s is refused the same way', (baseUrl) => {
    vi.stubEnv('WALLET_BASE_URL', baseUrl);

    expect(() => new WalletClient({ apiKey: 'sk_x' })).toThrow(
      expect.objectContaining({ option: 'baseUrl' }),
    );
  });

  test.each(LOOPBACK)('plain http to loopback %s is accepted', (baseUrl) => {
    expect(new WalletClient({ apiKey: 'sk_x', baseUrl }).baseUrl).toBe(`${new URL(baseUrl).href}`);
  });

  test('https to any host is accepted', () => {
    expect(new WalletClient({ apiKey: 'sk_x', baseUrl: 'https://api.example.com/v1' }).baseUrl).toBe(
      'https://api.example.com/v1/',
    );
  });
});
