import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  type SandboxSeed,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';

/** Credentials of the default seed. */
export const DEMO_KEY = 'sk_sandbox_demo_shop';
export const OTHER_KEY = 'sk_sandbox_other_shop';
export const CLOSED_KEY = 'sk_sandbox_closed_shop';
export const ALICE = 'tok_sandbox_alice';
export const BOB = 'tok_sandbox_bob';
export const CAROL = 'tok_sandbox_carol';

/** A request in terms of the API, not of fetch. */
export interface ApiCall {
  method?: string;
  path: string;
  key?: string;
  token?: string;
  /** Sent as JSON unless a string. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

/** What came back: status, parsed JSON (or text) and headers. */
export interface ApiAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Sends `call` to `baseUrl` with the global fetch. */
export async function callApi(baseUrl: string, call: ApiCall): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.key !== undefined) headers['x-api-key'] = call.key;
  if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
  let body: string | undefined;
  if (call.body !== undefined) {
    body = typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    headers['content-type'] = call.contentType ?? 'application/json';
  }
  const response = await fetch(baseUrl + call.path, {
    method: call.method ?? (call.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Non-JSON answers (HTML pages) stay text.
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** A sandbox served on a free loopback port. */
export interface Running {
  sandbox: Sandbox;
  server: SandboxServer;
  api: (call: ApiCall) => Promise<ApiAnswer>;
  close: () => Promise<void>;
}

/** Starts a sandbox server; call `close` in `afterAll`/`afterEach`. */
export async function runSandbox(seed?: SandboxSeed, options?: SandboxOptions): Promise<Running> {
  const sandbox = createSandbox(seed, options);
  const server = await startSandboxServer({ sandbox, port: 0 });
  return {
    sandbox,
    server,
    api: (call) => callApi(server.baseUrl, call),
    close: async () => {
      sandbox.close();
      await server.close();
    },
  };
}

/** A deposit body with a fresh reference id. */
let references = 0;
export function deposit(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { reference_id: `ref-${++references}-${Date.now()}`, amount: 10, currency: 'KES', ...fields };
}

/**
 * Starts a deposit that Bob's wallet cannot cover, so it waits on his `mpesa`
 * provider account; returns the answer and the pending transaction's id.
 */
export async function startPendingDeposit(
  run: Pick<Running, 'api'>,
  fields: Record<string, unknown> = {},
): Promise<{ answer: ApiAnswer; id: string }> {
  const answer = await run.api({
    path: '/merchants/transactions/c2b',
    key: DEMO_KEY,
    token: BOB,
    body: deposit({ amount: 500, payment_provider: 'mpesa', ...fields }),
  });
  return { answer, id: (answer.body as { transaction_id: string }).transaction_id };
}

/** A local webhook receiver that answers with the statuses given, then 200. */
export interface Receiver {
  url: string;
  received: { path: string; body: unknown; headers: IncomingMessage['headers'] }[];
  /** Statuses to answer with, consumed one per request. */
  queue: number[];
  close: () => Promise<void>;
}

/** Starts a webhook receiver on a free loopback port. */
export async function startReceiver(queue: number[] = []): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    received.push({ path: req.url ?? '', body: JSON.parse(text), headers: req.headers });
    const status = receiver.queue.shift() ?? 200;
    res.writeHead(status, status === 302 ? { location: 'http://127.0.0.1:9/elsewhere' } : {});
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    queue,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return receiver;
}

/** The `{code, message}` of an error body in the default shape. */
export function codeOf(answer: ApiAnswer): string | undefined {
  return (answer.body as { code?: string }).code;
}

/** A sandbox whose demo merchant sends its webhooks to a fresh {@link Receiver}. */
export interface RunningWithReceiver {
  run: Running;
  receiver: Receiver;
  close: () => Promise<void>;
}

/** Starts a receiver and a sandbox whose demo merchant's auth and deposit webhooks go to it. */
export async function runWithReceiver(options?: SandboxOptions): Promise<RunningWithReceiver> {
  const receiver = await startReceiver();
  const run = await runSandbox(undefined, options);
  run.sandbox.updateMerchant('app_demo_shop', {
    depositWebhookUrl: receiver.url,
    authWebhookUrl: receiver.url,
  });
  return {
    run,
    receiver,
    close: async () => {
      await run.close();
      await receiver.close();
    },
  };
}
