import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ROOT, runCli } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { version: string }).version;

describe.concurrent('merchant-wallet', () => {
  test.each(['--version', '-v'])('%s prints the package version and nothing else', async (flag) => {
    expect(await runCli([flag])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  test('--help lists every command on stdout and exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: merchant-wallet <command> \[options\]\n/);
    const commands = run.stdout.split('Commands:\n')[1]?.split('\n\n')[0] ?? '';
    const listed = [...commands.matchAll(/^ {2}([a-z-]+) {2,}\S/gm)].map((match) => match[1]);
    expect(listed).toEqual(['sandbox', 'demo', 'status', 'reconcile', 'login-url', 'doctor', 'certify']);
  });

  test.each(['sandbox', 'demo', 'status', 'reconcile', 'login-url', 'doctor'])(
    '%s --help prints its usage on stdout and exits 0 without doing anything',
    async (command) => {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout.startsWith(`Usage: merchant-wallet ${command}`)).toBe(true);
    },
  );

  test('help <command> prints the same text as <command> --help', async () => {
    const [viaHelp, viaFlag] = await Promise.all([
      runCli(['help', 'reconcile']),
      runCli(['reconcile', '-h']),
    ]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  test('no command is a usage error: exit 2 with a pointer to --help', async () => {
    expect(await runCli([])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: missing command\nRun "merchant-wallet --help" for usage.\n',
    });
  });

  test('an unknown command is a usage error', async () => {
    expect(await runCli(['refund', 'txn_1'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown command "refund"\nRun "merchant-wallet --help" for usage.\n',
    });
  });

  test('an unknown option of a command is a usage error pointing at that command, and its value is not repeated', async () => {
    expect(await runCli(['login-url', '--secret=hunter2'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown option --secret\nRun "merchant-wallet login-url --help" for usage.\n',
    });
  });
});
