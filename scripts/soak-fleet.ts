/**
 * `npm run soak:fleet`: four merchant instances share one PostgreSQL journal and pay against the
 * sandbox; deposit results reach a random instance (20 % dropped, some twice, some late); an
 * instance is SIGKILLed about every 2 s and restarted. Then instances that only sweep drain what
 * is left. Every payment must end settled (its onSettled completed) or refused or reported stuck
 * with a reason, with nothing charged twice and the journal equal to the ledger. Instance 0 runs with
 * its clock five minutes ahead (a preload shifting Date), and halfway through the kills the database
 * is crash-restarted (`-m immediate`): no instance may exit on its own. Options:
 * --payments (5000), --kills (20), --instances (4), --store postgres|redis (the journal's), --seed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { listIntents, type PaymentIntent, WalletClient } from '../src/index.js';
import { migratePostgres } from '../src/stores/postgres/index.js';
import { createSandbox, startSandboxServer } from '../src/testing/index.js';
import { startRestartablePostgres } from '../test/system/stores/restartable-postgres.js';
import { startRedis } from '../test/system/stores/servers.js';
import { seededRandom } from './soak/prng.js';
import { checkFleet, type FleetRow } from './soak-fleet/checks.js';
import { startRouter } from './soak-fleet/router.js';
import { fleetStores } from './soak-fleet/stores.js';

const { values } = parseArgs({
  options: {
    payments: { type: 'string', default: '5000' },
    kills: { type: 'string', default: '20' },
    instances: { type: 'string', default: '4' },
    store: { type: 'string', default: 'postgres' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
  },
});
const targetPayments = Number(values.payments);
const targetKills = Number(values.kills);
const fleetSize = Number(values.instances);
const random = seededRandom(Number(values.seed));
const instanceScript = fileURLToPath(new URL('./soak-fleet/instance.ts', import.meta.url));
const skewPreload = fileURLToPath(new URL('./soak-fleet/skew-clock.ts', import.meta.url));
/** Instance 0's clock runs this far ahead of the others' and the database's. */
const SKEW_MS = 5 * 60_000;
const started = Date.now();

const database = await startRestartablePostgres({ durable: true });
// The journal and dedupe store: PostgreSQL, or Redis (appendfsync everysec); fulfilments stay in PostgreSQL.
const redis = values.store === 'redis' ? await startRedis({ durable: true }) : undefined;
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
await migratePostgres(pool);
await pool.query(
  `CREATE TABLE soak_fulfilments (reference_id text PRIMARY KEY, status text NOT NULL, runs integer NOT NULL)`,
);

interface Running {
  child: ChildProcess;
  port: number;
}
const live = new Map<number, Running>();
const router = await startRouter(random, () => [...live.values()].map((one) => one.port));
// The quick retries of earlier versions (three attempts, 50 and 100 ms apart), kept explicitly: the
// fleet soak judges settlement across instances within its run, not the service's hours-long schedule.
const sandbox = createSandbox(undefined, { autoSettleMs: 1_500, webhooks: { backoffMs: 50 } });
for (const email of ['alice@example.com', 'bob@example.com']) {
  sandbox.setBalance({ email, currency: 'KES', amount: email.startsWith('alice') ? 1_000_000 : 100 });
}
sandbox.setBalance({ email: 'bob@example.com', provider: 'mpesa', currency: 'KES', amount: 1_000_000 });
sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: router.url });
const server = await startSandboxServer({ sandbox, port: 0 });
const moneyBefore = sandbox.totalMoney();
sandbox.faults.inject({ kind: 'drop-after', every: 11 });
sandbox.faults.inject({ kind: 'latency', ms: 20, every: 5 });

let runs = 0;
/** Instances that exited by themselves (not killed by the soak): each one a violation. */
const selfExits: string[] = [];
function start(slot: number, pay: boolean): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', skewPreload, instanceScript], {
    env: {
      ...process.env,
      CLOCK_SKEW_MS: slot === 0 ? String(SKEW_MS) : '0',
      WALLET_BASE_URL: server.baseUrl,
      DATABASE_URL: database.url,
      REDIS_URL: redis?.url ?? '',
      INSTANCE: String(slot),
      RUN: String(++runs),
      PAY: pay ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const ready = /ready (\d+)/.exec(output);
      if (ready && !live.has(slot)) {
        live.set(slot, { child, port: Number(ready[1]) });
        resolve();
      }
    });
    child.once('exit', (code, signal) => {
      if (live.get(slot)?.child === child) live.delete(slot);
      if (signal === null) {
        selfExits.push(`instance ${slot} exited ${code}: ${output.slice(-500)}`);
        reject(new Error(`instance ${slot} exited ${code}: ${output}`));
      }
    });
  });
}

