import { describe, expect, test } from 'vitest';
import { parseDateCompleted, WalletResponseValidationError } from '../../src/index.js';

function refusal(value: unknown): WalletResponseValidationError {
  let thrown: unknown;
  try {
    parseDateCompleted(value as number);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).not.toBeInstanceOf(TypeError);
  expect(thrown).toBeInstanceOf(WalletResponseValidationError);
  const error = thrown as WalletResponseValidationError;
  expect(error.issues.map((issue) => issue.path)).toEqual(['date_completed']);
  expect(error.message).toContain('date_completed');
  return error;
}

describe('valid values', () => {
  test('20261121143005 is 2026-11-21T14:30:05Z, read as UTC', () => {
    expect(parseDateCompleted(20261121143005).toISOString()).toBe('2026-11-21T14:30:05.000Z');
  });

  test.each([
    [20240229000000, '2024-02-29T00:00:00.000Z'],
    [20000229120000, '2000-02-29T12:00:00.000Z'],
    [20261231235959, '2026-12-31T23:59:59.000Z'],
    [19700101000000, '1970-01-01T00:00:00.000Z'],
    [20260101000000, '2026-01-01T00:00:00.000Z'],
  ])('%i is read as %s', (value, iso) => {
    expect(parseDateCompleted(value).toISOString()).toBe(iso);
  });

  test('the same digits as a string give the same date, as the signature allows', () => {
    expect(parseDateCompleted('20261121143005').toISOString()).toBe('2026-11-21T14:30:05.000Z');
  });

  test('returns a fresh Date each call', () => {
    expect(parseDateCompleted(20261121143005)).not.toBe(parseDateCompleted(20261121143005));
  });
});

describe('impossible calendar dates and times are refused naming date_completed', () => {
  test.each([
    ['29 February in a common year', 20230229120000],
    ['29 February in a century year that is not a leap year', 19000229120000],
    ['30 February', 20240230120000],
    ['31 April', 20260431120000],
    ['month 00', 20260021120000],
    ['month 13', 20261321120000],
    ['day 00', 20261100120000],
    ['day 32', 20261232120000],
    ['hour 24', 20261121240000],
    ['minute 60', 20261121146000],
    ['second 60', 20261121143060],
  ])('%s (%i) is refused', (_label, value) => {
    const error = refusal(value);

    expect(error.message).toContain(String(value));
  });
});

describe('values that are not a 14-digit integer are refused naming date_completed', () => {
  test.each([
    ['13 digits', 2026112114300],
    ['15 digits', 202611211430050],
    ['negative', -20261121143005],
    ['a float', 20261121143005.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['beyond the safe integer range', 2 ** 60],
    ['zero', 0],
    ['an ISO string', '2026-11-21T14:30:05Z'],
    ['a string of 13 digits', '2026112114300'],
    ['a digit string with spaces', ' 20261121143005 '],
    ['an empty string', ''],
    ['a string with a sign', '+20261121143005'],
    ['null', null],
    ['undefined', undefined],
    ['a bigint', 20261121143005n],
    ['a Date', new Date('2026-11-21T14:30:05Z')],
    ['an object', { value: 20261121143005 }],
    ['an array', [20261121143005]],
    ['a boolean', true],
    ['a symbol', Symbol('date')],
  ])('a value that is %s is refused and kept as the body', (_label, value) => {
    const error = refusal(value);

    expect(error.body).toBe(value);
  });

  test('a very long string is not echoed whole in the message', () => {
    const error = refusal('9'.repeat(10_000));

    expect(error.message.length).toBeLessThan(500);
  });
});

describe('the refusal names the value, not an endpoint it did not come from', () => {
  test('the message reads "Invalid date_completed" and carries no endpoint or HTTP status', () => {
    const error = refusal(20230229120000);

    expect(error.message).toMatch(/^Invalid date_completed/);
    expect(error.message).not.toContain('withdraw');
    expect(error.message).not.toContain('HTTP');
    expect(error.endpoint).toBeUndefined();
    expect(error.status).toBeUndefined();
  });
});
