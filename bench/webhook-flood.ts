/**
 * A payment during a flood of forged webhooks: the sandbox in a process of its own answers every
 * request in 50 ms; the merchant's process runs the webhook handler (verifying with the client) and
 * makes payments on the same client. The flood is 3,000 forged transaction events with distinct ids
 * (unknown to the service), posted in bursts of 150 every 50 ms: 3,000 a second, above the 2,560 a
 * second that the client's 128 connections can read at 50 ms each, so without a bound the reads
 * queue for the connections the payment needs. Their `Request`s are built beforehand: parsing a
 * request is the server's cost, whatever it carries, not the verification's. A payment's time is the
 * median of the payments made one after another while the flood lasts, over the median of as many
 * payments without it. Measured with the handler's defaults, and (printed, not budgeted) with its
 * flood protection turned as far off as its options allow.
 * Usage: node --import tsx bench/webhook-flood.ts (after `npx tsup`), or within `npm run bench`.
 */
import type * as Package from '../src/index.js';
import type * as Webhooks from '../src/webhooks/index.js';
import { startSandboxProcess, stopSandboxProcess } from './sandbox-process-control.js';
import { median } from './throughput.js';

// The built package, as users run it (`npm run bench` builds first).
const { WalletClient }: typeof Package = await import(new URL('../dist/index.js', import.meta.url).href);
const { createWebhookHandler }: typeof Webhooks = await import(
  new URL('../dist/webhooks.js', import.meta.url).href
);

const SERVICE_MS = 50;
const FORGED = 3_000;
const BURST = 150;
const BURST_EVERY_MS = 50;
const ROUNDS = 3;

export interface WebhookFlood {
  /** Median payment time during the flood over without it, handler defaults: the budgeted figure. */
  readonly ratio: number;
  /** The same with `maxVerifications: 65535, notFoundMs: 0`: what the flood did before. */
  readonly unprotectedRatio: number;
  /** Median payment times, in ms. */
  readonly quietMs: number;
  readonly floodMs: number;
  readonly unprotectedFloodMs: number;
  /** Status reads the flood caused per round, by setting. */
  readonly reads: number;
  readonly unprotectedReads: number;
  readonly payments: number;
}

const forged = (id: string) =>
  new Request('https://shop.example/wallet/webhooks', {
    method: 'POST',
    body: JSON.stringify({
      event: 'transaction',
      transaction_id: id,
      transaction_status: 'completed',
      reference_id: 'attacker-order',
      amount: 1_000_000,
      currency: 'KES',
    }),
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Times payments one after another until `until` settles (or `count` of them without it). */
async function timePayments(wallet: Package.WalletClient, prefix: string, until: Promise<unknown>) {
  let over = false;
  void until.then(() => {
    over = true;
  });
  const times: number[] = [];
  while (!over) {
    const started = performance.now();
    await wallet.withdraw({
      reference_id: `${prefix}-${times.length}`,
      email: 'bob@example.com',
      amount: 1,
      currency: 'KES',
    });
    times.push(performance.now() - started);
  }
  return times;
}

/** One round: payments during a flood through a handler made with `options`; the reads it caused. */
async function floodRound(baseUrl: string, options: Webhooks.WebhookHandlerOptions, prefix: string) {
  let reads = 0;
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl });
  const reader: Package.TransactionReader = {
    getTransaction: (id, readOptions) => {
      reads += 1;
      return wallet.getTransaction(id, readOptions);
    },
  };
  const handler = createWebhookHandler({ ...options, verifyWith: reader, onTransaction: () => undefined });
  // Made before the flood: building a Request is the sender's work (in production, the HTTP
  // server's parsing, which any request costs), not the verification's.
  const requests = Array.from({ length: FORGED }, (_, index) => forged(`${prefix}-forged-${index}`));
  const answered: Promise<Response>[] = [];
  const flood = (async () => {
    for (let sent = 0; sent < FORGED; sent += BURST) {
      for (const request of requests.slice(sent, sent + BURST)) answered.push(handler(request));
      await sleep(BURST_EVERY_MS);
    }
    await Promise.all(answered);
  })();
  const times = await timePayments(wallet, prefix, flood);
  await wallet.close();
  return { times, reads };
}

/** Measures {@link WebhookFlood} against a sandbox process answering in {@link SERVICE_MS}. */
export async function measureWebhookFlood(): Promise<WebhookFlood> {
  const sandbox = await startSandboxProcess(SERVICE_MS);
  try {
    const quiet: number[] = [];
    const flooded: number[] = [];
    const unprotected: number[] = [];
    let reads = 0;
    let unprotectedReads = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const tag = `${Date.now()}-${round}`;
      const defaults = await floodRound(sandbox.baseUrl, {}, `flood-${tag}`);
      flooded.push(...defaults.times);
      reads = defaults.reads;
      const open = await floodRound(
        sandbox.baseUrl,
        { maxVerifications: 65_535, notFoundMs: 0 },
        `open-${tag}`,
      );
      unprotected.push(...open.times);
      unprotectedReads = open.reads;
      const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: sandbox.baseUrl });
      // As many quiet payments as the flood took, on a client of its own as each flood round has.
      quiet.push(
        ...(await timePayments(wallet, `quiet-${tag}`, sleep(defaults.times.reduce((a, b) => a + b, 0)))),
      );
      await wallet.close();
    }
    const quietMs = median(quiet);
    return {
      ratio: median(flooded) / quietMs,
      unprotectedRatio: median(unprotected) / quietMs,
      quietMs,
      floodMs: median(flooded),
      unprotectedFloodMs: median(unprotected),
      reads,
      unprotectedReads,
      payments: flooded.length,
    };
  } finally {
    await stopSandboxProcess(sandbox);
  }
}

/** The result as a few lines for the bench's output. */
export function webhookFloodTable(flood: WebhookFlood): string {
  const row = (what: string, ms: number, ratio: number | undefined, reads: number | undefined) =>
    `${what.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms ${(ratio === undefined ? '' : `${ratio.toFixed(3)}×`).padStart(8)} ${(reads === undefined ? '' : String(reads)).padStart(8)}\n`;
  return (
    `${'payment (withdraw), median'.padEnd(48)} ${'time'.padStart(11)} ${'ratio'.padStart(8)} ${'reads'.padStart(8)}\n` +
    row('no flood', flood.quietMs, undefined, undefined) +
    row(`flood of ${FORGED} forged events, handler defaults`, flood.floodMs, flood.ratio, flood.reads) +
    row(
      'the same flood, no bound, no not-found memory',
      flood.unprotectedFloodMs,
      flood.unprotectedRatio,
      flood.unprotectedReads,
    )
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flood = await measureWebhookFlood();
  process.stdout.write(webhookFloodTable(flood));
  process.stdout.write(`${flood.payments} payments during floods\n`);
}
