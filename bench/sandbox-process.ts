/**
 * The sandbox in a process of its own, as a real service is: the journal bench's payments cross a
 * socket to another process, so the sandbox's own work does not share the bench's event loop.
 * Usage: node --import tsx bench/sandbox-process.ts <latency ms>; prints `{"baseUrl":...}` on one
 * line when listening, and exits when its standard input closes.
 */
import type * as Testing from '../src/testing/index.js';

const { createSandbox, defaultSandboxSeed, startSandboxServer }: typeof Testing = await import(
  new URL('../dist/testing.js', import.meta.url).href
);

const latencyMs = Number(process.argv[2] ?? 0);
const seed = defaultSandboxSeed();
for (const merchant of seed.merchants) merchant.balances = { ...merchant.balances, KES: 100_000_000 };
const sandbox = createSandbox(seed);
if (latencyMs > 0) sandbox.faults.inject({ kind: 'latency', ms: latencyMs, times: Number.POSITIVE_INFINITY });
const server = await startSandboxServer({ sandbox, port: 0 });
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl })}\n`);

process.stdin.resume();
process.stdin.on('end', async () => {
  await server.close();
  sandbox.close();
  process.exit(0);
});
