import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Worker } from 'node:worker_threads';
import Stripe from 'stripe';
import { Agent as UndiciAgent, request as undiciRequest } from 'undici';
import type * as Package from '../src/index.js';

// The built package, as users run it (`npm run bench` builds first); the source run through tsx
// carries per-function name helpers that would slow the hot path being measured.
const { WalletClient }: typeof Package = await import(new URL('../dist/index.js', import.meta.url).href);

/** A 6-field status body, as the status endpoint answers. */
const BODY = JSON.stringify({
  transaction_id: 'txn_1',
  reference_id: 'order-1',
  transaction_status: 'completed',
  amount: '10.00',
  currency: 'KES',
  failure_reason: null,
});

// The server runs on its own thread (its own core), so the clients measured do not share an event loop with it.
// Exported: the OpenTelemetry overhead bench serves its calls the same way.
export const SERVER = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
const body = Buffer.from(${JSON.stringify(BODY)});
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

/** One client under test: a call that reads the status of txn_1 and parses it. */
export interface BenchClient {
  readonly name: string;
  readonly call: () => Promise<unknown>;
  readonly close: () => Promise<void>;
}

/** One client's medians over the rounds. */
export interface ClientFigures {
  readonly name: string;
  /** Microseconds per call, one at a time. */
  readonly microsAtC1: number;
  /** Calls per second with 64 in flight. */
  readonly perSecondAtC64: number;
}

/** The table and the budget ratios, each a median of per-round ratios. */
export interface ThroughputReport {
  readonly clients: readonly ClientFigures[];
  readonly nodeThroughputC1: number;
  readonly nodeThroughputC64: number;
  readonly fetchThroughputC1: number;
  readonly fetchThroughputC64: number;
}

const NAMES = {
  undici: 'undici.request + JSON.parse',
  nodeHttp: 'node:http, own Agent({ keepAlive: true })',
  stripe: 'stripe-node 23',
  walletNode: 'merchant-wallet, node transport',
  walletFetch: 'merchant-wallet, fetch transport',
  fetch: 'plain fetch + json()',
} as const;
type ClientKey = keyof typeof NAMES;

