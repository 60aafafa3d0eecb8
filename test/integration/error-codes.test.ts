import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { safeParse } from 'zod/v4/core';
import {
  DepositRequest,
  defaultErrorMessage,
  isWalletApiError,
  WalletApiError,
  WalletRequestValidationError,
  WithdrawRequest,
  walletErrorCodes,
} from '../../src/index.js';
import { ERROR_BODY_SHAPES, type ErrorBodyShape, SANDBOX_ERROR_STATUS } from '../../src/testing/index.js';
import { CODE_CASES, type Fixtures, prepareFixtures } from './error-cases.js';
import { startServerTarget, type Target, TOKENS, TRANSPORTS, VIA_CONTRACT_PROXY } from './harness.js';

/** Where the code and message sit in each error body shape. */
function expectedBody(shape: ErrorBodyShape, code: string, message: string): unknown {
  switch (shape) {
    case 'code':
      return { code, message };
    case 'error-object':
      return { error: { code, message } };
    case 'error-string':
      return { error: code, message };
    case 'errors-array':
      return { errors: [{ code, message }] };
  }
}

test('the cases cover all 22 documented codes', () => {
  expect(CODE_CASES.map((c) => c.code).sort()).toEqual([...walletErrorCodes].sort());
});

/**
 * Through the contract-checking proxy, the cases whose credential header is dropped on the way are
 * left out: such a request breaks the contract by design (scripts/openapi-prism.ts checks that the
 * proxy reports one), and a WalletClient never sends it.
 */
const CASES = VIA_CONTRACT_PROXY ? CODE_CASES.filter((c) => c.route !== 'proxy') : CODE_CASES;

const SHAPES = Object.keys(ERROR_BODY_SHAPES) as ErrorBodyShape[];
const combinations = SHAPES.flatMap((shape) => TRANSPORTS.map((transport) => ({ shape, transport })));

describe.each(combinations)(
  'WalletClient against the sandbox server, $shape bodies, $transport transport',
  ({ shape, transport }) => {
    let target: Target;
    let fixtures: Fixtures;

    beforeAll(async () => {
      target = await startServerTarget({ errorShape: shape });
      fixtures = await prepareFixtures(target, transport);
    });
    afterAll(() => target.close());

    test.each(CASES)('$code from $endpoint ($route) is a WalletApiError with that code', async (c) => {
      const money = target.sandbox.totalMoney();
      const transactions = target.sandbox.transactions().length;

      const error = await c.call(target, transport, fixtures).then(
        () => expect.fail('the call succeeded'),
        (reason: unknown) => reason,
      );

      expect(isWalletApiError(error, c.code)).toBe(true);
      const apiError = error as WalletApiError;
      const message = defaultErrorMessage(c.code, c.endpoint);
      expect(apiError).toBeInstanceOf(WalletApiError);
      expect(apiError.status).toBe(SANDBOX_ERROR_STATUS[c.code]);
      expect(apiError.endpoint).toBe(c.endpoint);
      expect(apiError.requestId).toMatch(/^req_\d+$/);
      expect(apiError.message).toBe(`${message} (${c.code}, HTTP ${apiError.status} from ${c.endpoint})`);
      expect(apiError.body).toEqual(expectedBody(shape, c.code, message));
      // A refused request moves no money and records nothing.
      expect(target.sandbox.totalMoney()).toEqual(money);
      expect(target.sandbox.transactions()).toHaveLength(transactions);
    });
  },
);

describe('codes the SDK prevents by refusing the request before sending it', () => {
  let target: Target;
  beforeAll(async () => {
    target = await startServerTarget();
  });
  afterAll(() => target.close());

  test.each<[string, () => Promise<unknown>]>([
    [
      'a webhook_url that is not a URL (invalid_webhook_url)',
      () =>
        target
          .client('node')
          .deposit(
            { reference_id: 'r-1', amount: 10, currency: 'KES', webhook_url: 'not a url' },
            { userToken: TOKENS.alice },
          ),
    ],
    [
      'an e-mail without a domain (invalid_email)',
      () => target.client('node').withdraw({ email: 'not-an-email', amount: 1, currency: 'KES' }),
    ],
    [
      'a negative amount (invalid_amount)',
      () => target.client('node').withdraw({ email: 'alice@example.com', amount: -5, currency: 'KES' }),
    ],
    [
      'a missing user token (authorization_token_not_found)',
      () => target.client('node').listProviders({ userToken: '' }),
    ],
  ])('%s is a WalletRequestValidationError and never reaches the sandbox', async (_, call) => {
    const before = target.sandbox.transactions().length;
    // Every API answer carries the next request id, so a gap would show a request got through.
    const probe = () =>
      target
        .client('node')
        .getTransaction('txn_999999')
        .catch((e: WalletApiError) => e.requestId ?? '');
    const first = String(await probe());
    await expect(call()).rejects.toBeInstanceOf(WalletRequestValidationError);
    const next = String(await probe());
    expect(Number(next.slice(4)) - Number(first.slice(4))).toBe(1);
    expect(target.sandbox.transactions()).toHaveLength(before);
  });

  test('the schemas the SDK checks with agree: those bodies are invalid', () => {
    expect(
      safeParse(DepositRequest, { reference_id: 'r', amount: 1, currency: 'KES', webhook_url: 'x' }).success,
    ).toBe(false);
    expect(safeParse(WithdrawRequest, { email: 'not-an-email', amount: 1, currency: 'KES' }).success).toBe(
      false,
    );
  });
});
