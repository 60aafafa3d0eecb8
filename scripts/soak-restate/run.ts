/**
 * The Restate soak: the real Restate server (from npm), the `checkout` service of examples/restate in
 * a process of its own, the shop's webhook endpoint and sweeper in another, PostgreSQL for the
 * journal and the orders, and the sandbox over HTTP dropping some answers after applying them and
 * some webhooks. Orders are submitted to the ingress while the service process is SIGKILLed at
 * random moments and restarted; then what is left runs to its end and every check is made.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migratePostgres } from '../../src/stores/postgres/index.js';
import { createSandbox, startSandboxServer } from '../../src/testing/index.js';
import { PAYERS } from '../../test/system/durable/payers.js';
import { kill, sleep, startProcess } from '../../test/system/durable/processes.js';
import { startRestate } from '../../test/system/durable/restate-server.js';
import { freePort } from '../../test/system/nginx.js';
import { startPostgres } from '../../test/system/stores/servers.js';
import { seededRandom } from '../soak/prng.js';
import { checkRestateSoak, type FulfilmentRow, type RestateJournalRow } from './checks.js';

/** How long the soak runs and how hard. */
export interface RestateSoakOptions {
  /** SIGKILLs of the service process while orders run. */
  readonly kills: number;
  /** At least this many orders are submitted. */
  readonly orders: number;
  /** Orders in flight at once. */
  readonly inFlight?: number;
  readonly seed: number;
  /** Progress lines, e.g. `console.log`. */
  readonly log?: (line: string) => void;
}

/** The soak's figures and every broken rule. */
export interface RestateSoakReport {
  readonly figures: Record<string, number>;
  readonly violations: string[];
}

const serviceScript = fileURLToPath(new URL('../../test/system/durable/restate-service.ts', import.meta.url));
const shopScript = fileURLToPath(new URL('../../test/system/durable/restate-shop.ts', import.meta.url));
const PREFIX = 'rs_';

