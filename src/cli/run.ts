// The version is inlined by the bundler, so the bin reads no file outside dist to know it.
import { version } from '../../package.json';
import { parseCommandArgs } from './args.js';
import { COMMANDS } from './commands/index.js';
import { reportError, UsageError } from './errors.js';
import { formatCommandHelp, formatMainHelp } from './help.js';
import type { CliIo } from './io.js';

function findCommand(name: string): (typeof COMMANDS)[number] {
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) throw new UsageError(`unknown command "${name}"`);
  return command;
}

/** The command `words` start with, two-word ones (`sandbox settle`) first, and the words after it. */
function splitCommand(words: readonly string[]): [(typeof COMMANDS)[number], readonly string[]] {
  const [first = '', second, ...rest] = words;
  const pair = COMMANDS.find((candidate) => candidate.name === `${first} ${second}`);
  if (pair !== undefined) return [pair, rest];
  const actions = COMMANDS.filter((candidate) => candidate.name.startsWith(`${first} `));
  if (second !== undefined && !second.startsWith('-') && actions.length > 0) {
    const names = actions.map((candidate) => candidate.name.slice(first.length + 1)).join(', ');
    throw new UsageError(`unknown ${first} action "${second}": one of ${names}`, first);
  }
  return [findCommand(first), words.slice(1)];
}

/**
 * The one place that reads the command line: top-level options, `help <command>`, then the
 * command's own arguments checked against its declared spec, so `--help` and usage errors
 * work the same way for every command.
 */
async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('missing command');
  if (first === '--help' || first === '-h') {
    io.out(formatMainHelp(COMMANDS));
    return 0;
  }
  if (first === '--version' || first === '-v') {
    io.out(`${version}\n`);
    return 0;
  }
  if (first === 'help') {
    io.out(rest.length === 0 ? formatMainHelp(COMMANDS) : formatCommandHelp(splitCommand(rest)[0]));
    return 0;
  }
  if (first.startsWith('-')) throw new UsageError(`unknown option ${first.split('=')[0]}`);
  const [command, args] = splitCommand(argv);
  const parsed = parseCommandArgs(args, command);
  if (parsed.help) {
    io.out(formatCommandHelp(command));
    return 0;
  }
  return command.run(parsed, io);
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
