import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  WalletApiError,
  WalletClient,
  WalletConnectionError,
  WalletOutcomeUnknownError,
  WalletResponseValidationError,
  WalletTimeoutError,
} from '../../src/index.js';
import type { WalletEndpoint } from '../../src/testing/index.js';
import { ALICE, DEMO_KEY, type Running, runSandbox } from '../testing/helpers.js';
import {
  DROPPED_FIELD,
  type Expected,
  FAULT_CASES,
  type FaultCase,
  TIMEOUT_MS,
  VALID_BODIES,
} from './fault-table.js';

/** The two transports: the default node:http one, and the given `fetch`. */
export const TRANSPORTS = {
  node: {},
  fetch: { fetch: globalThis.fetch },
} as const;

/** Every logger call a client made. */
export interface LogLine {
  level: string;
  message: string;
  meta: Record<string, unknown> | undefined;
}

/** A client of the running sandbox with a recording logger. */
function clientFor(
  running: Running,
  transport: keyof typeof TRANSPORTS,
  lines: LogLine[],
  timeoutMs = TIMEOUT_MS,
  maxRetries?: number,
): WalletClient {
  const record = (level: string) => (message: string, meta?: Record<string, unknown>) =>
    lines.push({ level, message, meta });
  return new WalletClient({
    apiKey: DEMO_KEY,
    baseUrl: running.server.baseUrl,
    timeoutMs,
    ...(maxRetries === undefined ? {} : { maxRetries }),
    logLevel: 'debug',
    logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
    ...TRANSPORTS[transport],
  });
}

let references = 0;

/** Makes the call of `route` with valid arguments and a fresh reference id. */
function call(client: WalletClient, route: WalletEndpoint, referenceId: string, transactionId: string) {
  switch (route) {
    case 'deposit':
      return client.deposit(
        { reference_id: referenceId, amount: 1.5, currency: 'KES' },
        { userToken: ALICE },
      );
    case 'withdraw':
      return client.withdraw({
        reference_id: referenceId,
        email: 'bob@example.com',
        amount: 1.5,
        currency: 'KES',
      });
    case 'status':
      return client.getTransaction(transactionId);
    case 'providers':
      return client.listProviders({ userToken: ALICE });
  }
}

/**
 * Defines the fault matrix for one endpoint: every row of {@link FAULT_CASES}, for both
 * transports, each against one sandbox served over real loopback HTTP.
 */
export function describeFaultMatrix(route: WalletEndpoint): void {
  const moves = route === 'deposit' || route === 'withdraw';
  let running: Running;
  let transactionId = '';
  let clean: Record<WalletEndpoint, unknown>;

  beforeAll(async () => {
    running = await runSandbox();
    const setup = clientFor(running, 'node', []);
    const made = await setup.withdraw({ email: 'alice@example.com', amount: 2, currency: 'KES' });
    transactionId = made.transaction_id;
    clean = {
      deposit: undefined,
      withdraw: undefined,
      status: await setup.getTransaction(transactionId),
      providers: await setup.listProviders({ userToken: ALICE }),
    };
  });
  afterAll(() => running.close());
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    running.sandbox.faults.clear();
  });

  for (const transport of Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[]) {
    describe(`${route} over the ${transport} transport`, () => {
      test.each(
        FAULT_CASES.map(
          (row) =>
            [
              `${row.name}, ${row.fires === 'once' ? 'on the first attempt' : 'on every attempt'}`,
              row,
            ] as const,
        ),
      )('%s', async (_name, row: FaultCase) => {
        const expected = moves ? row.post : (route === 'status' && row.status) || row.get;
        const lines: LogLine[] = [];
        const timeoutMs = row.timeoutMs ?? TIMEOUT_MS;
        const client = clientFor(running, transport, lines, timeoutMs, row.maxRetries);
        const referenceId = `fault-${route}-${transport}-${++references}`;
        if (row.warmUp) {
          await client.getTransaction(transactionId);
          lines.length = 0;
        }
        running.sandbox.faults.inject({
          ...row.fault(route),
          route,
          ...(row.fires === 'always' ? { every: 1 } : { times: 1 }),
        });

        const settled = await call(client, route, referenceId, transactionId).then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        if (row.settleMs !== undefined) await sleep(row.settleMs + 100);

        const attempts = lines.filter((line) => line.level === 'debug').length;
        expect(attempts).toBe(expected.attempts);
        const held = running.sandbox.transactions().filter((t) => t.reference_id === referenceId);
        if (settled.ok) {
          expectSuccess(expected, settled.value, { route, referenceId, clean: clean[route] });
          if (expected.kind === 'success' && expected.transactions !== undefined) {
            expect(held).toHaveLength(expected.transactions);
            if (held.length === 1) {
              expect((settled.value as { transaction_id: string }).transaction_id).toBe(
                held[0]?.transaction_id,
              );
            }
          }
          if (expected.kind === 'success' && expected.retryDelayMs) {
            const delay = lines.find((line) => line.level === 'warn')?.meta?.delayMs as number;
            expect(delay).toBeGreaterThanOrEqual(expected.retryDelayMs[0]);
            expect(delay).toBeLessThanOrEqual(expected.retryDelayMs[1]);
          }
        } else {
          expectFailure(expected, settled.error, { route, referenceId, timeoutMs });
          if (expected.kind === 'unknown') expect(held).toHaveLength(expected.transactions);
          else if (moves) expect(held).toHaveLength(0);
        }
      });
    });
  }
}

