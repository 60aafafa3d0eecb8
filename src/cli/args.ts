import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

/** One option of a command: a flag, a value, or a value that may be repeated. */
export interface OptionSpec {
  readonly type: 'boolean' | 'string';
  readonly multiple?: boolean;
}

/** The value an {@link OptionSpec} parses to. */
export type OptionValue<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['multiple'] extends true
    ? string[]
    : string;

/** What a command accepts besides `--help`. */
export interface ArgsSpec<O extends Record<string, OptionSpec>> {
  /** Name of the command, for messages and the help hint. */
  readonly command: string;
  readonly options: O;
  /** How many positional arguments are allowed. */
  readonly positionals: { readonly min: number; readonly max: number; readonly name: string };
}

/** Parsed arguments; `help` is set when `--help` or `-h` was given, and nothing else is checked then. */
export interface ParsedArgs<O extends Record<string, OptionSpec>> {
  readonly help: boolean;
  readonly values: { [K in keyof O]?: OptionValue<O[K]> };
  readonly positionals: string[];
}

/**
 * Parses with `node:util` `parseArgs` in its lenient mode and checks the tokens here, so every
 * message is ours and none repeats an option's value (which could be a secret pasted in the
 * wrong place).
 *
 * @throws {UsageError} for an unknown option, a missing or unexpected value, or a wrong count
 *   of positional arguments.
 */
export function parseCommandArgs<O extends Record<string, OptionSpec>>(
  args: readonly string[],
  spec: ArgsSpec<O>,
): ParsedArgs<O> {
  const config: Record<string, { type: 'boolean' | 'string'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, option] of Object.entries(spec.options)) config[name] = { type: option.type };
  const { tokens } = parseArgs({
    args: [...args],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) {
    return { help: true, values: {}, positionals: [] };
  }
  const values: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    if (option === undefined) throw new UsageError(`unknown option ${token.rawName}`, spec.command);
    if (option.type === 'boolean') {
      if (token.value !== undefined)
        throw new UsageError(`option ${token.rawName} takes no value`, spec.command);
      values[token.name] = true;
    } else if (token.value === undefined) {
      throw new UsageError(`option ${token.rawName} needs a value`, spec.command);
    } else if (option.multiple) {
      values[token.name] = [...((values[token.name] as string[] | undefined) ?? []), token.value];
    } else if (token.name in values) {
      throw new UsageError(`option ${token.rawName} was given twice`, spec.command);
    } else {
      values[token.name] = token.value;
    }
  }
  const { min, max, name } = spec.positionals;
  if (positionals.length < min) throw new UsageError(`missing ${name}`, spec.command);
  if (positionals.length > max) {
    throw new UsageError(
      max === 0 ? 'takes no arguments' : `takes at most ${max} ${name}, got ${positionals.length} arguments`,
      spec.command,
    );
  }
  return { help: false, values: values as ParsedArgs<O>['values'], positionals };
}

/**
 * Reads an option as a whole number in `[min, max]`.
 * @throws {UsageError} otherwise; the message repeats the bound, not the value.
 */
export function parseInteger(
  command: string,
  option: string,
  value: string,
  min: number,
  max: number,
): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new UsageError(`option --${option} must be a whole number from ${min} to ${max}`, command);
  }
  return number;
}
