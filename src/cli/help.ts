import type { Command, OptionSpec } from './commands/command.js';

/** Space between the longest option or variable name and its text, in every command's help. */
const GAP = 3;

/** The text of `merchant-wallet --help`. */
export function formatMainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return `Usage: merchant-wallet <command> [options]

Command line of the merchant-wallet SDK for the Merchant Wallet Payments API.

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Options:
  -h, --help      show this help, or a command's with "merchant-wallet <command> --help"
  -v, --version   print the version

status and reconcile read the API key from WALLET_API_KEY and the API address
from WALLET_BASE_URL (or --base-url). The key is never taken as a flag.
`;
}

/** `--port N`, `--json`: how the option is written on the command line. */
function optionLabel(name: string, spec: OptionSpec): string {
  return spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value}`;
}

/** The option as the usage line shows it: bracketed unless required, `...` when repeatable. */
function usageWord(name: string, spec: OptionSpec): string {
  const label = optionLabel(name, spec);
  if (spec.type === 'string' && spec.required) return label;
  return spec.type === 'string' && spec.multiple ? `[${label} ...]` : `[${label}]`;
}

/** The option's help text with its choices and default, as the spec declares them. */
function optionText(spec: OptionSpec): string {
  let text = spec.help;
  if (spec.type === 'choice') text += `: ${spec.choices.join(', ')}`;
  if (spec.type !== 'boolean' && spec.default !== undefined) text += ` (default: ${spec.default})`;
  return text;
}

/** The text of `merchant-wallet <command> --help`, generated from the command's spec. */
export function formatCommandHelp(command: Command): string {
  const options = Object.entries(command.options);
  const usage = [
    `merchant-wallet ${command.name}`,
    ...(command.positionals.usage === undefined ? [] : [command.positionals.usage]),
    ...options.map(([name, spec]) => usageWord(name, spec)),
  ].join(' ');
  const optionRows = [
    ...options.map(([name, spec]): [string, string] => [optionLabel(name, spec), optionText(spec)]),
    ['-h, --help', 'show this help'] as [string, string],
  ];
  const environmentRows = Object.entries(command.environment ?? {});
  const width = Math.max(...[...optionRows, ...environmentRows].map(([label]) => label.length)) + GAP;
  const rows = (list: readonly [string, string][]) =>
    list.map(
      ([label, text]) => `  ${label.padEnd(width)}${text.replaceAll('\n', `\n  ${' '.repeat(width)}`)}`,
    );
  const sections = [
    `Usage: ${usage}`,
    command.description.trimEnd(),
    ['Options:', ...rows(optionRows)].join('\n'),
    ...(environmentRows.length === 0 ? [] : [['Environment:', ...rows(environmentRows)].join('\n')]),
  ];
  return `${sections.join('\n\n')}\n`;
}
