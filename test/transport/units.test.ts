import { describe, expect, test, vi } from 'vitest';
import { WalletRequestValidationError } from '../../src/index.js';
import { backoffDelay, defaultBackoff, parseRetryAfter } from '../../src/transport/backoff.js';
import { readErrorBody } from '../../src/transport/error-body.js';
import { path } from '../../src/transport/path.js';
import { redactSecrets } from '../../src/transport/redact.js';

const ALMOST_ONE = 1 - Number.EPSILON;

describe('backoffDelay: full jitter between 0 and min(8 s, 500 ms * 2^retry)', () => {
  test.each([
    [0, 500],
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [4, 8_000],
    [5, 8_000],
    [10, 8_000],
    [60, 8_000],
  ])('retry %i waits from 0 up to just under %i ms', (retry, ceiling) => {
    expect(backoffDelay(retry, defaultBackoff, () => 0)).toBe(0);
    expect(backoffDelay(retry, defaultBackoff, () => ALMOST_ONE)).toBe(ceiling - 1);
    expect(backoffDelay(retry, defaultBackoff, () => 0.5)).toBe(ceiling / 2);
  });

  test('the delay is a whole number of milliseconds', () => {
    expect(Number.isInteger(backoffDelay(1, defaultBackoff, () => 0.123456))).toBe(true);
  });

  test('follows a custom policy', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 250, maxRetryAfterMs: 1_000 };

    expect(backoffDelay(0, policy, () => ALMOST_ONE)).toBe(99);
    expect(backoffDelay(1, policy, () => ALMOST_ONE)).toBe(199);
    expect(backoffDelay(2, policy, () => ALMOST_ONE)).toBe(249);
  });

  test('uses Math.random when no random source is given', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.25);

    expect(backoffDelay(2, defaultBackoff)).toBe(500);
    expect(random).toHaveBeenCalledTimes(1);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');

  test.each([
    ['0', 0],
    ['1', 1_000],
    ['120', 120_000],
    [' 7 ', 7_000],
    ['1.5', 1_500],
    ['0.25', 250],
    ['0.0001', 1],
  ])('%j seconds is %i ms', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  test('an HTTP date in the future is the time until then', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
  });

  test('an HTTP date in the past is 0', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(0);
  });

  test('the date is measured from the real clock by default', () => {
    const in90s = new Date(Date.now() + 90_000).toUTCString();

    const ms = parseRetryAfter(in90s);

    expect(ms).toBeGreaterThan(80_000);
    expect(ms).toBeLessThanOrEqual(90_000);
  });

  test.each([null, '', '   ', 'soon', 'later please', 'Fri', '5s', '2 days', '1e3', '12abc'])(
    'an absent or unreadable header %j is undefined',
    (header) => {
      expect(parseRetryAfter(header, now)).toBeUndefined();
    },
  );
});

describe('readErrorBody', () => {
  test.each([
    ['{code, message}', { code: 'invalid_amount', message: 'too small' }],
    ['{error: {code, message}}', { error: { code: 'invalid_amount', message: 'too small' } }],
    ['{error: "<code>", message}', { error: 'invalid_amount', message: 'too small' }],
    ['{errors: [{code, message}]}', { errors: [{ code: 'invalid_amount', message: 'too small' }] }],
  ])('reads code and message from %s', (_shape, body) => {
    expect(readErrorBody(body)).toEqual({ code: 'invalid_amount', message: 'too small' });
  });

  test.each([
    ['{code}', { code: 'psp_error' }],
    ['{error: {code}}', { error: { code: 'psp_error' } }],
    ['{error: "<code>"}', { error: 'psp_error' }],
    ['{errors: [{code}]}', { errors: [{ code: 'psp_error' }] }],
    ['a code with an empty message', { code: 'psp_error', message: '' }],
    ['a code with a non-string message', { code: 'psp_error', message: { text: 'x' } }],
  ])('a body %s has the code and no message', (_shape, body) => {
    expect(readErrorBody(body)).toEqual({ code: 'psp_error', message: undefined });
  });

  test('a nested error without its own message takes the top-level one', () => {
    expect(readErrorBody({ error: { code: 'psp_error' }, message: 'provider down' })).toEqual({
      code: 'psp_error',
      message: 'provider down',
    });
  });

  test('the first readable entry of an errors list wins, skipping entries without a code', () => {
    const body = {
      errors: [null, 'x', { code: 42 }, { code: 'invalid_email', message: 'bad' }, { code: 'psp_error' }],
    };

    expect(readErrorBody(body)).toEqual({ code: 'invalid_email', message: 'bad' });
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a string naming a code', 'insufficient_balance'],
    ['an empty string', ''],
    ['a number', 500],
    ['an array of error objects', [{ code: 'insufficient_balance', message: 'x' }]],
    ['an empty object', {}],
    ['an empty errors list', { errors: [] }],
    ['errors that is not a list', { errors: { code: 'insufficient_balance' } }],
    ['a numeric code', { code: 404 }],
    ['a code that is an object', { code: { value: 'insufficient_balance' } }],
    ['a nested numeric code', { error: { code: 7, message: 'nope' } }],
    ['an empty code', { code: '' }],
    ['an unknown code', { code: 'teapot' }],
    ['a code inherited from Object.prototype', { code: 'toString' }],
    ['a code in another case', { code: 'INSUFFICIENT_BALANCE' }],
  ])('a body that is %s gives unknown_error and never throws', (_label, body) => {
    expect(readErrorBody(body).code).toBe('unknown_error');
  });

  test('a body without a code still gives its top-level message', () => {
    expect(readErrorBody({ message: 'gateway timeout' })).toEqual({
      code: 'unknown_error',
      message: 'gateway timeout',
    });
  });

  test('an unknown code keeps its message', () => {
    expect(readErrorBody({ code: 'teapot', message: 'short and stout' })).toEqual({
      code: 'unknown_error',
      message: 'short and stout',
    });
  });
});

