import type { CliIo } from '../io.js';

/** What every option declares: the text of its line in the command's `--help`. */
interface OptionHelp {
  /** What the option does; a `\n` continues on the next line, aligned under the first. */
  readonly help: string;
}

/** A flag, `--json`: `true` when given, `false` otherwise. */
export interface FlagOption extends OptionHelp {
  readonly type: 'boolean';
}

/** A text value, `--base-url URL`; `undefined` when absent unless `default` or `required` says otherwise. */
export interface StringOption extends OptionHelp {
  readonly type: 'string';
  /** Placeholder for the value in the usage line and the help, such as `URL`. */
  readonly value: string;
  /** Refused when absent; every missing required option is named in one usage error. */
  readonly required?: boolean;
  /** May be repeated; the values in order, `undefined` when never given. */
  readonly multiple?: boolean;
  /** Value when absent, shown as `(default: …)` in the help. */
  readonly default?: string;
}

/** A whole number in `[min, max]`, `--port N`. */
export interface IntegerOption extends OptionHelp {
  readonly type: 'integer';
  /** Placeholder for the value, such as `N`. */
  readonly value: string;
  readonly min: number;
  readonly max: number;
  /** Value when absent, shown as `(default: …)` in the help. */
  readonly default?: number;
}

/** One of a fixed list of words, `--error-shape SHAPE`; the help lists them. */
export interface ChoiceOption<C extends string = string> extends OptionHelp {
  readonly type: 'choice';
  /** Placeholder for the value, such as `SHAPE`. */
  readonly value: string;
  readonly choices: readonly C[];
  /** Value when absent, shown as `(default: …)` in the help. */
  readonly default?: C;
}

/** Any option a command can declare. */
export type OptionSpec = FlagOption | StringOption | IntegerOption | ChoiceOption;

/** A command's options by name, without the leading `--`, in the order its help lists them. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The checked value an option parses to. */
export type OptionValue<S extends OptionSpec> = S extends FlagOption
  ? boolean
  : S extends IntegerOption
    ? S extends { default: number }
      ? number
      : number | undefined
    : S extends ChoiceOption<infer C>
      ? S extends { default: string }
        ? C
        : C | undefined
      : S extends { multiple: true }
        ? readonly string[] | undefined
        : S extends { required: true } | { default: string }
          ? string
          : string | undefined;

/** The checked values of every option of a command. */
export type OptionValues<O extends OptionSpecs> = { readonly [K in keyof O]: OptionValue<O[K]> };

/** How many positional arguments a command takes and how its help names them. */
export interface PositionalSpec {
  /** In messages: `missing transaction id`. */
  readonly name: string;
  /** In the usage line, such as `<transaction_id>` or `[file|-]`; nothing when the command takes none. */
  readonly usage?: string;
  readonly min: number;
  readonly max: number;
}

/** What a command's `run` receives: arguments already parsed and checked against its spec. */
export interface CommandInput<O extends OptionSpecs> {
  readonly options: OptionValues<O>;
  readonly positionals: readonly string[];
}

/**
 * One `merchant-wallet <name>` command, declared as data: `runCli` parses and checks the
 * arguments against `options` and `positionals`, answers `--help` from them, and reports usage
 * errors, so `run` only does the work.
 */
export interface CommandSpec<O extends OptionSpecs> {
  readonly name: string;
  /** One line for the command list of `merchant-wallet --help`. */
  readonly summary: string;
  /** The paragraphs of `merchant-wallet <name> --help` between the usage line and the options. */
  readonly description: string;
  readonly options: O;
  readonly positionals: PositionalSpec;
  /** Environment variables the command reads, with one line each for the help. */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * Does the command's work.
   * @returns the exit status
   * @throws {UsageError} for a combination of arguments the spec cannot express; anything
   *   else is reported by `runCli`.
   */
  run(input: CommandInput<O>, io: CliIo): Promise<number>;
}

/** A command of any spec, as the registry holds it. */
export type Command = CommandSpec<OptionSpecs>;

/**
 * Declares a command. The `const` type parameter keeps the spec's literal types, so `run`
 * sees `--port` as a `number` and `--error-shape` as the union of its choices.
 */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): Command {
  return spec as unknown as Command;
}
