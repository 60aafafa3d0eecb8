import { expect, expectTypeOf, test } from 'vitest';
import { isTokenRefusal, REAUTHORIZATION_CODES } from '../src/auth/reauthorization.js';
import type { WalletApiErrorCode } from '../src/error-codes.js';
import { WalletApiError } from '../src/errors.js';
import { isBusinessRefusal } from '../src/journal/outcome.js';
import { isRetryableReadError } from '../src/polling/retry.js';
import type { CallSpec } from '../src/transport/call-spec.js';
import { judgeAnswer } from '../src/transport/judge-attempt.js';
import {
  ALL_CODES,
  codesWhere,
  JUDGED_BY_STATUS,
  NOT_ABOUT_THE_PAYMENT,
  POLL_RETRIES,
  POLL_STOPS,
  POLL_WHILE_NEW,
  REAUTHORIZATION,
  sorted,
} from './helpers/error-code-rules.js';

function apiError(code: WalletApiErrorCode, status: number): WalletApiError {
  return new WalletApiError({ code, message: code, status, endpoint: 'status', body: { code } });
}

test('a refusal speaks for the payment unless it is about credentials, a failure of the service, or reference_already_used', () => {
  const unsaid: readonly WalletApiErrorCode[] = [...NOT_ABOUT_THE_PAYMENT, 'reference_already_used'];
  expect(codesWhere((code) => isBusinessRefusal(apiError(code, 400)))).toEqual(
    codesWhere((code) => !unsaid.includes(code)),
  );
});

test("only authorization_token_not_found and application_not_authorized are taken for a refused user's token", () => {
  expect(codesWhere((code) => isTokenRefusal(apiError(code, 401)))).toEqual(sorted(REAUTHORIZATION));
});

test('the set of re-authorization codes is typed by the code union, so a misspelt code does not compile', () => {
  expectTypeOf(REAUTHORIZATION_CODES).toEqualTypeOf<ReadonlySet<WalletApiErrorCode>>();
  // @ts-expect-error 'aplication_not_authorized' is no code
  expect(REAUTHORIZATION_CODES.has('aplication_not_authorized')).toBe(false);
});

test('a poll reads again by the code: never, only while the wait is new, always, or as the HTTP status says', () => {
  /** Whether the poll reads again after `code` at a 400 and at a 503, each while new and later. */
  const behaviour = (code: WalletApiErrorCode) =>
    [400, 503].flatMap((status) =>
      [true, false].map((young) => isRetryableReadError(apiError(code, status), young)),
    );
  const doing = (expected: readonly boolean[]) =>
    codesWhere((code) => JSON.stringify(behaviour(code)) === JSON.stringify(expected));

  expect(doing([false, false, false, false])).toEqual(sorted(POLL_STOPS));
  expect(doing([true, false, true, false])).toEqual(sorted(POLL_WHILE_NEW));
  expect(doing([true, true, true, true])).toEqual(sorted(POLL_RETRIES));
  const pinned: readonly WalletApiErrorCode[] = [...POLL_STOPS, ...POLL_WHILE_NEW, ...POLL_RETRIES];
  expect(doing([false, false, true, true])).toEqual(codesWhere((code) => !pinned.includes(code)));
});

test('a POST answered 503 may have been applied, and is retried, only when its code is judged by the status', () => {
  const call: CallSpec = {
    endpoint: 'deposit',
    method: 'POST',
    path: '/deposit',
    referenceId: 'ref-1',
    validate: (body) => body,
  };
  const verdicts = ALL_CODES.map((code) => {
    const answer = { status: 503, headers: { get: () => null }, text: JSON.stringify({ code }) };
    return { code, ...judgeAnswer(call, answer, []) };
  });
  for (const verdict of verdicts) expect(verdict.error).toMatchObject({ code: verdict.code });
  expect(sorted(verdicts.filter((v) => v.maybeApplied).map((v) => v.code))).toEqual(sorted(JUDGED_BY_STATUS));
  expect(sorted(verdicts.filter((v) => v.retryable).map((v) => v.code))).toEqual(sorted(JUDGED_BY_STATUS));
});
