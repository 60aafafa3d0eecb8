import { WalletClient } from '../../src/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';

/** What each handler of the zoo does wrong, one defect each; `none` is a correct hand-written handler. */
export type Defect =
  | 'none'
  | 'no-dedupe'
  | 'dedupe-without-lease'
  | 'no-read-back'
  | 'ack-before-commit'
  | 'too-slow'
  | 'get-only'
  | 'behind-csrf'
  | 'login-redirect'
  | 'drops-hand-off';

/** A handler under test and its effect count (fulfilments: one per completed payment processed). */
export interface Shop {
  handler: (request: Request) => Promise<Response>;
  effects: () => number;
}

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reference: the SDK's handler, reading every event back, counting fulfilments of completed payments. */
export function referenceShop(baseUrl: string): Shop {
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl, maxRetries: 0 });
  let effects = 0;
  const handler = createWebhookHandler({
    verifyWith: wallet,
    onTransaction: async (_event, context) => {
      if (context.verified && context.status.transaction_status === 'completed') effects++;
    },
  });
  return { handler, effects: () => effects };
}

/** A hand-written handler with one `defect`; with `none` it passes every check. */
export function zooShop(baseUrl: string, defect: Defect): Shop {
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl, maxRetries: 0 });
  let effects = 0;
  const done = new Set<string>();
  const running = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  const fulfil = async (completed: boolean) => {
    if (defect === 'too-slow') {
      // One event at a time, each slow: fine alone, too slow under a burst.
      const turn = queue.then(() => sleep(70));
      queue = turn;
      await turn;
    } else await sleep(20);
    if (defect === 'drops-hand-off') return; // the queue push failed, and nobody noticed
    if (completed) effects++;
  };
  const handler = async (request: Request): Promise<Response> => {
    if (defect === 'get-only') return request.method === 'GET' ? json(200, { ok: true }) : json(405, {});
    if (request.method !== 'POST') return json(405, {}, { allow: 'POST' });
    if (defect === 'behind-csrf' && !request.headers.get('x-csrf-token')) return json(403, { error: 'csrf' });
    if (defect === 'login-redirect')
      return new Response(null, { status: 302, headers: { location: '/login' } });
    const text = await request.text();
    if (text.length > 65_536) return json(413, {});
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(text);
    } catch {
      return json(400, {});
    }
    if (event.event !== 'transaction') return json(200, { ignored: true });
    let status: Record<string, unknown> = event;
    if (defect !== 'no-read-back') {
      try {
        status = { ...(await wallet.getTransaction(String(event.transaction_id))) };
      } catch {
        return json(503, {});
      }
      const differs = ['transaction_status', 'reference_id', 'currency'].some((f) => event[f] !== status[f]);
      if (differs || Number(event.amount) !== Number(status.amount)) return json(503, {});
    }
    const key = `${status.transaction_id}:${status.transaction_status}`;
    const completed = status.transaction_status === 'completed';
    if (defect === 'no-dedupe') {
      await fulfil(completed);
      return json(200, {});
    }
    if (done.has(key)) return json(200, { duplicate: true });
    if (running.has(key)) return json(503, {}, { 'retry-after': '1' });
    if (defect === 'dedupe-without-lease') {
      done.add(key); // seen before it is processed: a copy now gets "200 duplicate" while it runs
      await fulfil(completed);
      return json(200, {});
    }
    if (defect === 'ack-before-commit') {
      done.add(key);
      void fulfil(completed);
      return json(200, {});
    }
    running.add(key);
    try {
      await fulfil(completed);
      done.add(key);
    } finally {
      running.delete(key);
    }
    return json(200, {});
  };
  return { handler, effects: () => effects };
}