function makeClients(url: string): Record<ClientKey, BenchClient> {
  const path = '/merchants/transactions/status/txn_1';
  const dispatcher = new UndiciAgent();
  const agent = new HttpAgent({ keepAlive: true });
  const { port } = new URL(url);
  const stripe = new Stripe('sk_test_bench', {
    host: '127.0.0.1',
    port: Number(port),
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
  const walletNode = new WalletClient({ apiKey: 'sk_bench', baseUrl: url });
  const walletFetch = new WalletClient({ apiKey: 'sk_bench', baseUrl: url, fetch: globalThis.fetch });
  const nodeGet = () =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': 'sk_bench' } },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  const nothing = async () => {};
  return {
    undici: {
      name: NAMES.undici,
      call: () =>
        undiciRequest(`${url}${path}`, { headers: { 'x-api-key': 'sk_bench' }, dispatcher })
          .then((response) => response.body.text())
          .then(JSON.parse),
      close: () => dispatcher.close(),
    },
    nodeHttp: { name: NAMES.nodeHttp, call: nodeGet, close: async () => agent.destroy() },
    stripe: { name: NAMES.stripe, call: () => stripe.customers.retrieve('txn_1'), close: nothing },
    walletNode: {
      name: NAMES.walletNode,
      call: () => walletNode.getTransaction('txn_1'),
      close: () => walletNode.close(),
    },
    walletFetch: {
      name: NAMES.walletFetch,
      call: () => walletFetch.getTransaction('txn_1'),
      close: () => walletFetch.close(),
    },
    fetch: {
      name: NAMES.fetch,
      call: () =>
        fetch(`${url}${path}`, { headers: { 'x-api-key': 'sk_bench' } }).then((response) => response.json()),
      close: nothing,
    },
  };
}

/** Milliseconds for `total` calls made by `concurrency` loops that each call until all are started. */
async function elapsedMs(call: () => Promise<unknown>, concurrency: number, total: number): Promise<number> {
  let started = 0;
  const loop = async () => {
    while (started < total) {
      started += 1;
      await call();
    }
  };
  const begin = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  return performance.now() - begin;
}

/**
 * Calls per second of every client, one figure per client per round. A round is made of short
 * bursts, every client in turn (from a different one each pass), so that load from other processes
 * on a shared machine falls on all clients alike rather than on whichever ran during a spike.
 */
async function throughputRounds(
  clients: Record<ClientKey, BenchClient>,
  concurrency: number,
  rounds: number,
  passes: number,
  burst: number,
): Promise<Record<ClientKey, number[]>> {
  const keys = Object.keys(clients) as ClientKey[];
  const series = emptySeries(keys);
  for (let round = 0; round < rounds; round++) {
    const spentMs = Object.fromEntries(keys.map((key) => [key, 0])) as Record<ClientKey, number>;
    for (let pass = 0; pass < passes; pass++) {
      for (let offset = 0; offset < keys.length; offset++) {
        const key = keys[(pass + offset) % keys.length] as ClientKey;
        spentMs[key] += await elapsedMs(clients[key].call, concurrency, burst);
      }
    }
    for (const key of keys) series[key].push(((passes * burst) / spentMs[key]) * 1000);
  }
  return series;
}

/**
 * Runs every client at concurrency 1 and 64 against one server on its own thread. Every figure is a
 * median over rounds; each ratio is the median of per-round ratios, against the bare client that is
 * faster over the whole run (the two trade places between runs).
 */
export async function measureThroughput(rounds = 7, passes = 6): Promise<ThroughputReport> {
  const worker = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const clients = makeClients(`http://127.0.0.1:${port}`);
  const keys = Object.keys(clients) as ClientKey[];
  let c1: Record<ClientKey, number[]>;
  let c64: Record<ClientKey, number[]>;
  try {
    for (const key of keys) {
      await elapsedMs(clients[key].call, 64, 2000);
      await elapsedMs(clients[key].call, 1, 500);
    }
    c1 = await throughputRounds(clients, 1, rounds, passes, 400);
    c64 = await throughputRounds(clients, 64, rounds, passes, 1000);
  } finally {
    await Promise.all(keys.map((key) => clients[key].close()));
    await worker.terminate();
  }
  const fasterBare = (series: Record<ClientKey, number[]>) =>
    median(series.undici) >= median(series.nodeHttp) ? series.undici : series.nodeHttp;
  const ratio = (ours: number[], bare: number[]) =>
    median(ours.map((value, round) => value / (bare[round] ?? 0)));
  return {
    clients: keys.map((key) => ({
      name: clients[key].name,
      microsAtC1: 1e6 / median(c1[key]),
      perSecondAtC64: median(c64[key]),
    })),
    nodeThroughputC1: ratio(c1.walletNode, fasterBare(c1)),
    nodeThroughputC64: ratio(c64.walletNode, fasterBare(c64)),
    fetchThroughputC1: ratio(c1.walletFetch, c1.fetch),
    fetchThroughputC64: ratio(c64.walletFetch, c64.fetch),
  };
}

/** The throughput table of the bench: µs/call at c=1 and req/s at c=64, each beside its ratio. */
export function throughputTable(report: ThroughputReport): string {
  const [undici, nodeHttp] = report.clients;
  const undiciMicros = undici?.microsAtC1 ?? Number.NaN;
  const nodePerSecond = nodeHttp?.perSecondAtC64 ?? Number.NaN;
  const lines = [
    `${'client'.padEnd(44)} ${'c=1 µs/call'.padStart(11)} ${'× undici'.padStart(9)} ${'c=64 req/s'.padStart(11)} ${'× node:http'.padStart(12)}`,
  ];
  for (const row of report.clients) {
    lines.push(
      `${row.name.padEnd(44)} ${row.microsAtC1.toFixed(0).padStart(11)} ${(row.microsAtC1 / undiciMicros).toFixed(2).padStart(9)} ${Math.round(row.perSecondAtC64).toLocaleString('en').padStart(11)} ${(row.perSecondAtC64 / nodePerSecond).toFixed(2).padStart(12)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function emptySeries(keys: readonly ClientKey[]): Record<ClientKey, number[]> {
  return Object.fromEntries(keys.map((key) => [key, []])) as unknown as Record<ClientKey, number[]>;
}

/** The middle value (the upper middle for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
