import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletClient } from '../../src/index.js';
import type { FaultAction, WalletEndpoint } from '../../src/testing/index.js';
import { TRANSPORTS } from '../faults/harness.js';
import { ALICE, DEMO_KEY, type Running, runSandbox } from '../testing/helpers.js';

const ECHO = `key=${DEMO_KEY} authorization=Bearer ${ALICE}`;
/** Faults that make the client log retries and fail, several echoing the credentials back. */
const FAULTS: readonly FaultAction[] = [
  { kind: 'respond', status: 500, body: { message: ECHO } },
  { kind: 'respond', status: 502, body: `<html>${ECHO}</html>` },
  { kind: 'respond', status: 429, body: { error: ECHO }, headers: { 'retry-after': '0' } },
  { kind: 'latency', ms: 400 },
  { kind: 'drop-before' },
  { kind: 'drop-after' },
  { kind: 'reset-mid-body' },
  { kind: 'respond', status: 200, body: { echo: ECHO } },
  { kind: 'respond', status: 200, body: `not json ${ECHO}` },
];

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

function call(client: WalletClient, route: WalletEndpoint) {
  const referenceId = `log-${++references}`;
  switch (route) {
    case 'deposit':
      return client.deposit({ reference_id: referenceId, amount: 1, currency: 'KES' }, { userToken: ALICE });
    case 'withdraw':
      return client.withdraw({
        reference_id: referenceId,
        email: 'bob@example.com',
        amount: 1,
        currency: 'KES',
      });
    case 'status':
      return client.getTransaction('txn_999999');
    case 'providers':
      return client.listProviders({ userToken: ALICE });
  }
}

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    test.each(['deposit', 'withdraw', 'status', 'providers'] as const)(
      'under every fault, no logger call of %s carries a credential and no error rendering a credential the call held',
      async (route) => {
        const lines: unknown[][] = [];
        const record =
          (level: string) =>
          (...args: unknown[]) =>
            lines.push([level, ...args]);
        const client = new WalletClient({
          apiKey: DEMO_KEY,
          baseUrl: running.server.baseUrl,
          timeoutMs: 150,
          logger: {
            debug: record('debug'),
            info: record('info'),
            warn: record('warn'),
            error: record('error'),
          },
          ...TRANSPORTS[transport],
        });
        const renderings: string[] = [];
        for (const fault of FAULTS) {
          running.sandbox.faults.inject({ ...fault, route, every: 1 });
          const error = await call(client, route).then(
            () => undefined,
            (failure: unknown) => failure,
          );
          running.sandbox.faults.clear();
          expect(error).toBeInstanceOf(Error);
          renderings.push(
            String(error),
            (error as Error).stack ?? '',
            JSON.stringify(error),
            inspect(error, { depth: 10, showHidden: true }),
          );
        }

        expect(lines.filter(([level]) => level === 'warn').length).toBeGreaterThan(FAULTS.length);
        const logged = lines.map(
          (line) => `${JSON.stringify(line)} ${inspect(line, { depth: 10, showHidden: true })}`,
        );
        for (const text of logged) {
          expect(text).not.toContain(DEMO_KEY);
          expect(text).not.toContain(ALICE);
        }
        // An error keeps the server's words; the SDK can redact only the secrets the call held.
        const held = route === 'deposit' || route === 'providers' ? [DEMO_KEY, ALICE] : [DEMO_KEY];
        for (const text of renderings) {
          for (const secret of held) expect(text).not.toContain(secret);
        }
      },
    );
  },
);
