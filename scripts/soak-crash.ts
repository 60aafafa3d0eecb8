/**
 * `npm run soak:crash`: a merchant process with a PostgreSQL journal makes deposits and withdrawals
 * against the sandbox over HTTP, with faults, and is killed with SIGKILL at random moments; each
 * restart runs recover(). At the end the sandbox's own ledger and the journal must agree: no
 * reference applied twice, every intent definite, money conserved. Prints the figures; exits 0 only
 * when every check holds. Options: --kills (50), --intents (2000), --seed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { acceptedState } from '../src/journal/merge.js';
import { createPostgresJournal, migratePostgres } from '../src/stores/postgres/index.js';
import { createSandbox, startSandboxServer } from '../src/testing/index.js';
import { startPostgres } from '../test/system/stores/servers.js';
import { seededRandom } from './soak/prng.js';
import { checkCrashSoak, type JournalRow } from './soak-crash/checks.js';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '50' },
    intents: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
  },
});
const targetKills = Number(values.kills);
const targetIntents = Number(values.intents);
const random = seededRandom(Number(values.seed));
const merchantScript = fileURLToPath(new URL('./soak-crash/merchant.ts', import.meta.url));
const started = Date.now();

const database = await startPostgres();
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
await migratePostgres(pool);
const journal = createPostgresJournal({ db: pool });

// Deposit results arrive here; they fill in the transaction id of deposits applied before.
let webhooksApplied = 0;
const receiver = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk) => {
    text += chunk;
  });
  request.on('end', async () => {
    try {
      const event = JSON.parse(text) as {
        reference_id?: string;
        transaction_id?: string;
        transaction_status?: string;
      };
      if (event.reference_id && event.transaction_id) {
        const updated = await journal.update(event.reference_id, {
          state: acceptedState(event.transaction_status),
          transactionId: event.transaction_id,
          transactionStatus: event.transaction_status,
        });
        if (updated) webhooksApplied += 1;
      }
      response.writeHead(200).end();
    } catch {
      response.writeHead(500).end();
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as { port: number }).port;

// The quick retries of earlier versions (three attempts, 50 and 100 ms apart), kept explicitly: this
// soak judges the journal's crash recovery, not the service's retry schedule.
const sandbox = createSandbox(undefined, { webhooks: { backoffMs: 50 } });
sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: `http://127.0.0.1:${receiverPort}/webhooks` });
const server = await startSandboxServer({ sandbox, port: 0 });
const moneyBefore = sandbox.totalMoney();
sandbox.faults.inject({ kind: 'drop-after', every: 9 });
sandbox.faults.inject({ kind: 'drop-before', every: 13 });
sandbox.faults.inject({ kind: 'reset-mid-body', route: 'withdraw', every: 17 });
sandbox.faults.inject({ kind: 'error', code: 'internal_server_error', every: 23 });
sandbox.faults.inject({ kind: 'latency', ms: 20, every: 5 });

function startMerchant(run: number, final: boolean): { child: ChildProcess; ready: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', merchantScript], {
    env: {
      ...process.env,
      WALLET_BASE_URL: server.baseUrl,
      DATABASE_URL: database.url,
      RUN: String(run),
      FINAL: final ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (output.includes('ready\n')) resolve(output);
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`merchant exited ${code}: ${output}`)),
    );
  });
  return { child, ready };
}

const countIntents = async () =>
  Number((await pool.query('SELECT count(*) AS n FROM merchant_wallet_payment_intents')).rows[0].n);

let current: ChildProcess | undefined;
// A crash of this driver must not leave a merchant or the database running.
process.on('exit', () => {
  current?.kill('SIGKILL');
});
process.on('uncaughtException', async (error) => {
  console.error(error);
  current?.kill('SIGKILL');
  await database.stop();
  process.exit(1);
});

let kills = 0;
let run = 0;
while (kills < targetKills || (await countIntents()) < targetIntents) {
  run += 1;
  const { child, ready } = startMerchant(run, false);
  current = child;
  await ready;
  // Most kills land mid-flight; a few land during recovery of the next start.
  await new Promise((resolve) => setTimeout(resolve, 50 + random.next() * 450));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  kills += 1;
}

sandbox.faults.clear();
// The last kill left its calls' intents under their sending leases (30 s, on the database's clock),
// which recover() leaves alone as it would a live call's; the last start comes once they ended.
for (let waited = 0; waited < 40; waited++) {
  const leased = await pool.query(
    `SELECT count(*) AS n FROM merchant_wallet_payment_intents
     WHERE state IN ('sending', 'unknown') AND lease_until > clock_timestamp()`,
  );
  if (Number(leased.rows[0].n) === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
let finalRuns = 0;
for (; finalRuns < 5; finalRuns++) {
  const { child, ready } = startMerchant(++run, true);
  current = child;
  await ready;
  await new Promise((resolve) =>
    child.exitCode === null ? child.once('exit', resolve) : resolve(undefined),
  );
  const open = await pool.query(
    `SELECT count(*) AS n FROM merchant_wallet_payment_intents WHERE state IN ('sending', 'unknown')`,
  );
  if (Number(open.rows[0].n) === 0) break;
}
await sandbox.webhooks.idle();

const rows = (
  await pool.query(
    'SELECT reference_id, endpoint, state, transaction_id FROM merchant_wallet_payment_intents',
  )
).rows as JournalRow[];
const result = checkCrashSoak({
  rows,
  ledger: sandbox.transactions(),
  moneyBefore,
  moneyAfter: sandbox.totalMoney(),
});
const figures = {
  kills,
  intents: rows.length,
  ...result.figures,
  depositIdsFromWebhooks: webhooksApplied,
  finalRecoveryRuns: finalRuns + 1,
  seconds: Math.round((Date.now() - started) / 1000),
};
for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(28)} ${value}`);
for (const violation of result.violations) console.log(`VIOLATION ${violation}`);
const enough = kills >= targetKills && rows.length >= targetIntents;
if (!enough) console.log(`VIOLATION fewer than ${targetKills} kills or ${targetIntents} intents`);

sandbox.close();
await server.close();
receiver.close();
await pool.end();
await database.stop();
process.exit(result.violations.length === 0 && enough ? 0 : 1);
