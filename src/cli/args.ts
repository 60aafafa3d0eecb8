import { parseArgs } from 'node:util';
import type { Command, CommandInput, OptionSpec, OptionSpecs } from './commands/command.js';
import { UsageError } from './errors.js';

/** The outcome of parsing a command line: a request for help, or the checked input of `run`. */
export type ParsedArgs = { readonly help: true } | ({ readonly help: false } & CommandInput<OptionSpecs>);

type RawValue = string | true | string[];

/**
 * Parses `args` (the words after the command's name) against the command's declared spec,
 * with `node:util` `parseArgs` in its lenient mode and the checks here, so every message is
 * ours and none repeats an option's value (which could be a secret pasted in the wrong place).
 * `--help` or `-h` anywhere wins and nothing else is checked then.
 *
 * @throws {UsageError} for an unknown option, a missing or unexpected value, an option given
 *   twice, a wrong count of positional arguments, missing required options (named together),
 *   or a value outside its type.
 */
export function parseCommandArgs(args: readonly string[], command: Command): ParsedArgs {
  const config: Record<string, { type: 'boolean' | 'string'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, option] of Object.entries(command.options)) {
    config[name] = { type: option.type === 'boolean' ? 'boolean' : 'string' };
  }
  const { tokens } = parseArgs({
    args: [...args],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) return { help: true };
  const fail = (message: string) => new UsageError(message, command.name);
  const raw: Record<string, RawValue> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(command.options, token.name) ? command.options[token.name] : undefined;
    if (option === undefined) throw fail(`unknown option ${token.rawName}`);
    if (option.type === 'boolean') {
      if (token.value !== undefined) throw fail(`option ${token.rawName} takes no value`);
      raw[token.name] = true;
    } else if (token.value === undefined) {
      throw fail(`option ${token.rawName} needs a value`);
    } else if (option.type === 'string' && option.multiple) {
      raw[token.name] = [...((raw[token.name] as string[] | undefined) ?? []), token.value];
    } else if (token.name in raw) {
      throw fail(`option ${token.rawName} was given twice`);
    } else {
      raw[token.name] = token.value;
    }
  }
  const { min, max, name } = command.positionals;
  if (positionals.length < min) throw fail(`missing ${name}`);
  if (positionals.length > max) {
    throw fail(
      max === 0 ? 'takes no arguments' : `takes at most ${max} ${name}, got ${positionals.length} arguments`,
    );
  }
  const missing = Object.entries(command.options)
    .filter(([option, spec]) => spec.type === 'string' && spec.required && raw[option] === undefined)
    .map(([option]) => `--${option}`);
  if (missing.length > 0) throw fail(`missing ${missing.join(', ')}`);
  const options: Record<string, unknown> = {};
  for (const [option, spec] of Object.entries(command.options)) {
    options[option] = checkValue(option, spec, raw[option], fail);
  }
  return { help: false, options: options as CommandInput<OptionSpecs>['options'], positionals };
}

/** The value `run` sees: the default when absent, a number or a choice when the type says so. */
function checkValue(
  option: string,
  spec: OptionSpec,
  value: RawValue | undefined,
  fail: (message: string) => UsageError,
): unknown {
  if (spec.type === 'boolean') return value === true;
  if (value === undefined) return spec.default;
  if (spec.type === 'integer') {
    const number = /^\d+$/.test(value as string) ? Number(value) : Number.NaN;
    if (!(number >= spec.min && number <= spec.max)) {
      throw fail(`option --${option} must be a whole number from ${spec.min} to ${spec.max}`);
    }
    return number;
  }
  if (spec.type === 'choice' && !spec.choices.includes(value as string)) {
    throw fail(`option --${option} must be one of ${spec.choices.join(', ')}`);
  }
  return value;
}
