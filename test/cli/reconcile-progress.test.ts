import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { progressDisplay } from '../../src/cli/commands/reconcile-progress.js';
import type { CliIo } from '../../src/cli/io.js';
import { type ReconcileResult, WalletApiError } from '../../src/index.js';

const CLEAR = '\r\x1b[2K';

function terminal(options: { columns?: number; env?: Record<string, string> } = {}) {
  const written: string[] = [];
  let clock = 0;
  const io: CliIo = {
    env: options.env ?? { NO_COLOR: '1' },
    stdin: new PassThrough(),
    out: () => undefined,
    err: (text) => void written.push(text),
    waitForShutdown: () => new Promise(() => {}),
    stderrTerminal: { columns: options.columns ?? 120 },
  };
  return {
    io,
    written,
    at: (ms: number) => {
      clock = ms;
    },
    display: () => progressDisplay(io, () => clock),
  };
}

const ok = (id: string): ReconcileResult => ({
  transactionId: id,
  status: {
    transaction_id: id,
    reference_id: 'r',
    transaction_status: 'completed',
    amount: '1.00',
    currency: 'KES',
  },
});
const notFound = (id: string): ReconcileResult => ({
  transactionId: id,
  error: new WalletApiError({
    code: 'transaction_not_found',
    message: 'transaction not found',
    status: 404,
    endpoint: 'status',
    body: {},
  }),
});
const describeError = (error: unknown) => (error as Error).message;

describe('the reconcile progress display', () => {
  test('writes nothing at all when stderr is not a terminal', () => {
    const written: string[] = [];
    const display = progressDisplay({
      env: {},
      stdin: new PassThrough(),
      out: () => undefined,
      err: (text) => void written.push(text),
      waitForShutdown: () => new Promise(() => {}),
    });
    display.setTotal(2);
    display.add(ok('a'), describeError);
    display.add(notFound('b'), describeError);
    display.finish();
    expect(written).toEqual([]);
  });

  test('redraws one line in place with count, rate and errors, and adds the ETA once the total is known', () => {
    const t = terminal();
    const display = t.display();
    t.at(1_000);
    display.add(ok('a'), describeError);
    t.at(2_000);
    display.add(notFound('b'), describeError);
    display.setTotal(10);
    t.at(4_000);
    display.add(ok('c'), describeError);

    expect(t.written).toEqual([
      `${CLEAR}reconcile  1 read  1.0/s  0 errors`,
      `${CLEAR}reconcile  2 read  1.0/s  1 error`,
      // 3 done in 4 s: 0.75/s, so the 7 left take 9.33 s.
      `${CLEAR}reconcile  3 of 10 (30%)  0.8/s  1 error  ETA 10 s`,
    ]);
  });

  test('redraws at most every 100 ms however fast results come', () => {
    const t = terminal();
    const display = t.display();
    for (let i = 0; i < 50; i++) {
      t.at(i * 10);
      display.add(ok(`t${i}`), describeError);
    }
    expect(t.written).toHaveLength(5);
  });

  test('ends with the line cleared and a summary naming the first error', () => {
    const t = terminal();
    const display = t.display();
    display.add(ok('a'), describeError);
    display.add(notFound('b'), describeError);
    t.at(2_500);
    display.finish();

    expect(t.written.slice(-2)).toEqual([
      CLEAR,
      'reconciled 2 ids in 2.5 s (0.8/s): 1 read, 1 error (first: transaction not found (transaction_not_found, HTTP 404 from status))\n',
    ]);
  });

  test('a long run shows thousands grouped and the ETA in minutes', () => {
    const t = terminal();
    const display = t.display();
    display.setTotal(100_000);
    for (let i = 1; i <= 12_000; i++) {
      t.at(i);
      display.add(ok(`t${i}`), describeError);
    }
    // 12,000 in 12 s = 1,000/s; 88,000 left = 88 s.
    expect(t.written.at(-1)).toBe(`${CLEAR}reconcile  11,901 of 100,000 (11%)  1,000/s  0 errors  ETA 1:29`);
  });

  test('the line is cut to the terminal width so it never wraps, and errors are red unless NO_COLOR', () => {
    const t = terminal({ columns: 30, env: {} });
    const display = t.display();
    display.add(notFound('b'), describeError);

    const line = t.written[0] ?? '';
    expect(line).toContain('\x1b[31m');
    expect(line).toContain('\x1b[39m');
    expect(line.replace(CLEAR, '').replaceAll('\x1b[31m', '').replaceAll('\x1b[39m', '')).toBe(
      'reconcile  1 read  0.0/s  1 e',
    );
  });
});
