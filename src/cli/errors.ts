/**
 * The command line itself is wrong (unknown option, missing argument, bad number): exit
 * status 2 and a pointer to the help, as opposed to a failure of the work it asked for.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  /** @param command the command whose help to point at; the top-level help when absent. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/**
 * An expected failure that is not the SDK's: an unreadable file, a port in use. Printed as
 * `error: <message>` without a stack, exit status 1.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
}
