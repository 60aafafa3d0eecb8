import { defineCommand } from './command.js';
import { countIds, countingIds, readIds } from './read-ids.js';
import { reconcileLine } from './reconcile-line.js';
import { progressDisplay } from './reconcile-progress.js';
import { API_ENVIRONMENT, API_OPTIONS, createCliClient, nameHost } from './wallet-client.js';

/** `merchant-wallet reconcile`: the status of many transactions, streamed as JSON lines. */
export const reconcileCommand = defineCommand({
  name: 'reconcile',
  summary: 'print the status of every transaction id read from a file or stdin',
  description: `Reads transaction ids, one per line, from the file or from standard input
(no argument or -), and prints one JSON line per id as each status read
completes (completion order, not input order):

  {"transaction_id":"txn_1","status":{"transaction_status":"completed",...}}
  {"transaction_id":"txn_2","error":{"name":"WalletApiError","code":"transaction_not_found",...}}

Blank lines are skipped. When standard error is a terminal, a progress line
there shows the count, rate, errors and (once the number of ids is known) the
time left, and a summary line ends the run; piped, stderr stays quiet. Exits 0
when every status was read (failed transactions included), 1 when any read
failed or the input could not be read.`,
  options: {
    concurrency: {
      type: 'integer',
      value: 'N',
      min: 1,
      max: 1000,
      default: 8,
      help: 'status reads at a time, 1 to 1000',
    },
    ...API_OPTIONS,
  },
  positionals: { name: 'file', usage: '[file|-]', min: 0, max: 1 },
  environment: API_ENVIRONMENT,
  async run({ options, positionals }, io) {
    const wallet = createCliClient(io, options['base-url'], options['allow-insecure-http']);
    const source = positionals[0] ?? '-';
    const progress = progressDisplay(io);
    // Counted ahead only for the display: a file can be read twice, standard input cannot.
    if (source !== '-' && io.stderrTerminal) countIds(source, io.stdin).then(progress.setTotal, ignore);
    const ids = countingIds(readIds(source, io.stdin), progress.setTotal);
    const describeError = (error: unknown) => {
      const named = nameHost(error, wallet);
      return named instanceof Error ? named.message : String(named);
    };
    let failed = 0;
    try {
      for await (const result of wallet.reconcile(ids, { concurrency: options.concurrency })) {
        if (result.error) failed++;
        io.out(`${reconcileLine(result)}\n`);
        progress.add(result, describeError);
      }
    } catch (error) {
      progress.clear();
      throw error;
    }
    progress.finish();
    return failed === 0 ? 0 : 1;
  },
});

function ignore(): void {}
