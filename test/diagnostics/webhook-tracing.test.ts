import diagnostics from 'node:diagnostics_channel';
import { expect, test, vi } from 'vitest';
import { traceWebhooks, type WalletWebhookTrace } from '../../src/diagnostics/webhook-trace.js';
import { createWebhookHandler, type TransactionReader } from '../../src/webhooks/index.js';
import { recordTrace, type TraceEvent, tracedCalls } from '../helpers/trace-recorder.js';
import {
  completedBody as completed,
  post,
  statusOf,
  WEBHOOK_TOKEN as TOKEN,
  userAuthorizedBody as userAuthorized,
} from '../helpers/webhook-fixtures.js';

/** Records every event of `merchant-wallet:webhook` until the test ends. */
const record = () => recordTrace('merchant-wallet:webhook');

const endsOf = (events: TraceEvent[]) =>
  events.filter((event) => event.name === 'asyncEnd').map((event) => event.context);

const reader = (status = statusOf()): TransactionReader => ({ getTransaction: async () => status });

test('a verified transaction delivery is traced with its type, ids, verification, dedupe and answer', async () => {
  const events = record();
  const handler = createWebhookHandler({ verifyWith: reader(), onTransaction: () => {} });

  expect((await handler(post(completed))).status).toBe(200);
  expect((await handler(post(completed))).status).toBe(200);

  expect(events.map((event) => event.name)).toEqual(tracedCalls(2));
  expect(events[0]?.context).toEqual({ method: 'POST' });
  const [first, redelivery] = endsOf(events);
  expect(first).toMatchObject({
    method: 'POST',
    type: 'transaction',
    transactionId: 'tx_1',
    referenceId: 'order-42',
    verified: true,
    duplicate: false,
    status: 200,
    outcome: 'processed',
  });
  expect(redelivery).toMatchObject({ verified: true, duplicate: true, status: 200, outcome: 'duplicate' });
  // The traced function resolves nothing: the Response (whose body a subscriber could consume) is not published.
  expect(first?.result).toBeUndefined();
});

test('an event that disagrees with the status endpoint is traced unverified, answered 503 and failed', async () => {
  const events = record();
  const handler = createWebhookHandler({
    verifyWith: reader(statusOf({ transaction_status: 'failed' })),
    onTransaction: () => {},
  });

  expect((await handler(post(completed))).status).toBe(503);

  const [end] = endsOf(events);
  expect(end).toMatchObject({ type: 'transaction', verified: false, status: 503, outcome: 'failed' });
  expect(end?.duplicate).toBeUndefined();
});

test('without verifyWith a transaction is traced as not verified', async () => {
  const events = record();
  await createWebhookHandler({ onTransaction: () => {}, dedupe: false })(post(completed));

  const [end] = endsOf(events);
  expect(end).toMatchObject({ verified: false, status: 200, outcome: 'processed' });
  expect(end?.duplicate).toBeUndefined();
});

test('a throwing callback is traced as failed with status 500', async () => {
  const events = record();
  await createWebhookHandler({
    onTransaction: () => {
      throw new Error('database down');
    },
  })(post(completed));

  expect(endsOf(events)[0]).toMatchObject({ duplicate: false, status: 500, outcome: 'failed' });
  expect(events.some((event) => event.name === 'error')).toBe(false);
});

test('events without a callback are traced as ignored', async () => {
  const events = record();
  const handler = createWebhookHandler({});
  await handler(post(completed));
  await handler(post(userAuthorized));

  expect(endsOf(events).map((end) => [end.type, end.status, end.outcome])).toEqual([
    ['transaction', 200, 'ignored'],
    ['user_authorized', 200, 'ignored'],
  ]);
});

test('refused deliveries are traced with their 4xx status and no event', async () => {
  const events = record();
  const handler = createWebhookHandler({ onTransaction: () => {}, maxBytes: 64 });
  await handler(post('{not json'));
  await handler(post({ ...completed, padding: 'x'.repeat(100) }));
  await handler(new Request('https://shop.example.com/hook', { method: 'GET' }));

  const ends = endsOf(events);
  expect(ends.map((end) => [end.method, end.status, end.outcome])).toEqual([
    ['POST', 400, 'refused'],
    ['POST', 413, 'refused'],
    ['GET', 405, 'refused'],
  ]);
  expect(ends.every((end) => end.type === undefined && end.transactionId === undefined)).toBe(true);
});

test('no published context holds the user token or e-mail of a user_authorized event', async () => {
  const events = record();
  const handler = createWebhookHandler({ onUserAuthorized: () => {} });

  await handler(post(userAuthorized, { headers: { authorization: `Bearer ${TOKEN}` } }));

  expect(endsOf(events)[0]).toMatchObject({ type: 'user_authorized', status: 200, outcome: 'processed' });
  const published = JSON.stringify(events);
  expect(published).not.toContain(TOKEN);
  expect(published).not.toContain(userAuthorized.user_email);
});

test('with nobody subscribed the handler gets no trace and its answer is passed through', async () => {
  const answer = new Response('ok');
  const handle = vi.fn(async (_request: Request, _trace?: WalletWebhookTrace) => answer);
  const traced = traceWebhooks(handle);

  expect(diagnostics.tracingChannel('merchant-wallet:webhook').hasSubscribers).toBe(false);
  expect(await traced(post(completed))).toBe(answer);
  expect(handle.mock.calls[0]?.[1]).toBeUndefined();

  record();
  expect(await traced(post(completed))).toBe(answer);
  expect(handle.mock.calls[1]?.[1]).toMatchObject({ method: 'POST', status: 200 });
});

test('where node:diagnostics_channel cannot be loaded, deliveries are answered untraced', async () => {
  vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
  vi.resetModules();
  try {
    const { traceWebhooks: untraced } = await import('../../src/diagnostics/webhook-trace.js');
    record();
    const answer = new Response('ok');
    const handle = vi.fn(async (_request: Request, _trace?: WalletWebhookTrace) => answer);

    expect(await untraced(handle)(post(completed))).toBe(answer);
    expect(handle.mock.calls[0]?.[1]).toBeUndefined();
  } finally {
    vi.unstubAllGlobals();
    vi.resetModules();
  }
});
