import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  codesOfKind,
  errorCodeKinds,
  type WalletApiErrorCode,
  type WalletErrorCodeKinds,
} from '../src/error-codes.js';
import {
  ALL_CODES,
  JUDGED_BY_STATUS,
  NOT_ABOUT_THE_PAYMENT,
  POLL_RETRIES,
  POLL_STOPS,
  POLL_WHILE_NEW,
  REAUTHORIZATION,
  sorted,
} from './helpers/error-code-rules.js';

/** Every value each kind may take. */
const KIND_VALUES: { readonly [K in keyof WalletErrorCodeKinds]-?: readonly WalletErrorCodeKinds[K][] } = {
  aboutPayment: [true, false],
  reauthorize: [true, false],
  poll: ['retry', 'stop', 'while-new', 'by-status'],
  attempt: ['refused', 'by-status'],
};

describe('the code table', () => {
  test.each(ALL_CODES)('%s has every kind, each a value the rules know', (code) => {
    const kinds = errorCodeKinds(code);
    expect(Object.keys(kinds).sort()).toEqual(Object.keys(KIND_VALUES).sort());
    for (const [kind, values] of Object.entries(KIND_VALUES)) {
      expect(values).toContain(kinds[kind as keyof WalletErrorCodeKinds]);
    }
  });

  test('each set of codes derived from the kinds is the rule as it has always been', () => {
    expect(sorted(codesOfKind((kinds) => !kinds.aboutPayment))).toEqual(sorted(NOT_ABOUT_THE_PAYMENT));
    expect(sorted(codesOfKind((kinds) => kinds.reauthorize))).toEqual(sorted(REAUTHORIZATION));
    expect(sorted(codesOfKind((kinds) => kinds.poll === 'stop'))).toEqual(sorted(POLL_STOPS));
    expect(sorted(codesOfKind((kinds) => kinds.poll === 'while-new'))).toEqual(sorted(POLL_WHILE_NEW));
    expect(sorted(codesOfKind((kinds) => kinds.poll === 'retry'))).toEqual(sorted(POLL_RETRIES));
    expect(sorted(codesOfKind((kinds) => kinds.attempt === 'by-status'))).toEqual(sorted(JUDGED_BY_STATUS));
  });

  test('a derived set is typed by the code union, and a misspelt kind does not compile', () => {
    expectTypeOf(codesOfKind).returns.toEqualTypeOf<ReadonlySet<WalletApiErrorCode>>();
    // @ts-expect-error 'stopp' is no kind of poll
    expect(codesOfKind((kinds) => kinds.poll === 'stopp').size).toBe(0);
  });
});
