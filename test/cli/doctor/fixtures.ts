import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DoctorDeps } from '../../../src/cli/doctor/check.js';
import type { DoctorConfig } from '../../../src/cli/doctor/config.js';
import { createMemoryJournal } from '../../../src/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../../src/testing/index.js';
import { type LocalServer, startLocalServer } from '../../helpers/http-server.js';
import { DEMO_KEY } from '../helpers.js';

type Answer = [status: number, body?: string, headers?: Record<string, string>];

/** What each route answers, as merchants get webhook routes wrong, and one right one (`/ok`). */
function routeAnswer(path: string, post: boolean): Answer {
  switch (path) {
    case '/ok':
      return post ? [400, '{"error":"invalid_json"}'] : [404];
    case '/method':
      return [405, 'Method Not Allowed', { allow: 'PUT' }];
    case '/csrf':
      return post ? [403, 'Forbidden: invalid CSRF token'] : [200];
    case '/behind-login':
      return [302, '', { location: '/accounts/login?next=/wallet/webhooks' }];
    case '/lenient':
      return [200, '{"received":true}'];
    case '/get-only':
      return post ? [404, 'Cannot POST /get-only'] : [200, 'hello'];
    default:
      return [404, 'Not Found'];
  }
}

function webhookRoutes(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  request.resume();
  const [status, body = '', headers = {}] = routeAnswer(path, request.method === 'POST');
  response.writeHead(status, { 'content-type': 'text/plain', ...headers });
  response.end(body);
}

/** A fresh 32-byte key in base64. */
export const newKey = (bytes = 32): string => randomBytes(bytes).toString('base64');

/** A sandbox, a server of webhook routes, and a configuration every check passes with. */
export interface Fixtures {
  readonly sandbox: Sandbox;
  readonly api: SandboxServer;
  readonly routes: LocalServer;
  /** Every check passes (or is skipped for want of a store) with it. */
  readonly good: DoctorConfig;
  /** The deps of {@link good}: an empty memory journal. */
  readonly deps: Partial<DoctorDeps>;
  close(): Promise<void>;
}

export async function startFixtures(): Promise<Fixtures> {
  const sandbox = createSandbox();
  const api = await startSandboxServer({ sandbox, port: 0 });
  const routes = await startLocalServer(webhookRoutes);
  return {
    sandbox,
    api,
    routes,
    good: {
      apiKey: DEMO_KEY,
      baseUrl: api.baseUrl,
      webhookUrl: `${routes.url}/ok`,
      loginRedirectUrl: 'https://shop.example.com/wallet/connected',
      allowedRedirectHosts: ['shop.example.com'],
      keyring: { primary: 'k2', keys: { k2: newKey(), k1: newKey() } },
    },
    deps: { journal: createMemoryJournal() },
    close: async () => {
      sandbox.close();
      await Promise.all([api.close(), routes.close()]);
    },
  };
}

/** A fetch that sends requests for `from` (an origin) to `to`, as DNS would for a live host. */
export function routeOrigin(from: string, to: string): typeof globalThis.fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return fetch(url.startsWith(from) ? to + url.slice(from.length) : url, init);
  };
}

/** A memory journal holding one pending deposit recorded `ageMs` ago that no sweeper has looked at. */
export async function journalWithPendingPayment(ageMs: number) {
  const journal = createMemoryJournal();
  await journal.record({ referenceId: 'order-7', endpoint: 'deposit', body: { reference_id: 'order-7' } });
  await journal.update('order-7', {
    state: 'accepted',
    transactionId: 'txn_000007',
    transactionStatus: 'pending',
  });
  const then = new Date(Date.now() - ageMs).toISOString();
  const list = journal.list.bind(journal) as (
    state: never,
  ) => Promise<import('../../../src/index.js').PaymentIntent[]>;
  return {
    ...journal,
    // The journal as it reads `ageMs` later: the same intent, recorded and changed back then.
    list: (async (state: never) =>
      (await list(state)).map((intent) => ({
        ...intent,
        createdAt: then,
        updatedAt: then,
      }))) as typeof journal.list,
  };
}