function expectSuccess(
  expected: Expected,
  value: unknown,
  context: { route: WalletEndpoint; referenceId: string; clean: unknown },
) {
  expect(expected.kind, `resolved with ${JSON.stringify(value)}`).toBe('success');
  if (expected.kind !== 'success') return;
  if (expected.canned) return void expect(value).toEqual(VALID_BODIES[context.route]);
  if (context.clean !== undefined) return void expect(value).toEqual(context.clean);
  expect(value).toMatchObject({
    reference_id: context.referenceId,
    amount: 1.5,
    currency: 'KES',
    transaction_status: 'completed',
  });
}

function expectFailure(
  expected: Expected,
  error: unknown,
  context: { route: WalletEndpoint; referenceId: string; timeoutMs: number },
) {
  const route = context.route;
  switch (expected.kind) {
    case 'success':
      throw error;
    case 'api':
      expect(error).toBeInstanceOf(WalletApiError);
      expect(error).toMatchObject({ status: expected.status, code: expected.code, endpoint: route });
      if (expected.bodyIncludes) expect((error as WalletApiError).body).toContain(expected.bodyIncludes);
      return;
    case 'response-validation':
      expectUnreadable(error, { ...expected, route });
      return;
    case 'connection':
      expect(error).toBeInstanceOf(WalletConnectionError);
      expect(error).not.toBeInstanceOf(WalletTimeoutError);
      expect(error).toMatchObject({ attempts: expected.attempts, endpoint: route });
      return;
    case 'timeout':
      expect(error).toBeInstanceOf(WalletTimeoutError);
      expect(error).toMatchObject({
        attempts: expected.attempts,
        endpoint: route,
        timeoutMs: context.timeoutMs,
      });
      return;
    case 'unknown':
      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      expect(error).toMatchObject({
        referenceId: context.referenceId,
        attempts: expected.attempts,
        endpoint: route,
      });
      if (expected.unreadable) {
        expectUnreadable((error as Error).cause, { status: 200, route, ...expected.unreadable });
      }
      return;
  }
}

function expectUnreadable(
  error: unknown,
  expected: { status: number; route: WalletEndpoint; issuePath: string; issueMessage?: string },
) {
  expect(error).toBeInstanceOf(WalletResponseValidationError);
  expect(error).toMatchObject({ status: expected.status, endpoint: expected.route });
  const path = expected.issuePath.replace('<dropped>', DROPPED_FIELD[expected.route]);
  const issues = (error as WalletResponseValidationError).issues;
  expect(issues.map((issue) => issue.path)).toContain(path);
  if (expected.issueMessage) expect(issues).toContainEqual({ path, message: expected.issueMessage });
}
