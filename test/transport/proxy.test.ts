import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, WalletConfigError, WalletConnectionError } from '../../src/index.js';
import { isExempt, proxyFor } from '../../src/transport/proxy-env.js';
import { API_KEY, statusResult } from '../helpers/api-server.js';
import { finished } from '../helpers/child-process.js';
import { type ForwardProxy, startForwardProxy } from '../helpers/forward-proxy.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function proxy(options?: { refuse?: number }): Promise<ForwardProxy> {
  const started = await startForwardProxy(options);
  closers.push(() => started.close());
  return started;
}

/** The status API on plain http, recording the headers of what reached it. */
async function statusApi(): Promise<LocalServer & { seen: Array<Record<string, unknown>> }> {
  const seen: Array<Record<string, unknown>> = [];
  const server = await startLocalServer((request, response) => {
    seen.push({ url: request.url, ...request.headers });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(statusResult));
  });
  closers.push(() => server.close());
  return { ...server, seen };
}

/** The status API on https with the test certificate for 127.0.0.1. */
async function secureStatusApi(): Promise<{ url: string; seen: Array<Record<string, unknown>> }> {
  const seen: Array<Record<string, unknown>> = [];
  const server = createHttpsServer(
    { key: readFileSync(fixture('tls/localhost.key')), cert: readFileSync(fixture('tls/localhost.crt')) },
    (request, response) => {
      seen.push({ url: request.url, ...request.headers });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(statusResult));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Reads one status in a child process configured by `env` alone, trusting the test certificate. */
async function statusFromChild(env: Record<string, string>): Promise<Record<string, unknown>> {
  const script = fixture('status-through-env.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, statusResult.transaction_id], {
    env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: fixture('tls/localhost.crt'), ...env },
  });
  const run = await finished(child);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

describe('HTTP_PROXY', () => {
  test('an http request goes to the proxy in absolute form and its answer comes back', async () => {
    const api = await statusApi();
    const forward = await proxy();
    vi.stubEnv('HTTP_PROXY', forward.url);
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    const status = await wallet.getTransaction(statusResult.transaction_id);
    await wallet.close();

    expect(status).toEqual(statusResult);
    expect(forward.requestLines).toEqual([
      `GET ${api.url}/merchants/transactions/status/${statusResult.transaction_id} HTTP/1.1`,
    ]);
    expect(api.seen).toMatchObject([
      {
        url: `/merchants/transactions/status/${statusResult.transaction_id}`,
        host: new URL(api.url).host,
        'x-api-key': API_KEY,
      },
    ]);
  });

  test('the lowercase http_proxy wins over HTTP_PROXY', async () => {
    const api = await statusApi();
    const forward = await proxy();
    vi.stubEnv('HTTP_PROXY', 'http://127.0.0.1:9');
    vi.stubEnv('http_proxy', forward.url);
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    await wallet.getTransaction(statusResult.transaction_id);
    await wallet.close();

    expect(forward.requestLines).toHaveLength(1);
  });

  test('credentials in the proxy URL are sent as Proxy-Authorization', async () => {
    const api = await statusApi();
    const forward = await proxy();
    vi.stubEnv('HTTP_PROXY', forward.url.replace('http://', 'http://ops:s%40cret@'));
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    await wallet.getTransaction(statusResult.transaction_id);
    await wallet.close();

    const expected = `Basic ${Buffer.from('ops:s@cret').toString('base64')}`;
    expect(forward.heads[0]).toContain(`proxy-authorization: ${expected}`);
  });

  test('a host listed in NO_PROXY is reached directly', async () => {
    const api = await statusApi();
    const forward = await proxy();
    vi.stubEnv('HTTP_PROXY', forward.url);
    vi.stubEnv('NO_PROXY', 'example.com, 127.0.0.1');
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    await expect(wallet.getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);
    await wallet.close();

    expect(forward.heads).toEqual([]);
    expect(api.seen).toHaveLength(1);
  });

  test('a proxy variable that is not a URL is a WalletConfigError naming the variable', () => {
    vi.stubEnv('HTTP_PROXY', 'ftp://proxy.internal');

    expect(() => new WalletClient({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:1' })).toThrow(
      expect.objectContaining({ name: 'WalletConfigError', option: 'HTTP_PROXY' }),
    );
  });

  test.each(['HTTP_PROXY', 'HTTPS_PROXY'])(
    'proxy credentials that are not valid percent-encoding in %s are a WalletConfigError that never quotes them',
    (name) => {
      vi.stubEnv(name, 'http://ops:50%off@proxy.internal:3128');
      const baseUrl = name === 'HTTP_PROXY' ? 'http://127.0.0.1:1' : 'https://api.example.com';

      let error: unknown;
      try {
        new WalletClient({ apiKey: API_KEY, baseUrl });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ name: 'WalletConfigError', option: name });
      expect(String((error as Error).message)).not.toContain('50%off');
    },
  );
});

test('proxy variables are read when the client is built: setting one later does not reroute it', async () => {
  const api = await statusApi();
  const forward = await proxy();
  const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });
  vi.stubEnv('HTTP_PROXY', forward.url);

  await expect(wallet.getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);
  await wallet.close();
  expect(forward.heads).toEqual([]);
  expect(api.seen).toHaveLength(1);
});

