import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createSandbox, createSandboxRequestHandler, type Sandbox } from '../../src/testing/index.js';

const URLS = { baseUrl: 'http://sandbox.test', authUrl: 'http://sandbox.test/auth' };
const TOKENS = ['tok_sandbox_alice', 'tok_sandbox_bob', 'tok_sandbox_carol', 'tok_unknown'];
const EMAILS = ['alice@example.com', 'bob@example.com', 'carol@example.com', 'nobody@example.com'];
const PROVIDERS = [undefined, 'mpesa', 'airtel', 'flakypay', 'declinepay', 'tigo'];
const CURRENCIES = ['KES', 'UGX', 'TZS', 'USD'];

const amount = fc.oneof(
  fc.integer({ min: 1, max: 30_000 }),
  fc.integer({ min: 1, max: 3_000_000 }).map((c) => c / 100),
);
const common = {
  amount,
  currency: fc.constantFrom(...CURRENCIES),
  provider: fc.constantFrom(...PROVIDERS),
  reference: fc.integer({ min: 1, max: 40 }).map((n) => `ref-${n}`),
};
const operation = fc.oneof(
  fc.record({ op: fc.constant('deposit' as const), token: fc.constantFrom(...TOKENS), ...common }),
  fc.record({ op: fc.constant('withdraw' as const), email: fc.constantFrom(...EMAILS), ...common }),
  fc.record({ op: fc.constant('settle' as const), pick: fc.nat(), completed: fc.boolean() }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

async function apply(
  sandbox: Sandbox,
  handle: ReturnType<typeof createSandboxRequestHandler>,
  op: Operation,
) {
  if (op.op === 'settle') {
    const pending = sandbox.transactions().filter((t) => t.transaction_status === 'pending');
    const target = pending[op.pick % Math.max(pending.length, 1)];
    if (target) sandbox.settle(target.transaction_id, { status: op.completed ? 'completed' : 'failed' });
    return;
  }
  const body = {
    reference_id: op.reference,
    amount: op.amount,
    currency: op.currency,
    ...(op.provider === undefined ? {} : { payment_provider: op.provider }),
    ...(op.op === 'withdraw' ? { email: op.email } : {}),
  };
  const headers: Record<string, string> = {
    'x-api-key': 'sk_sandbox_demo_shop',
    'content-type': 'application/json',
  };
  if (op.op === 'deposit') headers.authorization = `Bearer ${op.token}`;
  const path = op.op === 'deposit' ? '/merchants/transactions/c2b' : '/merchants/transactions/b2c';
  const response = await handle({
    method: 'POST',
    url: URLS.baseUrl + path,
    headers,
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
  expect(response.kind).toBe('respond');
  if (response.kind === 'respond') expect(response.status).not.toBe(500);
}

function allBalances(sandbox: Sandbox): number[] {
  const { merchants, users, providers } = sandbox.balances();
  const perProvider = Object.values(providers).flatMap((byName) => Object.values(byName));
  return [...Object.values(merchants), ...Object.values(users), ...perProvider].flatMap((b) =>
    Object.values(b),
  );
}

describe('money is conserved', () => {
  test('no random sequence of deposits, withdrawals and settlements creates or loses money', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (ops) => {
        const sandbox = createSandbox();
        const handle = createSandboxRequestHandler(sandbox, URLS);
        const before = sandbox.totalMoney();
        for (const op of ops) {
          await apply(sandbox, handle, op);
          expect(sandbox.totalMoney()).toEqual(before);
          expect(allBalances(sandbox).every((b) => b >= 0)).toBe(true);
        }
        sandbox.close();
      }),
      { numRuns: 60 },
    );
  });

  test('totalMoney(currency) sums merchants, wallets and provider accounts', () => {
    const sandbox = createSandbox();
    // Demo 100000 + Other 50000 + Closed 1000 + wallets 5000+100+1000 + providers 50000+20000+10000+10000+1000
    // + six scenario users' mpesa accounts of 10000 each
    expect(sandbox.totalMoney('KES')).toBe(308_100);
    expect(sandbox.totalMoney('EUR')).toBe(0);
    expect(sandbox.totalMoney()).toEqual({ KES: 308_100, UGX: 1_125_000, USD: 1_000, TZS: 10_000 });
  });
});
