import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { painter } from '../../src/cli/style.js';

function io(overrides: Partial<CliIo>): CliIo {
  return {
    env: {},
    stdin: new PassThrough(),
    out: () => undefined,
    err: () => undefined,
    waitForShutdown: () => new Promise(() => {}),
    ...overrides,
  };
}

const RED = '\x1b[31merror:\x1b[39m';

describe('painter', () => {
  test('colours a stream that is a terminal', () => {
    expect(painter(io({ stderrTerminal: { columns: 80 } }), 'stderr')('red', 'error:')).toBe(RED);
    expect(painter(io({ stdoutIsTerminal: true }), 'stdout')('green', 'ok')).toBe('\x1b[32mok\x1b[39m');
  });

  test('leaves text plain on a stream that is not a terminal, even when the other one is', () => {
    expect(painter(io({ stdoutIsTerminal: true }), 'stderr')('red', 'error:')).toBe('error:');
    expect(painter(io({ stderrTerminal: { columns: 80 } }), 'stdout')('red', 'error:')).toBe('error:');
  });

  test.each([
    ['NO_COLOR=1', { NO_COLOR: '1' }],
    ['TERM=dumb', { TERM: 'dumb' }],
  ])('leaves text plain on a terminal with %s', (_, env) => {
    expect(painter(io({ env, stderrTerminal: { columns: 80 } }), 'stderr')('red', 'error:')).toBe('error:');
  });

  test('an empty NO_COLOR does not turn colours off, as no-color.org says', () => {
    expect(
      painter(io({ env: { NO_COLOR: '' }, stderrTerminal: { columns: 80 } }), 'stderr')('red', 'error:'),
    ).toBe(RED);
  });
});
