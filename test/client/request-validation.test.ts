import { beforeEach, describe, expect, test } from 'vitest';
import { type WalletClient, WalletError, WalletRequestValidationError } from '../../src/index.js';
import {
  answer,
  depositResult,
  providerList,
  statusResult,
  USER_TOKEN,
  useApiServer,
  withdrawResult,
} from '../helpers/api-server.js';
import { validDeposit, validWithdraw } from '../helpers/error-fixtures.js';

const api = useApiServer();

// Every route answers success, so a request that slipped past validation would be recorded in `seen`
// (and resolve) instead of going unnoticed; anything else is refused by onUnhandledRequest: 'error'.
beforeEach(() => {
  api.use(
    answer('deposit', 200, depositResult),
    answer('withdraw', 200, withdrawResult),
    answer('status', 200, statusResult),
    answer('providers', 200, providerList),
  );
});

type Call = (client: WalletClient) => Promise<unknown>;
// Bad input is what these tests pass on purpose, past the types.
// biome-ignore lint/suspicious/noExplicitAny: deliberately untyped arguments
type Loose = any;

/** `deposit(body)` sends a valid userToken; `deposit(body, options)` sends `options` as given, even undefined. */
const deposit =
  (body: unknown, ...options: [unknown?]): Call =>
  (client) =>
    client.deposit(body as Loose, (options.length === 0 ? { userToken: USER_TOKEN } : options[0]) as Loose);
const withdraw =
  (body: unknown, options?: unknown): Call =>
  (client) =>
    client.withdraw(body as Loose, options as Loose);
const getTransaction =
  (id: unknown, options?: unknown): Call =>
  (client) =>
    client.getTransaction(id as Loose, options as Loose);
const listProviders =
  (options: unknown): Call =>
  (client) =>
    client.listProviders(options as Loose);

function omit(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

/** Calls `call`, asserting it returned a promise rather than throwing, and returns what it rejected with. */
async function refusal(call: Call): Promise<WalletRequestValidationError> {
  let promise: Promise<unknown> | undefined;
  expect(() => {
    promise = call(api.client());
  }).not.toThrow();
  expect(promise).toBeInstanceOf(Promise);
  const error = await (promise as Promise<unknown>).then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).not.toBeInstanceOf(TypeError);
  expect(error).toBeInstanceOf(WalletError);
  expect(error).toBeInstanceOf(WalletRequestValidationError);
  expect(api.seen).toEqual([]);
  return error as WalletRequestValidationError;
}

const amounts: Array<[string, unknown]> = [
  ['0', 0],
  ['-0', -0],
  ['negative', -5],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
  ['a numeric string', '250'],
  ['null', null],
];
const currencies: Array<[string, unknown]> = [
  ['empty', ''],
  ['with a space inside', 'K ES'],
  ['padded with spaces', ' KES '],
  ['a number', 404],
  ['null', null],
];
const bodies: Array<[string, unknown]> = [
  ['null', null],
  ['undefined', undefined],
  ['an array', [validDeposit]],
  ['a string', JSON.stringify(validDeposit)],
  ['a number', 250],
];

describe('deposit refuses a bad body and sends nothing', () => {
  test.each([
    ...amounts.map(([label, amount]): [string, string, unknown] => [
      `amount ${label}`,
      'amount',
      { ...validDeposit, amount },
    ]),
    ...currencies.map(([label, currency]): [string, string, unknown] => [
      `currency ${label}`,
      'currency',
      { ...validDeposit, currency },
    ]),
    ['reference_id empty', 'reference_id', { ...validDeposit, reference_id: '' }],
    ['reference_id blank', 'reference_id', { ...validDeposit, reference_id: '  \t ' }],
    ['reference_id a number', 'reference_id', { ...validDeposit, reference_id: 1042 }],
    ['webhook_url relative', 'webhook_url', { ...validDeposit, webhook_url: '/hooks/wallet' }],
    ['webhook_url ftp:', 'webhook_url', { ...validDeposit, webhook_url: 'ftp://shop.example.com/hook' }],
    ['webhook_url javascript:', 'webhook_url', { ...validDeposit, webhook_url: 'javascript:alert(1)' }],
    ['webhook_url not a string', 'webhook_url', { ...validDeposit, webhook_url: 42 }],
    ['payment_provider empty', 'payment_provider', { ...validDeposit, payment_provider: '' }],
    ['description not a string', 'description', { ...validDeposit, description: { text: 'x' } }],
    ['a misspelt field ammount', 'ammount', { ...validDeposit, ammount: 250 }],
    ['an email field, which deposits do not have', 'email', { ...validDeposit, email: 'ada@example.com' }],
    ['no reference_id', 'reference_id', omit(validDeposit, 'reference_id')],
    ['no amount', 'amount', omit(validDeposit, 'amount')],
    ['no currency', 'currency', omit(validDeposit, 'currency')],
    ...bodies.map(([label, body]): [string, string, unknown] => [
      `a body that is ${label}`,
      'deposit request',
      body,
    ]),
  ])('%s is refused naming %s', async (_label, field, body) => {
    const error = await refusal(deposit(body));

    expect(error.message).toContain(field);
  });
});

