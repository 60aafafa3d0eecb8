import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { WalletError } from '../src/errors.js';
import { buildLoginUrl, type LoginUrlOptions, WalletLoginUrlError } from '../src/login.js';

const base = {
  authUrl: 'https://auth.wallet.example',
  appId: 'app_123',
  redirectUrl: 'https://shop.example.com/wallet/done',
} satisfies LoginUrlOptions;

function failure(options: unknown): WalletLoginUrlError {
  try {
    buildLoginUrl(options as LoginUrlOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(WalletLoginUrlError);
    expect(error).not.toBeInstanceOf(TypeError);
    return error as WalletLoginUrlError;
  }
  throw new Error('expected buildLoginUrl to throw');
}

describe('buildLoginUrl', () => {
  test('app_id and redirect_url survive a round trip through URLSearchParams for any values', () => {
    const redirect = fc
      .tuple(
        fc.webPath(),
        fc.string(),
        fc.string(),
        fc.constantFrom('shop.example.com', 'localhost:3000', '127.0.0.1'),
      )
      .map(([path, query, fragment, host]) => {
        const scheme = host === 'shop.example.com' ? 'https' : 'http';
        return `${scheme}://${host}${path}?q=${encodeURIComponent(query)}&raw=${query.replace(/[#\s]/g, '')}#${fragment}`;
      });
    const appId = fc.string({ minLength: 1, unit: 'grapheme' }).filter((id) => id.trim() !== '');
    fc.assert(
      fc.property(appId, redirect, (id, redirectUrl) => {
        const url = new URL(buildLoginUrl({ ...base, appId: id, redirectUrl }));
        expect(url.origin + url.pathname).toBe('https://auth.wallet.example/login');
        expect([...url.searchParams.keys()]).toEqual(['app_id', 'redirect_url']);
        expect(url.searchParams.get('app_id')).toBe(id);
        expect(url.searchParams.get('redirect_url')).toBe(new URL(redirectUrl).href);
      }),
    );
  });

  test('encodes with %20 rather than +, so any server decodes the values the same way', () => {
    const url = buildLoginUrl({ ...base, appId: 'a b+c&d' });
    expect(url).toContain('app_id=a%20b%2Bc%26d&');
    expect(decodeURIComponent(url.split('app_id=')[1]!.split('&')[0]!)).toBe('a b+c&d');
  });

  test('a redirect URL with its own query and fragment arrives intact', () => {
    const redirectUrl = 'https://shop.example.com/cb?order=42&next=%2Fhome#section-2';
    const url = new URL(buildLoginUrl({ ...base, redirectUrl }));
    expect(url.searchParams.get('redirect_url')).toBe(redirectUrl);
    expect(url.hash).toBe('');
  });

  test.each([
    ['https://auth.wallet.example', 'https://auth.wallet.example/login'],
    ['https://auth.wallet.example/', 'https://auth.wallet.example/login'],
    ['https://auth.wallet.example/wallet', 'https://auth.wallet.example/wallet/login'],
    ['https://auth.wallet.example/wallet/', 'https://auth.wallet.example/wallet/login'],
    ['https://auth.wallet.example:8443/a/b', 'https://auth.wallet.example:8443/a/b/login'],
  ])('keeps the path of authUrl %s', (authUrl, expected) => {
    expect(buildLoginUrl({ ...base, authUrl }).split('?')[0]).toBe(expected);
  });

  test('accepts URL objects', () => {
    const url = buildLoginUrl({
      ...base,
      authUrl: new URL(base.authUrl),
      redirectUrl: new URL(base.redirectUrl),
    });
    expect(new URL(url).searchParams.get('redirect_url')).toBe(base.redirectUrl);
  });

  test('refuses an authUrl with a query or fragment rather than dropping it', () => {
    expect(failure({ ...base, authUrl: 'https://auth.wallet.example/?x=1' }).field).toBe('authUrl');
    expect(failure({ ...base, authUrl: 'https://auth.wallet.example/#x' }).field).toBe('authUrl');
  });

  test.each(['authUrl', 'redirectUrl'] as const)('refuses http for a non-loopback %s', (field) => {
    const error = failure({ ...base, [field]: 'http://shop.example.com/x' });
    expect(error.field).toBe(field);
    expect(error.message).toMatch(/^(authUrl|redirectUrl) must use https/);
  });

  test.each([
    'http://localhost:3000/cb',
    'http://127.0.0.1/cb',
    'http://127.8.9.10:8080/cb',
    'http://[::1]:4000/cb',
  ])('allows http on the loopback host of %s', (redirectUrl) => {
    expect(() => buildLoginUrl({ ...base, authUrl: redirectUrl, redirectUrl })).not.toThrow();
  });

  test.each([
    'javascript:alert(1)',
    'ftp://shop.example.com/',
    'http://localhost.evil.example/',
    'http://128.0.0.1/',
  ])('refuses the redirect URL %s', (redirectUrl) => {
    expect(failure({ ...base, redirectUrl }).field).toBe('redirectUrl');
  });

  test('refuses credentials in either URL without repeating them', () => {
    for (const field of ['authUrl', 'redirectUrl'] as const) {
      const error = failure({ ...base, [field]: 'https://user:s3cret@shop.example.com/' });
      expect(error.field).toBe(field);
      expect(error.message).not.toContain('s3cret');
    }
  });

  describe('allowedRedirectHosts', () => {
    const allow = (redirectUrl: string, hosts: string[]) => () =>
      buildLoginUrl({ ...base, redirectUrl, allowedRedirectHosts: hosts });

    test('matches hosts exactly and case-insensitively', () => {
      expect(allow('https://Shop.Example.com/cb', ['shop.example.com'])).not.toThrow();
      expect(allow('https://shop.example.com.evil.example/cb', ['shop.example.com'])).toThrow(
        WalletLoginUrlError,
      );
      expect(allow('https://evilshop.example.com/cb', ['shop.example.com'])).toThrow(
        /not in allowedRedirectHosts/,
      );
      expect(allow('https://sub.shop.example.com/cb', ['shop.example.com'])).toThrow(WalletLoginUrlError);
    });

    test('an entry without a port allows any port; one with a port only that port', () => {
      expect(allow('https://shop.example.com:8443/cb', ['shop.example.com'])).not.toThrow();
      expect(allow('https://shop.example.com:8443/cb', ['shop.example.com:8443'])).not.toThrow();
      expect(allow('https://shop.example.com/cb', ['shop.example.com:443'])).not.toThrow();
      expect(allow('https://shop.example.com:444/cb', ['shop.example.com:443'])).toThrow(WalletLoginUrlError);
      expect(allow('http://localhost:3000/cb', ['localhost:3001'])).toThrow(WalletLoginUrlError);
    });

    test('*.domain allows every subdomain but not the domain itself', () => {
      expect(allow('https://a.shop.example.com/', ['*.shop.example.com'])).not.toThrow();
      expect(allow('https://a.b.shop.example.com/', ['*.shop.example.com'])).not.toThrow();
      expect(allow('https://shop.example.com/', ['*.shop.example.com'])).toThrow(WalletLoginUrlError);
      expect(allow('https://evilshop.example.com/', ['*.shop.example.com'])).toThrow(WalletLoginUrlError);
    });

    test('matches IPv6 and IDN hosts in the form the browser sees', () => {
      expect(allow('http://[::1]:3000/', ['[::1]'])).not.toThrow();
      expect(allow('https://bücher.example/', ['BÜCHER.example'])).not.toThrow();
    });

    test.each([
      [[]],
      [['https://shop.example.com']],
      [['shop.example.com/path']],
      [['*']],
      [['shop.*.com']],
      [[42]],
      ['shop.example.com'],
    ])('refuses the malformed list %j', (hosts) => {
      expect(failure({ ...base, allowedRedirectHosts: hosts }).field).toBe('allowedRedirectHosts');
    });
  });

  test.each([
    [undefined, 'options'],
    [null, 'options'],
    ['https://auth.wallet.example', 'options'],
    [{}, 'authUrl'],
    [{ ...base, authUrl: 42 }, 'authUrl'],
    [{ ...base, authUrl: 'not a url' }, 'authUrl'],
    [{ ...base, appId: undefined }, 'appId'],
    [{ ...base, appId: 7 }, 'appId'],
    [{ ...base, appId: '   ' }, 'appId'],
    [{ ...base, appId: '\uD800' }, 'appId'],
    [{ ...base, redirectUrl: {} }, 'redirectUrl'],
    [{ ...base, redirectUrl: '/relative' }, 'redirectUrl'],
  ])('bad input %j throws WalletLoginUrlError naming %s, never a TypeError', (options, field) => {
    const error = failure(options);
    expect(error.field).toBe(field);
    expect(error.name).toBe('WalletLoginUrlError');
    expect(error.message.startsWith(field)).toBe(true);
  });

  test('its error is a WalletError, and the brand is not enumerable', () => {
    const error = failure({ ...base, appId: '' });
    expect(error).toBeInstanceOf(WalletError);
    expect(error).toBeInstanceOf(Error);
    const brand = Object.getOwnPropertyDescriptor(error, Symbol.for('merchant-wallet.error'));
    expect(brand).toMatchObject({ value: true, enumerable: false });
  });

  test('the entry bundles alone, with no other module, to under 1 KB min+gz', async () => {
    const result = await build({
      entryPoints: ['src/login.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      metafile: true,
    });
    const size = gzipSync(result.outputFiles[0]!.contents).byteLength;
    expect(Object.keys(result.metafile.inputs)).toEqual(['src/login.ts']);
    expect(size).toBeLessThanOrEqual(1024);
  });
});
