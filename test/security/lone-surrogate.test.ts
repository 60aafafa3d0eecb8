import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WalletClient, WalletRequestValidationError } from '../../src/index.js';
import { TRANSPORTS } from '../faults/harness.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const TOKEN = 'tok_surrogate_1';
/** Strings with a UTF-16 surrogate that has no partner: they have no UTF-8 form. */
const LONE = {
  'a lone high surrogate': '\ud800',
  'a lone low surrogate': 'txn_\udc00',
  'a reversed pair': '\udc00\ud800',
};

/** Every method that takes an id, with the field that id is, given `id`. */
const TAKES_AN_ID = {
  getTransaction: { field: 'transaction_id', call: (c: WalletClient, id: string) => c.getTransaction(id) },
  waitForTransaction: {
    field: 'transaction_id',
    call: (c: WalletClient, id: string) => c.waitForTransaction(id, { timeoutMs: 5_000 }),
  },
  watchTransaction: {
    field: 'transaction_id',
    call: (c: WalletClient, id: string) => c.watchTransaction(id).next(),
  },
  reconcile: {
    field: 'transaction_id',
    call: async (c: WalletClient, id: string) => {
      for await (const row of c.reconcile([id])) if (row.error) throw row.error;
    },
  },
  deposit: {
    field: 'reference_id',
    call: (c: WalletClient, id: string) =>
      c.deposit({ reference_id: id, amount: 1, currency: 'KES' }, { userToken: TOKEN }),
  },
  withdraw: {
    field: 'reference_id',
    call: (c: WalletClient, id: string) =>
      c.withdraw({ reference_id: id, email: 'a@example.com', amount: 1, currency: 'KES' }),
  },
} as const;

let server: LocalServer;
let requests = 0;
beforeAll(async () => {
  server = await startLocalServer((_request, response) => {
    requests += 1;
    response.writeHead(500).end();
  });
});
afterAll(() => server.close());

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    describe.each(Object.entries(LONE))('an id with %s', (_label, id) => {
      test.each(Object.keys(TAKES_AN_ID) as (keyof typeof TAKES_AN_ID)[])(
        'given to %s is a WalletRequestValidationError naming the field, never a URIError, and nothing is sent',
        async (method) => {
          const client = new WalletClient({
            apiKey: 'sk_surrogate',
            baseUrl: server.url,
            ...TRANSPORTS[transport],
          });
          const before = requests;

          const error = await rejectionOf(TAKES_AN_ID[method].call(client, id));

          expect(error).toBeInstanceOf(WalletRequestValidationError);
          expect(error).not.toBeInstanceOf(URIError);
          const { field } = TAKES_AN_ID[method];
          expect((error as WalletRequestValidationError).issues).toEqual([
            { path: field, message: expect.stringContaining('lone UTF-16 surrogate') },
          ]);
          expect((error as Error).message).toContain(field);
          expect(requests).toBe(before);
        },
      );
    });
  },
);
