import { parseCommandArgs } from '../args.js';
import type { Command } from './command.js';
import { formatStatus } from './format-status.js';
import { createCliClient } from './wallet-client.js';

const OPTIONS = { json: { type: 'boolean' }, 'base-url': { type: 'string' } } as const;

const HELP = `Usage: merchant-wallet status <transaction_id> [--json] [--base-url URL]

Reads the transaction's current status from the API and prints one line, or
with --json the API's result as JSON. Exits 0 when the status was read
(a failed transaction included), 1 when it could not be.

Options:
  --json            print the status result as JSON
  --base-url URL    API base URL (default: $WALLET_BASE_URL)
  -h, --help        show this help

Environment:
  WALLET_API_KEY    merchant API key (required; never taken as a flag)
  WALLET_BASE_URL   API base URL, unless --base-url is given
`;

/** `merchant-wallet status <transaction_id>`: one status read. */
export const statusCommand: Command = {
  name: 'status',
  summary: 'print the status of one transaction',
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandArgs(args, {
      command: 'status',
      options: OPTIONS,
      positionals: { min: 1, max: 1, name: 'transaction id' },
    });
    if (parsed.help) {
      io.out(HELP);
      return 0;
    }
    const wallet = createCliClient(io, parsed.values['base-url']);
    const result = await wallet.getTransaction(parsed.positionals[0] ?? '');
    io.out(parsed.values.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatStatus(result)}\n`);
    return 0;
  },
};
