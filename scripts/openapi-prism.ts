/**
 * `npm run test:contract`: the sandbox and the client checked against openapi/openapi.json by
 * Prism, a tool this project did not write.
 *
 * - Prism's validation proxy (`prism proxy`) stands between the client and the sandbox while the
 *   contract, flow and webhook suites run (vitest.prism.config.ts); every request and answer it
 *   finds outside the document is a violation, and the run fails on any.
 * - Prism's mock (`prism mock`) answers from the document alone, and the client's core flows run
 *   against it (test/openapi/prism/mock-flows.prism-test.ts).
 *
 * Before the suites, one request without `x-api-key` checks that the proxy does report violations
 * (a counter that cannot see them would pass anything). Prints one summary line; exits 1 on failure.
 */
import { spawn } from 'node:child_process';
import { createSandbox, startSandboxServer } from '../src/testing/index.js';
import { type PrismProcess, startPrism } from './prism/prism-process.js';
import { startUpstreamSwitch, UPSTREAM_HEADER, type UpstreamSwitch } from './prism/upstream-switch.js';

const DOCUMENT = 'openapi/openapi.json';

/** Violations Prism logged in `log`, one line each. */
function violations(log: string): string[] {
  return log.split('\n').filter((line) => line.includes('Violation:'));
}

function requests(log: string): number {
  return log.split('\n').filter((line) => line.includes('Request received')).length;
}

/** Sends one request that breaks the contract and returns the violations Prism logged for it. */
async function probe(proxy: PrismProcess): Promise<string[]> {
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox });
  try {
    const before = violations(proxy.log()).length;
    await fetch(`${proxy.url}/merchants/transactions/status/txn_000001`, {
      headers: { [UPSTREAM_HEADER]: server.baseUrl },
    });
    // Prism logs the answer's validation after it has sent the answer.
    for (let i = 0; i < 100 && violations(proxy.log()).length === before; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return violations(proxy.log()).slice(before);
  } finally {
    sandbox.close();
    await server.close();
  }
}

function runSuites(env: Record<string, string>): Promise<number> {
  const child = spawn(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.prism.config.ts', ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

let upstream: UpstreamSwitch | undefined;
let proxy: PrismProcess | undefined;
let mock: PrismProcess | undefined;
let failed = false;
try {
  upstream = await startUpstreamSwitch();
  [proxy, mock] = await Promise.all([
    startPrism(['proxy', DOCUMENT, upstream.url]),
    startPrism(['mock', DOCUMENT]),
  ]);
  const seen = await probe(proxy);
  if (seen.length !== 1 || !seen[0]?.includes('security')) {
    failed = true;
    process.stdout.write(
      `the proxy's check failed: a request without x-api-key gave ${JSON.stringify(seen)}\n`,
    );
  }
  const start = proxy.log().length;
  const code = await runSuites({ MW_PRISM_PROXY_URL: proxy.url, MW_PRISM_MOCK_URL: mock.url });
  // Let the last answers' validation reach the log.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const log = proxy.log().slice(start);
  const found = violations(log);
  for (const line of found) process.stdout.write(`${line.trim()}\n`);
  process.stdout.write(
    `prism proxy: ${requests(log)} requests, ${found.length} violations; prism mock: ${requests(mock.log())} requests; suites ${code === 0 ? 'passed' : 'failed'}\n`,
  );
  if (code !== 0 || found.length > 0) failed = true;
} catch (error) {
  failed = true;
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await Promise.all([proxy?.stop(), mock?.stop(), upstream?.close()]);
}
process.exitCode = failed ? 1 : 0;
