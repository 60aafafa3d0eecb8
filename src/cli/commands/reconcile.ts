import { parseCommandArgs, parseInteger } from '../args.js';
import type { Command } from './command.js';
import { readIds } from './read-ids.js';
import { reconcileLine } from './reconcile-line.js';
import { createCliClient } from './wallet-client.js';

const OPTIONS = { concurrency: { type: 'string' }, 'base-url': { type: 'string' } } as const;

const HELP = `Usage: merchant-wallet reconcile [file|-] [--concurrency N] [--base-url URL]

Reads transaction ids, one per line, from the file or from standard input
(no argument or -), and prints one JSON line per id as each status read
completes (completion order, not input order):

  {"transaction_id":"txn_1","status":{"transaction_status":"completed",...}}
  {"transaction_id":"txn_2","error":{"name":"WalletApiError","code":"transaction_not_found",...}}

Blank lines are skipped. Exits 0 when every status was read (failed
transactions included), 1 when any read failed or the input could not be read.

Options:
  --concurrency N   status reads at a time, 1 to 1000 (default: 8)
  --base-url URL    API base URL (default: $WALLET_BASE_URL)
  -h, --help        show this help

Environment:
  WALLET_API_KEY    merchant API key (required; never taken as a flag)
  WALLET_BASE_URL   API base URL, unless --base-url is given
`;

/** `merchant-wallet reconcile`: the status of many transactions, streamed as JSON lines. */
export const reconcileCommand: Command = {
  name: 'reconcile',
  summary: 'print the status of every transaction id read from a file or stdin',
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandArgs(args, {
      command: 'reconcile',
      options: OPTIONS,
      positionals: { min: 0, max: 1, name: 'file' },
    });
    if (parsed.help) {
      io.out(HELP);
      return 0;
    }
    const { concurrency: given } = parsed.values;
    const concurrency = given === undefined ? 8 : parseInteger('reconcile', 'concurrency', given, 1, 1000);
    const wallet = createCliClient(io, parsed.values['base-url']);
    const ids = readIds(parsed.positionals[0] ?? '-', io.stdin);
    let failed = 0;
    for await (const result of wallet.reconcile(ids, { concurrency })) {
      if (result.error) failed++;
      io.out(`${reconcileLine(result)}\n`);
    }
    return failed === 0 ? 0 : 1;
  },
};
