import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WalletClient, type WalletClientOptions } from '../../src/index.js';
import { createSandbox, type SandboxServer, startSandboxServer } from '../../src/testing/index.js';

const TRANSPORTS: Record<string, WalletClientOptions> = {
  'node:http': {},
  fetch: { fetch: (input, init) => globalThis.fetch(input, init) },
};

const sandbox = createSandbox();
let server: SandboxServer;
let transactionIds: string[] = [];
const warnings: Error[] = [];
const onWarning = (warning: Error) => void warnings.push(warning);

beforeAll(async () => {
  server = await startSandboxServer({ sandbox, port: 0 });
  const setup = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl });
  const made: string[] = [];
  for (let i = 0; i < 4; i++) {
    made.push(
      (await setup.withdraw({ email: 'alice@example.com', amount: 1, currency: 'KES' })).transaction_id,
    );
  }
  // 64 reads over 4 transactions: each id 16 times.
  transactionIds = Array.from({ length: 64 }, (_, i) => made[i % made.length] ?? '');
  process.on('warning', onWarning);
});

afterAll(async () => {
  process.off('warning', onWarning);
  sandbox.close();
  await server.close();
});

describe.each(Object.keys(TRANSPORTS))('reconcile over the %s transport', (transport) => {
  test('64 reads at concurrency 32 all succeed and the process prints no warning', async () => {
    warnings.length = 0;
    const client = new WalletClient({
      apiKey: 'sk_sandbox_demo_shop',
      baseUrl: server.baseUrl,
      ...TRANSPORTS[transport],
    });
    let peak = 0;

    const results = [];
    for await (const result of client.reconcile(transactionIds, {
      concurrency: 32,
      onProgress: ({ inFlight }) => {
        peak = Math.max(peak, inFlight);
      },
    })) {
      results.push(result);
    }
    // Node reports warnings on a later tick.
    await new Promise((resolve) => setImmediate(resolve));

    expect(results.filter((result) => result.error !== undefined)).toEqual([]);
    expect(results).toHaveLength(64);
    expect(peak).toBeGreaterThan(10);
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });
});
