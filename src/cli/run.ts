import { COMMANDS } from './commands/index.js';
import { UsageError } from './errors.js';
import { formatMainHelp } from './help.js';
import type { CliIo } from './io.js';
import { reportError } from './report-error.js';
import { CLI_VERSION } from './version.js';

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('missing command');
  if (first === '--help' || first === '-h') {
    io.out(formatMainHelp(COMMANDS));
    return 0;
  }
  if (first === '--version') {
    io.out(`${CLI_VERSION}\n`);
    return 0;
  }
  if (first === 'help') {
    const topic = rest[0];
    const command = COMMANDS.find((candidate) => candidate.name === topic);
    if (topic !== undefined && command === undefined) throw new UsageError(`unknown command "${topic}"`);
    io.out(command?.help ?? formatMainHelp(COMMANDS));
    return 0;
  }
  if (first.startsWith('-')) throw new UsageError(`unknown option ${first.split('=')[0]}`);
  const command = COMMANDS.find((candidate) => candidate.name === first);
  if (command === undefined) throw new UsageError(`unknown command "${first}"`);
  return command.run(rest, io);
}

/**
 * Runs `merchant-wallet` with `argv` (the arguments after the program name) and returns the
 * exit status. Never rejects: every failure is printed on `io.err`.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    return reportError(error, io);
  }
}
