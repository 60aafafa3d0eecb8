/**
 * The outbox soak: a paying process whose settlements write outbox rows in their PostgreSQL
 * transaction (examples/outbox), and a relay process publishing them to a stand-in consumer (an HTTP
 * endpoint here that stores every message it is given), both SIGKILLed at random moments and
 * restarted. Then both run undisturbed until every settlement is published, and the consumer's
 * messages are compared with the journal, the outbox and the sandbox's ledger.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateOutbox, OUTBOX_TABLE, type OutboxMessage } from '../../examples/outbox/outbox.js';
import { migratePostgres } from '../../src/stores/postgres/index.js';
import { createSandbox, startSandboxServer } from '../../src/testing/index.js';
import { kill, sleep, startProcess } from '../../test/system/durable/processes.js';
import { startPostgres } from '../../test/system/stores/servers.js';
import { seededRandom } from '../soak/prng.js';
import { checkOutboxSoak, type OutboxRow, type SettledRow } from './checks.js';

/** How long the soak runs. */
export interface OutboxSoakOptions {
  /** SIGKILLs, of the payer or the relay at random. */
  readonly kills: number;
  readonly seed: number;
  readonly log?: (line: string) => void;
}

/** The soak's figures and every broken rule. */
export interface OutboxSoakReport {
  readonly figures: Record<string, number>;
  readonly violations: string[];
}

const payerScript = fileURLToPath(new URL('../../test/system/durable/outbox-payer.ts', import.meta.url));
const relayScript = fileURLToPath(new URL('../../test/system/durable/outbox-relay.ts', import.meta.url));

/** Runs the soak; resolves with its figures and violations. Stops every process and server it started. */
export async function runOutboxSoak(options: OutboxSoakOptions): Promise<OutboxSoakReport> {
  const log = options.log ?? (() => {});
  const random = seededRandom(options.seed);
  const started = Date.now();
  const stops: (() => Promise<unknown> | unknown)[] = [];
  const running: { payer?: ChildProcess; relay?: ChildProcess } = {};
  try {
    const database = await startPostgres();
    stops.push(() => database.stop());
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    stops.push(() => pool.end());
    await migratePostgres(pool);
    await migrateOutbox(pool);

    const sandbox = createSandbox();
    stops.push(() => sandbox.close());
    const sandboxServer = await startSandboxServer({ sandbox, port: 0 });
    stops.push(() => sandboxServer.close());
    sandbox.faults.inject({ kind: 'drop-after', every: 13 });

    // The stand-in broker: every message it accepted, in order, duplicates included.
    const received: OutboxMessage[] = [];
    const consumer = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => {
        text += chunk;
      });
      request.on('end', () => {
        received.push(...(JSON.parse(text) as OutboxMessage[]));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => consumer.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise((resolve) => consumer.close(resolve)));
    const consumerUrl = `http://127.0.0.1:${(consumer.address() as { port: number }).port}/messages`;

    let run = 0;
    const env = {
      WALLET_BASE_URL: sandboxServer.baseUrl,
      DATABASE_URL: database.url,
      CONSUMER_URL: consumerUrl,
    };
    const start = async (which: 'payer' | 'relay', pay = true) => {
      const next = startProcess(which === 'payer' ? payerScript : relayScript, {
        ...env,
        RUN: String(++run),
        PAY: pay ? '1' : '0',
      });
      running[which] = next.child;
      await next.ready;
    };
    stops.push(
      () => kill(running.payer),
      () => kill(running.relay),
    );
    await start('payer');
    await start('relay');

    let kills = 0;
    while (kills < options.kills) {
      await sleep(500 + random.next() * 1_500);
      const which = random.chance(0.5) ? 'payer' : 'relay';
      await kill(running[which]);
      kills += 1;
      log(`kill ${kills} (${which}): ${received.length} messages received`);
      await start(which);
    }

    // The drain: no new payments; the sweeper settles what is left and the relay publishes it.
    await kill(running.payer);
    await start('payer', false);
    const count = async (sql: string) => Number((await pool.query(sql)).rows[0].n);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const open = await count(
        `SELECT count(*) AS n FROM merchant_wallet_payment_intents
         WHERE state IN ('sending', 'unknown') OR (state IN ('completed', 'failed') AND settled_at IS NULL)`,
      );
      const unpublished = await count(`SELECT count(*) AS n FROM ${OUTBOX_TABLE} WHERE published_at IS NULL`);
      if ((open === 0 && unpublished === 0) || Date.now() > deadline) break;
      await sleep(300);
    }
    await kill(running.relay);
    await kill(running.payer);

    // Payments settled with a final status: `onSettled` wrote their outbox rows. Refusals are settled
    // too (`onRefused`, which this recipe does not publish).
    const settled = (
      await pool.query(
        `SELECT reference_id, state, transaction_status FROM merchant_wallet_payment_intents
         WHERE settled_at IS NOT NULL AND state IN ('completed', 'failed')`,
      )
    ).rows as SettledRow[];
    const outbox = (
      await pool.query(
        `SELECT reference_id, payload, published_at IS NOT NULL AS published FROM ${OUTBOX_TABLE}`,
      )
    ).rows as OutboxRow[];
    const stuck = await count(
      `SELECT count(*) AS n FROM merchant_wallet_payment_intents WHERE state = 'accepted' AND transaction_id IS NULL`,
    );
    const intents = await count('SELECT count(*) AS n FROM merchant_wallet_payment_intents');
    const ledger = new Map(sandbox.transactions().map((tx) => [tx.reference_id, tx.transaction_status]));

    const result = checkOutboxSoak({ settled, outbox, received, ledger });
    const figures = { kills, intents, ...result.figures, stuckWithoutTransactionId: stuck, seconds: 0 };
    figures.seconds = Math.round((Date.now() - started) / 1000);
    const violations = [...result.violations];
    if (kills < options.kills) violations.push(`fewer than ${options.kills} kills`);
    if (settled.length === 0) violations.push('nothing was settled');
    return { figures, violations };
  } finally {
    for (const stop of stops.reverse())
      await Promise.resolve()
        .then(stop)
        .catch(() => {});
  }
}
