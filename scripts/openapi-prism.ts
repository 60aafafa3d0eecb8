/**
 * `npm run test:contract`: the sandbox and the client checked against openapi/openapi.json by
 * Prism, a tool this project did not write.
 *
 * - Prism's validation proxy (`prism proxy`) stands between the client and the sandbox while the
 *   contract, flow and webhook suites run (vitest.prism.config.ts); every request and answer it
 *   finds outside the document is a violation, and the run fails on any. A second proxy stands
 *   between the sandbox and the SDK's webhook handler, checking every delivery against the
 *   document's `webhooks` (scripts/prism/webhook-document.ts).
 * - Prism's mock (`prism mock`) answers from the document alone, and the client's core flows run
 *   against it (test/openapi/prism/mock-flows.prism-test.ts).
 *
 * Before the suites, one request that breaks the contract through each proxy checks that it does
 * report violations (a counter that cannot see them would pass anything). Prints one summary line;
 * exits 1 on failure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, startSandboxServer } from '../src/testing/index.js';
import { type PrismProcess, startPrism } from './prism/prism-process.js';
import { startUpstreamSwitch, UPSTREAM_HEADER, type UpstreamSwitch } from './prism/upstream-switch.js';
import { webhookReceiverDocument } from './prism/webhook-document.js';

const DOCUMENT = 'openapi/openapi.json';

/** Violations Prism logged in `log`, one line each. */
function violations(log: string): string[] {
  return log.split('\n').filter((line) => line.includes('Violation:'));
}

function requests(log: string): number {
  return log.split('\n').filter((line) => line.includes('Request received')).length;
}

/** Sends `request` through `proxy` and returns the violations Prism logged for it. */
async function violationsOf(proxy: PrismProcess, request: () => Promise<unknown>): Promise<string[]> {
  const before = violations(proxy.log()).length;
  await request();
  // Prism logs the answer's validation after it has sent the answer.
  for (let i = 0; i < 100 && violations(proxy.log()).length === before; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return violations(proxy.log()).slice(before);
}

/**
 * Sends one request that breaks the contract through each proxy: a status read without `x-api-key`,
 * and a webhook whose `event` is no documented one. Returns what is wrong, or nothing.
 */
async function probe(proxy: PrismProcess, webhookProxy: PrismProcess): Promise<string[]> {
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox });
  const receiver = createServer((_, res) => res.end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const api = await violationsOf(proxy, () =>
      fetch(`${proxy.url}/merchants/transactions/status/txn_000001`, {
        headers: { [UPSTREAM_HEADER]: server.baseUrl },
      }),
    );
    // Prism checks a request once the upstream has answered it.
    const webhook = await violationsOf(webhookProxy, () =>
      fetch(`${webhookProxy.url}/${(receiver.address() as AddressInfo).port}/wallet/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'user_deleted', user_email: 'alice@example.com' }),
      }),
    );
    const problems: string[] = [];
    if (!api.some((line) => line.includes('security'))) {
      problems.push(`a status read without x-api-key gave ${JSON.stringify(api)}`);
    }
    if (!webhook.some((line) => line.includes('request.body'))) {
      problems.push(`an undocumented webhook gave ${JSON.stringify(webhook)}`);
    }
    return problems;
  } finally {
    sandbox.close();
    receiver.close();
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
let webhookProxy: PrismProcess | undefined;
let mock: PrismProcess | undefined;
let failed = false;
const dir = mkdtempSync(join(tmpdir(), 'merchant-wallet-prism-'));
try {
  const webhookDocument = join(dir, 'webhooks.json');
  writeFileSync(
    webhookDocument,
    JSON.stringify(webhookReceiverDocument(JSON.parse(readFileSync(DOCUMENT, 'utf8')))),
  );
  upstream = await startUpstreamSwitch();
  [proxy, webhookProxy, mock] = await Promise.all([
    startPrism(['proxy', DOCUMENT, upstream.url]),
    startPrism(['proxy', webhookDocument, upstream.url]),
    startPrism(['mock', DOCUMENT]),
  ]);
  for (const problem of await probe(proxy, webhookProxy)) {
    failed = true;
    process.stdout.write(`the proxies do not report violations: ${problem}\n`);
  }
  const start = proxy.log().length;
  const webhookStart = webhookProxy.log().length;
  const code = await runSuites({
    MW_PRISM_PROXY_URL: proxy.url,
    MW_PRISM_WEBHOOK_PROXY_URL: webhookProxy.url,
    MW_PRISM_MOCK_URL: mock.url,
  });
  // Let the last answers' validation reach the log.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const log = proxy.log().slice(start);
  const webhookLog = webhookProxy.log().slice(webhookStart);
  const found = [...violations(log), ...violations(webhookLog)];
  for (const line of found) process.stdout.write(`${line.trim()}\n`);
  process.stdout.write(
    `prism proxy: ${requests(log)} API requests and ${requests(webhookLog)} webhook deliveries, ` +
      `${found.length} violations; prism mock: ${requests(mock.log())} requests; suites ${code === 0 ? 'passed' : 'failed'}\n`,
  );
  if (code !== 0 || found.length > 0) failed = true;
} catch (error) {
  failed = true;
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await Promise.all([proxy?.stop(), webhookProxy?.stop(), mock?.stop(), upstream?.close()]);
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
