import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, WalletOutcomeUnknownError, WalletResponseValidationError } from '../../src/index.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { ALICE, DEMO_KEY, type Running, runSandbox } from '../testing/helpers.js';
import { TRANSPORTS } from './harness.js';

let running: Running;
let references = 0;

beforeAll(async () => {
  running = await runSandbox();
});
afterAll(() => running.close());
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  running.sandbox.faults.clear();
});

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    const client = () =>
      new WalletClient({
        apiKey: DEMO_KEY,
        baseUrl: running.server.baseUrl,
        timeoutMs: 3_000,
        ...TRANSPORTS[transport],
      });
    const held = (referenceId: string) =>
      running.sandbox.transactions().filter((t) => t.reference_id === referenceId);

    test('a withdrawal applied on its first attempt whose retry gets unreadable JSON ends in WalletOutcomeUnknownError', async () => {
      const referenceId = `unreadable-w-${transport}-${++references}`;
      running.sandbox.faults.inject({ route: 'withdraw', kind: 'drop-after' });
      running.sandbox.faults.inject({
        route: 'withdraw',
        kind: 'respond',
        status: 200,
        body: '{"transaction_id": "txn_',
        headers: { 'content-type': 'application/json' },
      });

      const error = await rejectionOf(
        client().withdraw({
          reference_id: referenceId,
          email: 'bob@example.com',
          amount: 3,
          currency: 'KES',
        }),
      );

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      expect(error).toMatchObject({ referenceId, attempts: 2, endpoint: 'withdraw' });
      expect((error as WalletOutcomeUnknownError).cause).toBeInstanceOf(WalletResponseValidationError);
      expect(held(referenceId)).toHaveLength(1);
    });

    test('a deposit applied on its first attempt whose retry gets a 200 missing transaction_id ends in WalletOutcomeUnknownError', async () => {
      const referenceId = `unreadable-d-${transport}-${++references}`;
      running.sandbox.faults.inject({ route: 'deposit', kind: 'reset-mid-body' });
      running.sandbox.faults.inject({
        route: 'deposit',
        kind: 'respond',
        status: 200,
        body: { reference_id: referenceId, transaction_status: 'completed', amount: 3, currency: 'KES' },
      });

      const error = await rejectionOf(
        client().deposit({ reference_id: referenceId, amount: 3, currency: 'KES' }, { userToken: ALICE }),
      );

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      expect(error).toMatchObject({ referenceId, attempts: 2, endpoint: 'deposit' });
      expect(held(referenceId)).toHaveLength(1);
    });

    test('a 200 body that echoes the API key and user token keeps neither in WalletResponseValidationError', async () => {
      running.sandbox.faults.inject({
        route: 'providers',
        kind: 'respond',
        status: 200,
        body: { echo: `${DEMO_KEY} Bearer ${ALICE}` },
      });

      const error = await rejectionOf(client().listProviders({ userToken: ALICE }));

      expect(error).toBeInstanceOf(WalletResponseValidationError);
      expect((error as WalletResponseValidationError).body).toEqual({ echo: '[redacted] Bearer [redacted]' });
      for (const rendering of [JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })]) {
        expect(rendering).not.toContain(DEMO_KEY);
        expect(rendering).not.toContain(ALICE);
      }
    });
  },
);
