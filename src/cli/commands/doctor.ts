import { readFile } from 'node:fs/promises';
import { DOCTOR_ENVIRONMENT, readDoctorConfig } from '../doctor/config.js';
import { formatReport } from '../doctor/format.js';
import { runDoctor } from '../doctor/run-doctor.js';
import { CliError } from '../errors.js';
import { painter } from '../style.js';
import { defineCommand } from './command.js';

/** `merchant-wallet doctor`: checks a deployment's settings against the service and its stores. */
export const doctorCommand = defineCommand({
  name: 'doctor',
  summary: "check a deployment's settings: key, URLs, webhook route, keyring, stores",
  description: `Checks the settings a merchant deployment runs with, each on one line with a fix
when it fails: the API base URL (https, reachable), the key against the URL's
environment, the key itself (a status read of a transaction that does not
exist), the clock against the service's, the webhook URL (one POST of an empty
body must get 400), the login redirect host, the token keyring, the store's
schema, the sweeper, and one merchant identity (key and base URL) per API key
in the journal. The API and the store are only read; the webhook URL
gets that one POST. Settings come from --config FILE (JSON) and the
environment, which wins. No secret is printed.
Exits 0 when no check failed, 1 otherwise.`,
  options: {
    config: {
      type: 'string',
      value: 'FILE',
      help: 'a JSON file of settings (apiKey, baseUrl, webhookUrl, …)',
    },
    json: { type: 'boolean', help: 'print the report as JSON' },
  },
  positionals: { name: 'arguments', min: 0, max: 0 },
  environment: DOCTOR_ENVIRONMENT,
  async run({ options }, io) {
    let text: string | undefined;
    if (options.config !== undefined) {
      text = await readFile(options.config, 'utf8').catch((error: unknown) => {
        throw new CliError(`cannot read the config file (${(error as { code?: string }).code ?? 'error'})`);
      });
    }
    const report = await runDoctor(readDoctorConfig(io.env, text));
    io.out(
      options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, painter(io, 'stdout')),
    );
    return report.ok ? 0 : 1;
  },
});
