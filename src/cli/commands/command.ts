import type { CliIo } from '../io.js';

/** One `merchant-wallet <name>` command. */
export interface Command {
  readonly name: string;
  /** One line for the command list of `merchant-wallet --help`. */
  readonly summary: string;
  /** The full text of `merchant-wallet <name> --help`. */
  readonly help: string;
  /**
   * Runs the command with the arguments after its name.
   * @returns the exit status
   * @throws {UsageError} for a wrong command line; anything else is reported by `runCli`.
   */
  run(args: readonly string[], io: CliIo): Promise<number>;
}
