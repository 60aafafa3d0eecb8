import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { WalletClient } from '../src/index.js';

const BODY = JSON.stringify({
  transaction_id: 'txn_1',
  reference_id: 'order-1',
  transaction_status: 'completed',
  amount: '10.00',
  currency: 'KES',
  failure_reason: null,
});

async function meanMs(run: () => Promise<unknown>, iterations: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < iterations; index++) await run();
  return (performance.now() - started) / iterations;
}

/**
 * Median, over interleaved rounds, of the time of `wallet.getTransaction` divided by the
 * time of a bare `undici.request` + `JSON.parse` against the same loopback server.
 */
export async function requestOverheadRatio(rounds = 15, iterations = 400): Promise<number> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dispatcher = new Agent();
  const wallet = new WalletClient({ apiKey: 'sk_bench', baseUrl: url });
  const bare = () =>
    request(`${url}/merchants/transactions/status/txn_1`, {
      headers: { 'x-api-key': 'sk_bench' },
      dispatcher,
    })
      .then((response) => response.body.text())
      .then(JSON.parse);
  const sdk = () => wallet.getTransaction('txn_1');
  try {
    await meanMs(bare, iterations);
    await meanMs(sdk, iterations);
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const bareMs = await meanMs(bare, iterations);
      const sdkMs = await meanMs(sdk, iterations);
      ratios.push(sdkMs / bareMs);
    }
    return median(ratios);
  } finally {
    server.closeAllConnections();
    server.close();
    await dispatcher.close();
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