/** Runs the soak; resolves with its figures and violations. Stops every process and server it started. */
export async function runRestateSoak(options: RestateSoakOptions): Promise<RestateSoakReport> {
  const log = options.log ?? (() => {});
  const random = seededRandom(options.seed);
  const inFlight = options.inFlight ?? 12;
  const started = Date.now();
  const stops: (() => Promise<unknown> | unknown)[] = [];
  let service: ChildProcess | undefined;
  try {
    const database = await startPostgres();
    stops.push(() => database.stop());
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    stops.push(() => pool.end());
    await migratePostgres(pool);
    await pool.query(`CREATE TABLE restate_fulfilments (
      order_id text PRIMARY KEY, reference_id text NOT NULL, status text NOT NULL,
      runs integer NOT NULL, conflicting boolean NOT NULL DEFAULT false)`);

    // Pending deposits settle 0.5 s after they start; their webhooks are retried 5 times.
    const sandbox = createSandbox(undefined, {
      autoSettleMs: 500,
      webhooks: { attempts: 5, backoffMs: 200 },
    });
    stops.push(() => sandbox.close());
    const sandboxServer = await startSandboxServer({ sandbox, port: 0 });
    stops.push(() => sandboxServer.close());
    // Every 7th deposit is applied and its answer lost: the handler resolves it through resolveOutcome.
    sandbox.faults.inject({ kind: 'drop-after', route: 'deposit', every: 7 });

    const restate = await startRestate();
    stops.push(() => restate.stop());
    const env = {
      WALLET_BASE_URL: sandboxServer.baseUrl,
      DATABASE_URL: database.url,
      RESTATE_INGRESS_URL: restate.ingressUrl,
    };
    const shop = startProcess(shopScript, env);
    stops.push(() => kill(shop.child));
    const shopPort = (await shop.ready).split(' ')[1];
    sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: `http://127.0.0.1:${shopPort}/webhooks` });

    const servicePort = await freePort();
    const startService = async () => {
      const next = startProcess(serviceScript, { ...env, PORT: String(servicePort) });
      service = next.child;
      await next.ready;
    };
    stops.push(() => kill(service));
    await startService();
    await restate.register(`http://127.0.0.1:${servicePort}`);

    // Orders: submitted with their id as idempotency key, then attached to until they return.
    const outcomes = new Map<string, { status: string; referenceId: string } | undefined>();
    let submitting = true;
    let submitted = 0;
    let lateWebhooks = 0;
    // Ends the waits for orders that never return, so the soak reports them instead of hanging.
    const giveUp = new AbortController();
    const submitOne = async (n: number) => {
      const payer = PAYERS[n % 3 === 0 ? 1 : 0];
      const pending = payer.name === 'bob';
      const orderId = `order-${options.seed}-${n}`;
      const order = {
        orderId,
        email: payer.email,
        amount: (pending ? 150 : 1) + ((n * 7919) % 900) / 100,
        currency: 'KES',
        ...(pending ? { paymentProvider: 'mpesa' } : {}),
      };
      outcomes.set(orderId, undefined);
      // Some webhooks come 3 s late: the sweeper reads those payments first (a webhook dropped for
      // good, of a payment whose answer was lost too, leaves it stuck without a transaction id).
      if (n % 10 === 5) {
        sandbox.webhooks.planNext({ mode: 'late', delayMs: 3_000 });
        lateWebhooks += 1;
      }
      const sent = await fetch(new URL('checkout/pay/send', restate.ingressUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': orderId },
        body: JSON.stringify(order),
      });
      const { invocationId } = (await sent.json()) as { invocationId: string };
      for (;;) {
        const attached = await fetch(
          new URL(`restate/invocation/${invocationId}/attach`, restate.ingressUrl),
          {
            signal: AbortSignal.timeout(120_000),
          },
        ).catch(() => undefined);
        if (attached?.ok) {
          outcomes.set(orderId, (await attached.json()) as { status: string; referenceId: string });
          return;
        }
        await attached?.body?.cancel();
        await sleep(200);
      }
    };
    const lane = async () => {
      while ((submitting || submitted < options.orders) && !giveUp.signal.aborted)
        await submitOne(submitted++);
    };
    const lanes = Promise.all(Array.from({ length: inFlight }, lane));

    let kills = 0;
    while (kills < options.kills) {
      await sleep(1_000 + random.next() * 2_000);
      await kill(service);
      kills += 1;
      log(
        `kill ${kills}: ${submitted} orders submitted, ${[...outcomes.values()].filter(Boolean).length} returned`,
      );
      await startService();
    }
    submitting = false;
    const late = setTimeout(() => giveUp.abort(), 90_000);
    await lanes;
    clearTimeout(late);
    log(
      `${[...outcomes.values()].filter(Boolean).length} of ${outcomes.size} orders returned; waiting for the sweeper to settle the rest`,
    );

    // Settlement of instant payments runs in whichever process learnt them; give the sweeper its rounds.
    const open = async () =>
      Number(
        (
          await pool.query(
            `SELECT count(*) AS n FROM merchant_wallet_payment_intents
             WHERE state IN ('sending', 'unknown') OR (state IN ('completed', 'failed') AND settled_at IS NULL)`,
          )
        ).rows[0].n,
      );
    const deadline = Date.now() + 60_000;
    while ((await open()) > 0 && Date.now() < deadline) await sleep(500);
    await sandbox.webhooks.idle();

    const rows = (
      await pool.query(
        `SELECT reference_id, state, transaction_id, transaction_status, settled_at IS NOT NULL AS settled
         FROM merchant_wallet_payment_intents`,
      )
    ).rows as RestateJournalRow[];
    const fulfilments = (await pool.query('SELECT * FROM restate_fulfilments')).rows as FulfilmentRow[];
    // Intents recorded again: a re-run of the pay step after a kill, or resolveOutcome after a lost answer.
    const sentAgain = Number(
      (await pool.query('SELECT count(*) AS n FROM merchant_wallet_payment_intents WHERE records > 1'))
        .rows[0].n,
    );
    const ledgerEntries = sandbox.transactions().filter((entry) => entry.reference_id?.startsWith(PREFIX));
    const result = checkRestateSoak({
      orders: outcomes,
      rows,
      fulfilments,
      ledger: sandbox.transactions(),
      prefix: PREFIX,
    });
    return {
      figures: {
        kills,
        ...result.figures,
        payments: ledgerEntries.length,
        sentAgainUnderSameReference: sentAgain,
        lateWebhooks,
        seconds: Math.round((Date.now() - started) / 1000),
      },
      violations: [
        ...result.violations,
        ...(kills < options.kills || outcomes.size < options.orders
          ? [`fewer than ${options.kills} kills or ${options.orders} orders`]
          : []),
      ],
    };
  } finally {
    for (const stop of stops.reverse())
      await Promise.resolve()
        .then(stop)
        .catch(() => {});
  }
}