test('a withOptions client for another scheme whose proxy variable is bad sends nothing and names the variable', async () => {
  vi.stubEnv('HTTP_PROXY', 'ftp://proxy.internal');
  const api = await statusApi();
  const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: 'https://api.example.com' });
  const plain = wallet.withOptions({ baseUrl: api.url, maxRetries: 0 });

  const error = await plain.getTransaction(statusResult.transaction_id).catch((caught: unknown) => caught);

  expect(error).toBeInstanceOf(WalletConnectionError);
  expect((error as Error).message).toContain('HTTP_PROXY: must be a proxy URL');
  expect(api.seen).toEqual([]);
  await wallet.close();
});

describe('HTTPS_PROXY', () => {
  test('a tunnel the proxy never answers is closed by close(), after the call timed out', async () => {
    const held: Socket[] = [];
    // Reads (so it sees the client hang up) but never answers the CONNECT.
    const silent = createNetServer((socket) => {
      held.push(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => silent.close(() => resolve())));
    vi.stubEnv('HTTPS_PROXY', `http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    const wallet = new WalletClient({
      apiKey: API_KEY,
      baseUrl: 'https://api.example.com',
      timeoutMs: 200,
      maxRetries: 0,
    });

    await expect(wallet.getTransaction(statusResult.transaction_id)).rejects.toMatchObject({
      name: 'WalletTimeoutError',
    });
    expect(held).toHaveLength(1);
    const closedByClient = new Promise((resolve) => held[0]?.once('close', resolve));
    await wallet.close();

    await closedByClient;
    expect(held[0]?.destroyed).toBe(true);
  });

  /** One status read over https with HTTPS_PROXY set, in a child process that trusts the test certificate. */
  async function readThroughProxy(options: { refuse?: number; noProxy?: (apiHost: string) => string } = {}) {
    const api = await secureStatusApi();
    const forward = await proxy(options.refuse ? { refuse: options.refuse } : {});
    const apiHost = new URL(api.url).host;
    const result = await statusFromChild({
      WALLET_API_KEY: API_KEY,
      WALLET_BASE_URL: api.url,
      HTTPS_PROXY: forward.url,
      ...(options.noProxy ? { NO_PROXY: options.noProxy(apiHost) } : {}),
    });
    return { api, apiHost, forward, result };
  }

  test('an https request goes through a CONNECT tunnel and the proxy never reads the API key', async () => {
    const { api, apiHost, forward, result } = await readThroughProxy();

    expect(result).toEqual({ status: statusResult });
    expect(forward.tunnels).toEqual([apiHost]);
    expect(forward.requestLines).toEqual([]);
    expect(api.seen).toMatchObject([{ 'x-api-key': API_KEY }]);
    expect(forward.seen()).toContain('CONNECT');
    expect(forward.seen()).not.toContain(API_KEY);
    expect(forward.seen()).not.toContain('/merchants/');
  });

  test('a proxy that refuses the tunnel is a WalletConnectionError naming the refusal, and the API sees nothing', async () => {
    const { api, result } = await readThroughProxy({ refuse: 403 });

    expect(result).toMatchObject({ error: { name: 'WalletConnectionError' } });
    expect(JSON.stringify(result)).toContain('CONNECT answered HTTP 403');
    expect(api.seen).toEqual([]);
  });

  test('NO_PROXY with a matching port entry sends https directly', async () => {
    const { api, forward, result } = await readThroughProxy({ noProxy: (apiHost) => apiHost });

    expect(result).toEqual({ status: statusResult });
    expect(api.seen).toHaveLength(1);
    expect(forward.heads).toEqual([]);
  });
});

describe('the agent option', () => {
  test('a given agent carries the requests, is not proxied, and stays open after close()', async () => {
    const api = await statusApi();
    const forward = await proxy();
    vi.stubEnv('HTTP_PROXY', forward.url);
    const agent = new Agent({ keepAlive: true });
    closers.push(async () => agent.destroy());
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url, agent: { http: agent } });

    await wallet.getTransaction(statusResult.transaction_id);
    await wallet.close();

    expect(forward.heads).toEqual([]);
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    expect(Object.values(agent.freeSockets).flat()[0]?.destroyed).toBe(false);
  });

  test('a given agent is not refused over a proxy variable it does not use', async () => {
    const api = await statusApi();
    vi.stubEnv('HTTP_PROXY', 'ftp://proxy.internal');
    const agent = new Agent({ keepAlive: true });
    closers.push(async () => agent.destroy());
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url, agent: { http: agent } });

    await expect(wallet.getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);
    await wallet.close();
    expect(api.seen).toHaveLength(1);
  });

  test.each([
    [{ agent: { https: {} } }, 'agent.https', 'must be an http.Agent or https.Agent'],
    [{ agent: { tls: new Agent() } }, 'agent.tls', 'is unknown'],
    [{ agent: 'keep-alive' }, 'agent', 'must be an object'],
    [{ agent: { http: new Agent() }, fetch }, 'agent', 'not to a given fetch'],
    [{ maxSockets: 8, fetch }, 'maxSockets', 'not to a given fetch'],
    [{ maxSockets: 0 }, 'maxSockets', 'must be an integer from 1'],
    [{ maxSockets: 2.5 }, 'maxSockets', 'must be an integer from 1'],
  ])('%o is refused naming %s', (options, option, problem) => {
    const construct = () =>
      new WalletClient({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:1', ...(options as object) });

    expect(construct).toThrow(WalletConfigError);
    expect(construct).toThrow(expect.objectContaining({ option, message: expect.stringContaining(problem) }));
  });
});

describe('proxy selection', () => {
  const target = new URL('https://api.wallet.test:8443/');

  test('HTTPS_PROXY serves https targets and HTTP_PROXY does not', () => {
    expect(proxyFor(target, { HTTP_PROXY: 'http://p:1' })).toBeUndefined();
    expect(proxyFor(target, { HTTPS_PROXY: 'http://p:1' })?.href).toBe('http://p:1/');
  });

  test('a bare host:port is taken as an http proxy', () => {
    expect(proxyFor(target, { https_proxy: 'proxy.internal:3128' })?.href).toBe(
      'http://proxy.internal:3128/',
    );
  });

  test.each([
    ['*', true],
    ['wallet.test', true],
    ['.wallet.test', true],
    ['*.wallet.test', true],
    ['api.wallet.test:8443', true],
    ['api.wallet.test:443', false],
    ['other.test,  api.wallet.test', true],
    ['allet.test', false],
    ['api.wallet.testing', false],
    ['', false],
  ])('NO_PROXY=%j exempts https://api.wallet.test:8443: %s', (noProxy, exempt) => {
    expect(isExempt(target, noProxy)).toBe(exempt);
  });

  test('IPv6 entries match bracketed and bare', () => {
    const v6 = new URL('http://[::1]:8080/');
    expect(isExempt(v6, '::1')).toBe(true);
    expect(isExempt(v6, '[::1]:8080')).toBe(true);
    expect(isExempt(v6, '[::1]:9090')).toBe(false);
  });

  test('the connection error of an unreachable proxy says the request was never sent', async () => {
    const api = await statusApi();
    vi.stubEnv('HTTP_PROXY', 'http://127.0.0.1:9');
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url, maxRetries: 0 });

    const error = await wallet.getTransaction(statusResult.transaction_id).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(WalletConnectionError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(api.seen).toEqual([]);
  });
});
