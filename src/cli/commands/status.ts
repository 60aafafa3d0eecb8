import { painter } from '../style.js';
import { defineCommand } from './command.js';
import { formatStatus } from './format-status.js';
import { API_ENVIRONMENT, API_OPTIONS, createCliClient, nameHost } from './wallet-client.js';

/** `merchant-wallet status <transaction_id>`: one status read. */
export const statusCommand = defineCommand({
  name: 'status',
  summary: 'print the status of one transaction',
  description: `Reads the transaction's current status from the API and prints one line, or
with --json the API's result as JSON. Exits 0 when the status was read
(a failed transaction included), 1 when it could not be.`,
  options: {
    json: { type: 'boolean', help: 'print the status result as JSON' },
    ...API_OPTIONS,
  },
  positionals: { name: 'transaction id', usage: '<transaction_id>', min: 1, max: 1 },
  environment: API_ENVIRONMENT,
  async run({ options, positionals }, io) {
    const wallet = createCliClient(io, options['base-url'], options['allow-insecure-http']);
    const result = await wallet.getTransaction(positionals[0] ?? '').catch((error: unknown) => {
      throw nameHost(error, wallet);
    });
    io.out(
      options.json
        ? `${JSON.stringify(result, null, 2)}\n`
        : `${formatStatus(result, painter(io, 'stdout'))}\n`,
    );
    return 0;
  },
});