describe('withdraw refuses a bad body and sends nothing', () => {
  test.each([
    ...amounts.map(([label, amount]): [string, string, unknown] => [
      `amount ${label}`,
      'amount',
      { ...validWithdraw, amount },
    ]),
    ...currencies.map(([label, currency]): [string, string, unknown] => [
      `currency ${label}`,
      'currency',
      { ...validWithdraw, currency },
    ]),
    ['email without @', 'email', { ...validWithdraw, email: 'ada.example.com' }],
    ['email empty', 'email', { ...validWithdraw, email: '' }],
    ['email with a space', 'email', { ...validWithdraw, email: 'ada lovelace@example.com' }],
    ['email not a string', 'email', { ...validWithdraw, email: ['ada@example.com'] }],
    ['reference_id empty', 'reference_id', { ...validWithdraw, reference_id: '' }],
    ['reference_id blank', 'reference_id', { ...validWithdraw, reference_id: '   ' }],
    ['payment_provider blank', 'payment_provider', { ...validWithdraw, payment_provider: ' ' }],
    ['a misspelt field ammount', 'ammount', { ...validWithdraw, ammount: 5 }],
    [
      'a webhook_url field, which withdrawals do not have',
      'webhook_url',
      { ...validWithdraw, webhook_url: 'https://x.example' },
    ],
    ['no email', 'email', omit(validWithdraw, 'email')],
    ['no amount', 'amount', omit(validWithdraw, 'amount')],
    ['no currency', 'currency', omit(validWithdraw, 'currency')],
    ...bodies.map(([label, body]): [string, string, unknown] => [
      `a body that is ${label}`,
      'withdraw request',
      body,
    ]),
  ])('%s is refused naming %s', async (_label, field, body) => {
    const error = await refusal(withdraw(body));

    expect(error.message).toContain(field);
  });
});

describe('getTransaction refuses a bad transaction id and sends nothing', () => {
  test.each([
    ['empty', ''],
    ['blank', '   '],
    ['a number', 1001],
    ['undefined', undefined],
    ['null', null],
    ['an object', { transaction_id: 'txn_1' }],
    ['"."', '.'],
    ['".."', '..'],
  ])('a transaction id that is %s is refused naming transaction_id', async (_label, id) => {
    const error = await refusal(getTransaction(id));

    expect(error.message).toContain('transaction_id');
  });
});

describe('methods acting for a user refuse a missing or malformed userToken without echoing it', () => {
  const tokens: Array<[string, unknown, string | undefined]> = [
    ['no options', undefined, undefined],
    ['options without userToken', {}, undefined],
    ['options that are null', null, undefined],
    ['an empty userToken', { userToken: '' }, undefined],
    ['a userToken with a space', { userToken: 'utk_secret part2' }, 'utk_secret part2'],
    ['a userToken with a line break', { userToken: 'utk_secret\r\nX-Evil: 1' }, 'utk_secret'],
    ['a userToken with non-ASCII characters', { userToken: 'utk_sécret' }, 'utk_sécret'],
    ['a userToken that is a number', { userToken: 123456789 }, '123456789'],
  ];
  test.each(tokens)('deposit with %s is refused naming userToken', async (_label, options, secret) => {
    const error = await refusal(deposit(validDeposit, options));

    expect(error.message).toContain('userToken');
    if (secret !== undefined) {
      expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
    }
  });

  test.each(tokens)('listProviders with %s is refused naming userToken', async (_label, options, secret) => {
    const error = await refusal(listProviders(options));

    expect(error.message).toContain('userToken');
    if (secret !== undefined) {
      expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
    }
  });
});

describe('every method refuses bad per-call options and sends nothing', () => {
  const methods: Array<[string, (options: Record<string, unknown>) => Call]> = [
    ['deposit', (options) => deposit(validDeposit, { userToken: USER_TOKEN, ...options })],
    ['withdraw', (options) => withdraw(validWithdraw, options)],
    ['getTransaction', (options) => getTransaction('txn_c2b_001', options)],
    ['listProviders', (options) => listProviders({ userToken: USER_TOKEN, ...options })],
  ];
  const badOptions: Array<[string, string, Record<string, unknown>]> = [
    ['a signal that is a string', 'signal', { signal: 'abort' }],
    [
      'a signal that only looks like an AbortSignal',
      'signal',
      { signal: { aborted: false, addEventListener() {} } },
    ],
    ['timeoutMs 0', 'timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs negative', 'timeoutMs', { timeoutMs: -100 }],
    ['timeoutMs NaN', 'timeoutMs', { timeoutMs: Number.NaN }],
    ['timeoutMs Infinity', 'timeoutMs', { timeoutMs: Number.POSITIVE_INFINITY }],
    ['timeoutMs a string', 'timeoutMs', { timeoutMs: '1000' }],
  ];
  const cases = methods.flatMap(([method, call]) =>
    badOptions.map(([label, field, options]): [string, string, string, Call] => [
      method,
      label,
      field,
      call(options),
    ]),
  );

  test.each(cases)('%s with %s is refused naming %s', async (_method, _label, field, call) => {
    const error = await refusal(call);

    expect(error.message).toContain(field);
  });

  test.each([
    ['withdraw', withdraw(validWithdraw, null)],
    ['getTransaction', getTransaction('txn_c2b_001', 'fast')],
  ] as const)('%s with options that are not an object is refused naming options', async (_method, call) => {
    const error = await refusal(call);

    expect(error.message).toContain('options');
  });
});

test('a body with several problems reports each one', async () => {
  const error = await refusal(withdraw({ email: 'nope', amount: -1, currency: '' }));

  expect(error.issues.map((issue) => issue.path).sort()).toEqual(['amount', 'currency', 'email']);
});

test('the valid inputs used above are accepted, so the refusals are about the bad field alone', async () => {
  const client = api.client();

  await expect(client.deposit(validDeposit, { userToken: USER_TOKEN })).resolves.toEqual(depositResult);
  await expect(client.withdraw(validWithdraw, { timeoutMs: 5_000 })).resolves.toEqual(withdrawResult);
  await expect(client.getTransaction('txn_c2b_001', {})).resolves.toEqual(statusResult);
  await expect(
    client.listProviders({ userToken: USER_TOKEN, signal: new AbortController().signal }),
  ).resolves.toEqual(providerList);
  expect(api.seen).toHaveLength(4);
});
