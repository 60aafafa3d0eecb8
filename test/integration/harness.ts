import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, beforeEach } from 'vitest';
import { UPSTREAM_HEADER } from '../../scripts/prism/upstream-switch.js';
import { WalletClient, type WalletClientOptions } from '../../src/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  sandboxHandlers,
  startSandboxServer,
} from '../../src/testing/index.js';

/** Credentials of the default seed. */
export const KEYS = {
  demo: 'sk_sandbox_demo_shop',
  other: 'sk_sandbox_other_shop',
  closed: 'sk_sandbox_closed_shop',
} as const;
export const TOKENS = {
  alice: 'tok_sandbox_alice',
  bob: 'tok_sandbox_bob',
  carol: 'tok_sandbox_carol',
  aliceAtOtherShop: 'tok_sandbox_alice_other',
} as const;

/** The client's two transports: `node:http` (the default on Node) and a given `fetch`. */
export type TransportName = 'node' | 'fetch';
export const TRANSPORTS: readonly TransportName[] = ['node', 'fetch'];

/** A sandbox behind either the real server or msw, and clients for it. */
export interface Target {
  readonly kind: 'server' | 'msw';
  readonly sandbox: Sandbox;
  readonly baseUrl: string;
  readonly authUrl: string;
  /** A client of the demo merchant unless `options.apiKey` says otherwise. */
  client(transport: TransportName, options?: WalletClientOptions): WalletClient;
  close(): Promise<void>;
}

/** A fixed clock, so `date_completed` is the same in every run and on both targets. */
export const SANDBOX_NOW = new Date('2026-03-04T05:06:07Z');

function sandboxOptions(options: SandboxOptions): SandboxOptions {
  return { now: () => SANDBOX_NOW, ...options };
}

/**
 * Set by scripts/openapi-prism.ts, which runs these suites with Prism's validation proxy (checking
 * every request and answer against openapi/openapi.json) between the client and the sandbox.
 */
const CONTRACT_PROXY_URL = process.env.MW_PRISM_PROXY_URL;

/** Whether API requests go through the contract-checking proxy. */
export const VIA_CONTRACT_PROXY = CONTRACT_PROXY_URL !== undefined;

function clientFactory(baseUrl: string, upstream?: string) {
  return (transport: TransportName, options: WalletClientOptions = {}) =>
    new WalletClient({
      apiKey: KEYS.demo,
      baseUrl,
      // Read at call time: msw replaces globalThis.fetch once it listens.
      ...(transport === 'fetch' ? { fetch: (input, init) => globalThis.fetch(input, init) } : {}),
      ...options,
      ...(upstream === undefined ? {} : { headers: { ...options.headers, [UPSTREAM_HEADER]: upstream } }),
    });
}

/** The sandbox served by `startSandboxServer` on a free loopback port. */
export async function startServerTarget(options: SandboxOptions = {}): Promise<Target> {
  const sandbox = createSandbox(undefined, sandboxOptions(options));
  const server = await startSandboxServer({ sandbox, port: 0 });
  // Through the proxy, the API is at the proxy; the login page, a browser page, stays direct.
  const baseUrl = CONTRACT_PROXY_URL ?? server.baseUrl;
  return {
    kind: 'server',
    sandbox,
    ...server,
    baseUrl,
    client: CONTRACT_PROXY_URL ? clientFactory(baseUrl, server.baseUrl) : clientFactory(baseUrl),
    close: async () => {
      sandbox.close();
      await server.close();
    },
  };
}

const MSW_URLS = { baseUrl: 'https://wallet.test', authUrl: 'https://wallet.test/auth' };

/**
 * The sandbox served by msw handlers, with `onUnhandledRequest: 'error'`. Requests to
 * `passthroughOrigins` (a real sandbox server in the same test) go to the network untouched.
 */
export async function startMswTarget(
  options: SandboxOptions = {},
  passthroughOrigins: readonly string[] = [],
): Promise<Target & { readonly msw: ReturnType<typeof setupServer> }> {
  const sandbox = createSandbox(undefined, sandboxOptions(options));
  const msw = setupServer(
    ...passthroughOrigins.map((origin) => http.all(`${origin}/*`, () => passthrough())),
    ...(await sandboxHandlers(sandbox, MSW_URLS)),
  );
  msw.listen({ onUnhandledRequest: 'error' });
  return {
    kind: 'msw',
    sandbox,
    msw,
    ...MSW_URLS,
    client: clientFactory(MSW_URLS.baseUrl),
    close: async () => {
      msw.close();
      sandbox.close();
    },
  };
}

/**
 * A `fetch` that drops request headers on the way out, as a misconfigured proxy would: the
 * only way a `WalletClient`, which always sends its credentials, can reach the codes for
 * missing ones.
 */
export function fetchWithout(...names: string[]): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    for (const name of names) headers.delete(name);
    const body = request.body === null ? null : await request.arrayBuffer();
    return globalThis.fetch(request.url, {
      method: request.method,
      headers,
      body,
      redirect: request.redirect,
      signal: request.signal,
    });
  };
}

/** A sandbox server target started before each test of the file and closed after it: call it at the top. */
export function useServerTarget(options: SandboxOptions = {}): () => Target {
  let target: Target | undefined;
  beforeEach(async () => {
    target = await startServerTarget(options);
  });
  afterEach(() => target?.close());
  return () => target as Target;
}
