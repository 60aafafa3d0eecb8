import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type CertifyReport,
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { type Defect, referenceShop, type Shop, zooShop } from '../testing/certify-zoo.js';
import { CONTROL_KEY, runCli } from './helpers.js';

let sandbox: Sandbox;
let server: SandboxServer;
const endpoints: Server[] = [];

/** Serves a Fetch-style handler on a loopback port; answers its URL. */
async function serve(shop: Shop): Promise<string> {
  const endpoint = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = req.method === 'GET' ? undefined : Buffer.concat(chunks);
    const response = await shop.handler(
      new Request(`http://127.0.0.1${req.url}`, { method: req.method ?? 'GET', ...(body ? { body } : {}) }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  endpoints.push(endpoint);
  return `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhooks`;
}

beforeAll(async () => {
  sandbox = createSandbox(undefined, { controlKey: CONTROL_KEY });
  server = await startSandboxServer({ sandbox, port: 0 });
});
afterAll(async () => {
  for (const endpoint of endpoints) endpoint.closeAllConnections();
  for (const endpoint of endpoints) endpoint.close();
  sandbox.close();
  await server.close();
});

const env = () => ({ WALLET_SANDBOX_KEY: CONTROL_KEY, WALLET_BASE_URL: server.baseUrl });

describe('merchant-wallet certify <url>', () => {
  test('the reference shop: a line per check, the remote mode says what it cannot see, exit 0', async () => {
    const url = await serve(referenceShop(server.baseUrl));
    const run = await runCli(['certify', url, '--timeout-ms', '4000'], { env: env() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`certify ${url} (remote mode)`);
    expect(run.stdout).toMatch(
      /^PASS {2}route-accepts-post +a genuine event is accepted \(2xx\) by POST: HTTP 200/m,
    );
    expect(run.stdout).toMatch(/^WARN {2}copy-waits-for-first .*the remote mode sees answers only/m);
    expect(run.stdout).toMatch(/\d+ passed, \d+ warned, 0 failed/);
    expect(run.stdout).toContain('cannot be seen from outside; run certifyHandler');
  }, 120_000);

  test.each([
    ['get-only', 'route-accepts-post', 'mount the handler for POST'],
    ['too-slow', 'burst', "answer within the sender's timeout"],
  ] as [Defect, string, string][])(
    'a %s endpoint fails %s with its fix line, and exits 1',
    async (defect, check, fix) => {
      const url = await serve(zooShop(server.baseUrl, defect));
      const run = await runCli(['certify', url, '--timeout-ms', '3000'], { env: env() });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(new RegExp(`^FAIL {2}${check} `, 'm'));
      expect(run.stdout).toContain(`fix: ${fix}`);
    },
    120_000,
  );

  test('--json prints the report, the same checks as the human output', async () => {
    const url = await serve(zooShop(server.baseUrl, 'behind-csrf'));
    const run = await runCli(['certify', url, '--json'], { env: env() });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as CertifyReport;
    expect(report).toMatchObject({ url, mode: 'remote', totals: { fail: 1 } });
    expect(report.checks[0]).toMatchObject({ id: 'route-accepts-post', verdict: 'fail' });
    expect(report.notRun.length).toBeGreaterThanOrEqual(12);
  }, 60_000);

  test('a URL that is not http(s) is a usage error; nothing is sent', async () => {
    const run = await runCli(['certify', 'ftp://x'], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('<url> must be an absolute http(s) URL');
  });

  test('sandbox forge sends a forgery from the command line', async () => {
    const shop = zooShop(server.baseUrl, 'none');
    const url = await serve(shop);
    const run = await runCli(['sandbox', 'forge', 'unknown-transaction', '--url', url], { env: env() });
    expect(run).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^forged unknown-transaction sent as whd_\d+ → /),
    });
    const bad = await runCli(['sandbox', 'forge', 'nonsense'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown forgery "nonsense": one of unknown-transaction');
  }, 60_000);
});
