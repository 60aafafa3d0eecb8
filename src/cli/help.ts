import type { Command } from './commands/command.js';

/** The text of `merchant-wallet --help`. */
export function formatMainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return `Usage: merchant-wallet <command> [options]

Command line of the merchant-wallet SDK for the Merchant Wallet Payments API.

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Options:
  -h, --help   show this help, or a command's with "merchant-wallet <command> --help"
  --version    print the version

status and reconcile read the API key from WALLET_API_KEY and the API address
from WALLET_BASE_URL (or --base-url). The key is never taken as a flag.
`;
}
