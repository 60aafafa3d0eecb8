import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALICE_TOKEN, ROOT, startTestSandbox, type TestSandbox } from '../cli/helpers.js';
import { type ChildRun, finished } from '../helpers/child-process.js';

/**
 * util-linux's `script` runs a command on a pseudo-terminal and copies what it writes there to
 * its own stdout: the CLI sees a terminal, the test sees the bytes a person would.
 */
function findScript(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('script is missing: install it with "apt-get install bsdutils" (.ci/run does this)');
  }
}

const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

let target: TestSandbox;
let dir: string;
let ids: string[];

beforeAll(async () => {
  findScript();
  target = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'merchant-wallet-tty-'));
  ids = [];
  for (const amount of [100, 200, 300]) {
    const deposit = await target.wallet.deposit(
      { reference_id: `order-${amount}`, amount, currency: 'KES' },
      { userToken: ALICE_TOKEN },
    );
    ids.push(deposit.transaction_id);
  }
});
afterAll(async () => {
  await target?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * Runs `merchant-wallet <args>` with stderr on a pseudo-terminal and stdout sent to `stdoutFile`
 * (a pipe, as in `reconcile ids.txt > statuses.jsonl`), or stdout on the terminal too when absent.
 */
function runOnTerminal(args: string[], env: Record<string, string>, stdoutFile?: string): Promise<ChildRun> {
  const command = [process.execPath, '--import', 'tsx', 'src/cli/main.ts', ...args].map(shellQuote).join(' ');
  const redirect = stdoutFile === undefined ? '' : ` > ${shellQuote(stdoutFile)}`;
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(WALLET_|NO_COLOR$)/.test(name)),
  );
  const child = spawn(findScript(), ['-qefc', `${command}${redirect}`, '/dev/null'], {
    cwd: ROOT,
    env: { ...base, TERM: 'xterm', ...env },
  });
  child.stdin.end();
  return finished(child);
}

describe('the CLI on a terminal', () => {
  test('reconcile draws progress with count, rate, errors and ETA on stderr, then a summary, while stdout stays plain JSON lines', async () => {
    const fault = target.sandbox.faults.inject({ route: 'status', kind: 'latency', ms: 120, every: 1 });
    const input = join(dir, 'ids.txt');
    const output = join(dir, 'statuses.jsonl');
    await writeFile(input, `${[...ids, 'txn_999999'].join('\n')}\n`);
    try {
      const run = await runOnTerminal(['reconcile', '--concurrency', '1', input], target.env, output);

      expect(run.code).toBe(1);
      const redraws = run.stdout.split('\r\x1b[2K').slice(1);
      // Each draw is the whole line again, in place; the last one is the summary.
      expect(redraws.length).toBeGreaterThanOrEqual(3);
      expect(redraws[1]).toMatch(/^reconcile {2}\d of 4 \(\d+%\) {2}\d+\.\d\/s {2}0 errors {2}ETA \d+ s$/);
      const summary = redraws.at(-1) ?? '';
      expect(summary).toMatch(/^reconciled 4 ids in \d+\.\d s \(\d+\.\d\/s\): 3 read, /);
      expect(summary.slice(summary.indexOf('read, ') + 6)).toBe(
        '\x1b[31m1 error\x1b[39m (first: transaction not found (transaction_not_found, HTTP 404 from status))\r\n',
      );
      const lines = (await readFile(output, 'utf8')).trimEnd().split('\n');
      expect(lines).toHaveLength(4);
      expect(lines.map((line) => JSON.parse(line).transaction_id).sort()).toEqual(
        [...ids, 'txn_999999'].sort(),
      );
      expect(lines.join('\n')).not.toContain('\x1b');
    } finally {
      fault.remove();
    }
  });

  test('with NO_COLOR the same progress and summary come without colour codes', async () => {
    const input = join(dir, 'one.txt');
    await writeFile(input, 'txn_999999\n');
    const run = await runOnTerminal(
      ['reconcile', input],
      { ...target.env, NO_COLOR: '1' },
      join(dir, 'no-color.jsonl'),
    );

    expect(run.code).toBe(1);
    expect(run.stdout).toContain('reconciled 1 id in ');
    expect(run.stdout).toContain(': 0 read, 1 error (first: transaction not found');
    expect(run.stdout.replaceAll('\r\x1b[2K', '')).not.toContain('\x1b');
  });

  test('status colours the status word and error: on a terminal', async () => {
    const [found, missing] = await Promise.all([
      runOnTerminal(['status', ids[0] ?? ''], target.env),
      runOnTerminal(['status', 'txn_999999'], target.env),
    ]);

    expect(found.code).toBe(0);
    expect(found.stdout).toBe(`${ids[0]}  \x1b[32mcompleted\x1b[39m  KES 100.00  reference order-100\r\n`);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe(
      '\x1b[31merror:\x1b[39m transaction not found (transaction_not_found, HTTP 404 from status)\r\n',
    );
  });
});
