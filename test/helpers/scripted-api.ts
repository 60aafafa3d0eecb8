import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { WalletClient, type WalletClientOptions } from '../../src/index.js';
import { API_KEY } from './api-server.js';
import { type LocalServer, startLocalServer } from './http-server.js';

/** One answer of the scripted API; `drop` closes the socket without answering. */
export type ScriptedAnswer =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { drop: true };

/** What the scripted API saw of one request. */
export interface ScriptedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The client's port: the same one for two requests means they shared a kept-alive connection. */
  remotePort: number | undefined;
}

/** The client's two transports: `node:http` (the default on Node) and the global `fetch`. */
export const TRANSPORT_OPTIONS = {
  node: {},
  fetch: { fetch: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init) },
} as const satisfies Record<string, WalletClientOptions>;

/** A transport's name, for `describe.each(TRANSPORTS)`. */
export type TransportName = keyof typeof TRANSPORT_OPTIONS;

/** The names of both transports, to run a suite over each. */
export const TRANSPORTS = Object.keys(TRANSPORT_OPTIONS) as TransportName[];

/**
 * A real loopback API answering each request with the next scripted answer (the last one
 * repeats), recording what it saw. Started once per file; the script is reset after each test,
 * and backoff jitter is zero so retries do not wait.
 */
export function useScriptedApi() {
  let server: LocalServer;
  const seen: ScriptedRequest[] = [];
  let script: ScriptedAnswer[] = [];
  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      const { method = '', url = '', headers } = request;
      seen.push({ method, url, headers, remotePort: request.socket.remotePort });
      const next = script.length > 1 ? script.shift() : script[0];
      request.resume();
      if (next === undefined || 'drop' in next) {
        request.socket.destroy();
        return;
      }
      response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      response.end(JSON.stringify(next.body));
    });
  });
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    seen.length = 0;
    script = [];
  });
  afterAll(() => server.close());
  return {
    seen,
    answer: (...answers: ScriptedAnswer[]) => {
      script = answers;
    },
    client: (transport: TransportName, options: WalletClientOptions = {}) =>
      new WalletClient({ apiKey: API_KEY, baseUrl: server.url, ...TRANSPORT_OPTIONS[transport], ...options }),
  };
}
