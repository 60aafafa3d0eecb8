import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TransactionResult } from '../../src/index.js';
import { finished } from '../helpers/child-process.js';
import { ALICE_TOKEN, DEMO_KEY, runCli, spawnCli, startTestSandbox, type TestSandbox } from './helpers.js';

let target: TestSandbox;
let dir: string;
const ids: string[] = [];
const statuses = new Map<string, TransactionResult>();

beforeAll(async () => {
  target = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'merchant-wallet-cli-'));
  for (const amount of [100, 200, 300]) {
    const deposit = await target.wallet.deposit(
      { reference_id: `order-${amount}`, amount, currency: 'KES' },
      { userToken: ALICE_TOKEN },
    );
    ids.push(deposit.transaction_id);
    statuses.set(deposit.transaction_id, await target.wallet.getTransaction(deposit.transaction_id));
  }
});
afterAll(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

function statusLine(id: string): string {
  return JSON.stringify({ transaction_id: id, status: statuses.get(id) });
}

describe.concurrent('merchant-wallet reconcile', () => {
  test('reads ids from stdin and prints one JSON line per id; with concurrency 1 in input order', async () => {
    const run = await runCli(['reconcile', '--concurrency', '1'], {
      env: target.env,
      stdin: `${ids[0]}\r\n\n  ${ids[1]}  \n${ids[2]}`,
    });
    expect(run).toEqual({
      code: 0,
      stdout: `${ids.map(statusLine).join('\n')}\n`,
      stderr: '',
    });
  });

  test('"-" reads stdin, a path reads that file; both print the same lines', async () => {
    const file = join(dir, 'ids.txt');
    await writeFile(file, `${ids.join('\n')}\n`);
    const [fromFile, fromDash] = await Promise.all([
      runCli(['reconcile', file], { env: target.env }),
      runCli(['reconcile', '-'], { env: target.env, stdin: ids.join('\n') }),
    ]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout.split('\n').sort()).toEqual(['', ...ids.map(statusLine)].sort());
    expect(fromDash.stdout.split('\n').sort()).toEqual(fromFile.stdout.split('\n').sort());
  });

  test('a read that fails is a JSON line with the error, the others still print, and the exit status is 1', async () => {
    const run = await runCli(['reconcile', '--concurrency', '1'], {
      env: target.env,
      stdin: `${ids[0]}\ntxn_999999\n${ids[1]}\n`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(statusLine(ids[0] ?? ''));
    expect(JSON.parse(lines[1] ?? '')).toEqual({
      transaction_id: 'txn_999999',
      error: expect.objectContaining({
        name: 'WalletApiError',
        code: 'transaction_not_found',
        status: 404,
        endpoint: 'status',
        message: 'transaction not found (transaction_not_found, HTTP 404 from status)',
      }),
    });
    expect(lines[2]).toBe(statusLine(ids[1] ?? ''));
    expect(lines).toHaveLength(3);
    expect(run.stdout).not.toContain(DEMO_KEY);
  });

  test('prints each result as it completes, before the input has ended', async () => {
    const child = spawnCli(['reconcile'], target.env);
    const done = finished(child);
    const firstLine = new Promise<string>((resolve) => {
      let seen = '';
      child.stdout.on('data', (chunk: Buffer | string) => {
        seen += String(chunk);
        if (seen.includes('\n')) resolve(seen);
      });
    });
    child.stdin.write(`${ids[0]}\n`);
    expect(await firstLine).toBe(`${statusLine(ids[0] ?? '')}\n`);
    child.stdin.end(`${ids[1]}\n`);
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${statusLine(ids[0] ?? '')}\n${statusLine(ids[1] ?? '')}\n`);
  });

  test('empty input prints nothing and exits 0', async () => {
    expect(await runCli(['reconcile'], { env: target.env, stdin: '\n\n' })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  test('a file that does not exist is one error line and exit 1', async () => {
    const missing = join(dir, 'missing.txt');
    expect(await runCli(['reconcile', missing], { env: target.env })).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read ${missing}: no such file\n`,
    });
  });

  test('a concurrency outside 1..1000 is a usage error', async () => {
    const [zero, word] = await Promise.all([
      runCli(['reconcile', '--concurrency', '0'], { env: target.env }),
      runCli(['reconcile', '--concurrency=many'], { env: target.env }),
    ]);
    const expected = {
      code: 2,
      stdout: '',
      stderr:
        'error: option --concurrency must be a whole number from 1 to 1000\nRun "merchant-wallet reconcile --help" for usage.\n',
    };
    expect(zero).toEqual(expected);
    expect(word).toEqual(expected);
  });

  test('without WALLET_API_KEY nothing is read and the exit status is 1', async () => {
    expect(
      await runCli(['reconcile'], { env: { WALLET_BASE_URL: target.server.baseUrl }, stdin: `${ids[0]}\n` }),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: WALLET_API_KEY: is not set: export the merchant API key\n',
    });
  });
});
