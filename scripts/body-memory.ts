import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { WalletClient } from '../src/index.js';

/**
 * Measures how much a client's peak memory grows when a server answers with a huge or endless
 * body: `maxResponseBytes` must stop reading long before it is all in memory. Each case runs
 * its client in a child process of its own, so the figure is that process's peak RSS
 * (`resourceUsage().maxRSS`) after the call minus the same after a warm-up call. Exits 1 when
 * any case grows by `LIMIT_MB` or more.
 */

const LIMIT_MB = 32;
const BODY_BYTES = 200 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
/** A status answer about `transactionId` (the client refuses one about another transaction). */
const status = (transactionId: string) =>
  JSON.stringify({
    transaction_id: transactionId,
    transaction_status: 'completed',
    amount: '1.00',
    currency: 'KES',
    failure_reason: null,
  });

/** The hostile answers, by name. */
const BODIES = {
  'declared 200 MB': (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BODY_BYTES) });
    pump(response, BODY_BYTES);
  },
  'chunked 200 MB': (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    pump(response, BODY_BYTES);
  },
  endless: (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    pump(response, Number.POSITIVE_INFINITY);
  },
  'gzip of 200 MB': (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end(gzipBomb());
  },
} as const;
type BodyName = keyof typeof BODIES;

let bomb: Buffer | undefined;
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(BODY_BYTES, 0x20));
  return bomb;
}

/** Writes `total` bytes with backpressure, stopping when the client goes away. */
function pump(response: ServerResponse, total: number): void {
  let sent = 0;
  response.on('error', () => {});
  const write = () => {
    while (sent < total && !response.destroyed) {
      sent += CHUNK.byteLength;
      if (!response.write(CHUNK)) return void response.once('drain', write);
    }
    if (!response.destroyed) response.end();
  };
  write();
}

/** One measured case. */
export interface MemoryCase {
  readonly transport: 'node' | 'fetch';
  readonly call: 'getTransaction' | 'deposit';
  readonly body: BodyName;
  readonly growthMb: number;
  readonly outcome: string;
}

/** Answers with the body named by the status path's id, or by a deposit's `reference_id`. */
function serve(request: IncomingMessage, response: ServerResponse): void {
  let sent = '';
  request.setEncoding('utf8').on('data', (chunk: string) => {
    sent += chunk;
  });
  request.on('end', () => {
    const body = sent
      ? (JSON.parse(sent) as { reference_id: string }).reference_id
      : decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.split('/').at(-1) ?? '');
    if (body === 'warm-up' || !(body in BODIES)) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(status(body));
      return;
    }
    BODIES[body as BodyName](response);
  });
}

/** Runs every case, each client in its own child process, and returns the figures. */
export async function measureBodyMemory(): Promise<MemoryCase[]> {
  const server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cases: MemoryCase[] = [];
  try {
    for (const transport of ['node', 'fetch'] as const) {
      for (const body of Object.keys(BODIES) as BodyName[]) {
        cases.push(await runChild(url, transport, 'getTransaction', body));
      }
      cases.push(await runChild(url, transport, 'deposit', 'endless'));
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return cases;
}

function runChild(
  url: string,
  transport: MemoryCase['transport'],
  call: MemoryCase['call'],
  body: BodyName,
): Promise<MemoryCase> {
  const script = fileURLToPath(import.meta.url);
  const args = [
    '--import',
    'tsx',
    script,
    '--client',
    url,
    '--transport',
    transport,
    '--call',
    call,
    '--body',
    body,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the ${transport} ${call} ${body} client exited ${code}`));
      const { growthMb, outcome } = JSON.parse(output) as { growthMb: number; outcome: string };
      resolve({ transport, call, body, growthMb, outcome });
    });
  });
}

/** The child: one warm-up call, then the measured one; prints `{ growthMb, outcome }`. */
async function measureOne(url: string, transport: string, call: string, body: string): Promise<void> {
  const client = new WalletClient({
    apiKey: 'sk_memory_1',
    baseUrl: url,
    maxRetries: 0,
    timeoutMs: 20_000,
    ...(transport === 'fetch' ? { fetch: globalThis.fetch } : {}),
  });
  await client.getTransaction('warm-up');
  const baseline = process.resourceUsage().maxRSS;
  const settled =
    call === 'deposit'
      ? client.deposit({ reference_id: body, amount: 1, currency: 'KES' }, { userToken: 'tok_memory_1' })
      : client.getTransaction(body);
  const outcome = await settled.then(
    () => 'resolved',
    (error: Error) => `${error.name}: ${(error.cause as Error | undefined)?.message ?? error.message}`,
  );
  const growthMb = (process.resourceUsage().maxRSS - baseline) / 1024;
  process.stdout.write(JSON.stringify({ growthMb: Math.round(growthMb * 10) / 10, outcome }));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      client: { type: 'string' },
      transport: { type: 'string' },
      call: { type: 'string' },
      body: { type: 'string' },
    },
  });
  if (values.client) {
    return measureOne(
      values.client,
      values.transport ?? 'node',
      values.call ?? 'getTransaction',
      values.body ?? '',
    );
  }
  const cases = await measureBodyMemory();
  const rows = cases.map(
    (c) =>
      `| ${c.transport} | ${c.call} | ${c.body} | ${c.growthMb.toFixed(1)} MB | ${c.outcome.split(':')[0]} |`,
  );
  process.stdout.write(
    ['| transport | call | body | peak RSS growth | outcome |', '|---|---|---|---|---|', ...rows].join('\n') +
      '\n',
  );
  process.exitCode = cases.every((c) => c.growthMb < LIMIT_MB) ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`body-memory failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