describe('the path template tag', () => {
  test.each([
    ['txn_1', 'txn_1'],
    ['a/b', 'a%2Fb'],
    ['../providers', '..%2Fproviders'],
    ['?x=1&y=2', '%3Fx%3D1%26y%3D2'],
    ['#top', '%23top'],
    ['100%', '100%25'],
    ['%2E%2E', '%252E%252E'],
    ['a b', 'a%20b'],
    ['...', '...'],
    ['ünï', '%C3%BCn%C3%AF'],
  ])('encodes %j as %j', (value, encoded) => {
    expect(path`merchants/transactions/status/${value}`).toBe(`merchants/transactions/status/${encoded}`);
  });

  test('encodes each interpolated value and keeps the literal parts', () => {
    expect(path`a/${'x/y'}/b/${'?'}/c`).toBe('a/x%2Fy/b/%3F/c');
    expect(path`no-values`).toBe('no-values');
  });

  test.each(['.', '..'])('refuses %j, which URL parsers resolve even when encoded', (value) => {
    expect(() => path`merchants/transactions/status/${value}`).toThrow(WalletRequestValidationError);
    expect(() => path`merchants/transactions/status/${value}`).toThrow(/transaction_id/);
  });
});

describe('redactSecrets', () => {
  const key = 'sk_test_4f9c2b7e1a';
  const token = 'utk_live_9d8e7f6a5b';

  test('replaces every occurrence in strings nested in objects and arrays', () => {
    const body = {
      message: `key ${key} and again ${key}`,
      error: { details: [{ header: `Bearer ${token}` }, [`${key}${token}`]] },
      count: 3,
      ok: false,
      none: null,
    };

    expect(redactSecrets(body, [key, token])).toEqual({
      message: 'key [redacted] and again [redacted]',
      error: { details: [{ header: 'Bearer [redacted]' }, ['[redacted][redacted]']] },
      count: 3,
      ok: false,
      none: null,
    });
  });

  test('leaves the input untouched and returns a copy', () => {
    const body = { message: key, list: [key] };

    const redacted = redactSecrets(body, [key]);

    expect(body).toEqual({ message: key, list: [key] });
    expect(redacted).not.toBe(body);
  });

  test('redacts a plain string', () => {
    expect(redactSecrets(`<html>${token}</html>`, [token])).toBe('<html>[redacted]</html>');
  });

  test('an empty secret is ignored rather than splitting every character', () => {
    expect(redactSecrets({ message: 'hello' }, ['', key])).toEqual({ message: 'hello' });
    expect(redactSecrets('hello', [])).toBe('hello');
  });

  test('a secret in an object key is redacted like one in a value; other keys are kept', () => {
    expect(redactSecrets({ [key]: 'value', [`x-${key}`]: { kept: key } }, [key])).toEqual({
      '[redacted]': 'value',
      'x-[redacted]': { kept: '[redacted]' },
    });
  });

  test('a secret ten levels deep is still redacted', () => {
    let deep: unknown = `token ${token}`;
    for (let level = 0; level < 10; level++) deep = { level, inner: [deep] };

    expect(JSON.stringify(redactSecrets(deep, [token]))).not.toContain(token);
  });
});

describe('regressions', () => {
  test.each(['-1', '+5', 'foo 1', '1.5.5', 'Tomorrow', '2026-11-21'])(
    'parseRetryAfter(%j) is unreadable, so the normal backoff applies',
    (header) => {
      expect(parseRetryAfter(header)).toBeUndefined();
    },
  );

  test.each([
    'Sat, 21 Nov 2026 12:00:05 GMT',
    'Saturday, 21-Nov-26 12:00:05 GMT',
    'Sat Nov 21 12:00:05 2026',
  ])('parseRetryAfter reads the HTTP date form %j', (header) => {
    expect(parseRetryAfter(header, Date.parse('2026-11-21T12:00:00Z'))).toBe(5_000);
  });

  test('redactSecrets removes a secret nested deeper than it walks', () => {
    let nested: unknown = { leak: 'sk_secret' };
    for (let depth = 0; depth < 25; depth++) nested = { inner: nested };

    expect(JSON.stringify(redactSecrets(nested, ['sk_secret']))).not.toContain('sk_secret');
  });
});