async function kill(slot: number): Promise<void> {
  const running = live.get(slot);
  if (running === undefined) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  live.delete(slot);
  running.child.kill('SIGKILL');
  await exited;
}

process.on('exit', () => {
  for (const running of live.values()) running.child.kill('SIGKILL');
});

const stores = await fleetStores(pool, redis?.url);
const everyIntent = async () => {
  const all: PaymentIntent[] = [];
  for await (const intent of listIntents(stores.journal, { limit: 1000 })) all.push(intent);
  return all;
};
const countPayments = async () => (await everyIntent()).length;

await Promise.all(Array.from({ length: fleetSize }, (_, slot) => start(slot, true)));
let kills = 0;
let restarts = 0;
while (kills < targetKills || (await countPayments()) < targetPayments) {
  await new Promise((resolve) => setTimeout(resolve, 1_500 + random.next() * 1_000));
  if (restarts === 0 && kills >= Math.floor(targetKills / 2)) {
    // Every instance loses every connection at once, mid-payment; none may die of it.
    await database.restart();
    restarts += 1;
  }
  const slot = random.int(0, fleetSize - 1);
  await kill(slot);
  kills += 1;
  await start(slot, true);
}

// The drain: no new payments; instances that only sweep finish what is left.
for (let slot = 0; slot < fleetSize; slot++) await kill(slot);
sandbox.faults.clear();
await Promise.all(Array.from({ length: fleetSize }, (_, slot) => start(slot, false)));
const drainDeadline = Date.now() + 90_000;
const isUnfinished = (intent: PaymentIntent) =>
  intent.state === 'sending' ||
  intent.state === 'unknown' ||
  (intent.state === 'accepted' && intent.transactionId !== undefined) ||
  ((intent.state === 'completed' || intent.state === 'failed') && intent.settledAt === undefined);
const unfinished = async () => (await everyIntent()).filter(isUnfinished).length;
while ((await unfinished()) > 0 && Date.now() < drainDeadline) {
  await new Promise((resolve) => setTimeout(resolve, 500));
}
for (let slot = 0; slot < fleetSize; slot++) await kill(slot);
await sandbox.webhooks.idle();

const intents = await everyIntent();
const rows: FleetRow[] = intents.map((intent) => ({
  reference_id: intent.referenceId,
  state: intent.state,
  transaction_id: intent.transactionId ?? null,
  transaction_status: intent.transactionStatus ?? null,
  settled_ms: intent.settledAt === undefined ? null : String(Date.parse(intent.settledAt)),
}));
const completions = new Map<string, number>();
for (const row of (await pool.query(`SELECT reference_id, runs FROM soak_fulfilments`)).rows as {
  reference_id: string;
  runs: number;
}[]) {
  completions.set(row.reference_id, row.runs);
}
const health = await new WalletClient({
  apiKey: 'sk_sandbox_demo_shop',
  baseUrl: server.baseUrl,
  journal: stores.journal,
}).journalHealth();
const stuck = new Map(health.stuck.map((one) => [one.intent.referenceId, one.why]));
const result = checkFleet({
  stuck,
  rows,
  ledger: sandbox.transactions(),
  completions,
  settlesInTransaction: redis === undefined,
  dropped: router.dropped,
  moneyBefore,
  moneyAfter: sandbox.totalMoney(),
});
const figures = {
  instances: fleetSize,
  kills,
  databaseRestarts: restarts,
  skewedInstanceMs: SKEW_MS,
  instancesThatDied: selfExits.length,
  ...result.figures,
  webhooksReceived: router.counts.received,
  webhooksDropped: router.counts.dropped,
  webhooksDuplicated: router.counts.duplicated,
  webhooksDelayed: router.counts.delayed,
  seconds: Math.round((Date.now() - started) / 1000),
};
for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(26)} ${value}`);
for (const violation of result.violations) console.log(`VIOLATION ${violation}`);
for (const exit of selfExits) console.log(`VIOLATION an instance died: ${exit}`);
if (result.violations.length > 0) {
  for (const intent of intents.filter(isUnfinished).slice(0, 3)) {
    const ledger = sandbox.transactions().find((tx) => tx.reference_id === intent.referenceId);
    const { body: _body, ...shown } = intent;
    console.log('unfinished', JSON.stringify({ ...shown, ledger: ledger?.transaction_status ?? null }));
  }
}
const enough = rows.length >= targetPayments && kills >= targetKills;
if (!enough) console.log(`VIOLATION fewer than ${targetPayments} payments or ${targetKills} kills`);

sandbox.close();
await server.close();
router.close();
await stores.close();
await pool.end();
await database.stop();
await redis?.stop();
process.exit(result.violations.length === 0 && selfExits.length === 0 && enough ? 0 : 1);
