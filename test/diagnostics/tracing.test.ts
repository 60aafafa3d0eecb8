import diagnostics from 'node:diagnostics_channel';
import { describe, expect, test, vi } from 'vitest';
import { tracingChannel } from '../../src/diagnostics/channel.js';
import type { AttemptOutcome, AttemptRequest, Transport } from '../../src/transport/attempt.js';
import { startAttempt } from '../../src/transport/start-attempt.js';
import { API_KEY, depositResult, statusResult, USER_TOKEN } from '../helpers/api-server.js';
import { TRANSPORTS, useScriptedApi } from '../helpers/scripted-api.js';
import { recordTrace, tracedCalls, unsubscribeAfterTest } from '../helpers/trace-recorder.js';

const api = useScriptedApi();
describe.each(TRANSPORTS)('over %s', (transport) => {
  test('each attempt of a deposit is traced with endpoint, method, reference id, attempt, status and outcome', async () => {
    const events = recordTrace('merchant-wallet:request');
    api.answer(
      { status: 503, body: {}, headers: { 'x-request-id': 'req_1' } },
      { status: 201, body: depositResult, headers: { 'x-request-id': 'req_2' } },
    );

    await api
      .client(transport)
      .deposit({ reference_id: 'order-1042', amount: 250, currency: 'KES' }, { userToken: USER_TOKEN });

    expect(events.map((event) => event.name)).toEqual(tracedCalls(2));
    const ends = events.filter((event) => event.name === 'asyncEnd').map((event) => event.context);
    expect(ends[0]).toMatchObject({
      endpoint: 'deposit',
      method: 'POST',
      referenceId: 'order-1042',
      attempt: 1,
      status: 503,
      outcome: 'response',
      requestId: 'req_1',
    });
    expect(ends[1]).toMatchObject({ attempt: 2, status: 201, outcome: 'response', requestId: 'req_2' });
    expect(String(ends[1]?.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/merchants\/transactions\/c2b$/);
    const start = events[0]?.context;
    expect(start).toMatchObject({ endpoint: 'deposit', attempt: 1 });
    expect(start?.status).toBeUndefined();
  });

  test('an attempt without an answer is traced with outcome network, never as an error event', async () => {
    const events = recordTrace('merchant-wallet:request');
    api.answer({ drop: true }, { status: 200, body: statusResult });

    await api.client(transport).getTransaction('txn_c2b_001');

    const ends = events.filter((event) => event.name === 'asyncEnd').map((event) => event.context);
    expect(ends.map((context) => [context.attempt, context.outcome, context.status])).toEqual([
      [1, 'network', undefined],
      [2, 'response', 200],
    ]);
    expect(events.some((event) => event.name === 'error')).toBe(false);
    expect(ends[0]?.referenceId).toBeUndefined();
  });

  test('no published context holds the API key, the user token or the answer body', async () => {
    const events = recordTrace('merchant-wallet:request');
    api.answer({
      status: 401,
      body: { code: 'invalid_api_key', message: `bad key ${API_KEY} for ${USER_TOKEN}` },
      headers: { 'x-request-id': `echo-${USER_TOKEN}` },
    });

    await api
      .client(transport)
      .listProviders({ userToken: USER_TOKEN })
      .catch(() => {});

    const published = JSON.stringify(events);
    expect(events.length).toBeGreaterThan(0);
    expect(published).not.toContain(API_KEY);
    expect(published).not.toContain(USER_TOKEN);
    expect(published).not.toContain('bad key');
  });
});

test('a subscriber that changes the published URL does not change where the request goes', async () => {
  const channel = diagnostics.tracingChannel<unknown, { url: URL }>('merchant-wallet:request');
  const redirect = (context: { url: URL }) => {
    context.url.hostname = 'evil.example';
  };
  const ignore = () => {};
  const subscribers = { start: redirect, end: ignore, asyncStart: ignore, asyncEnd: ignore, error: ignore };
  channel.subscribe(subscribers);
  unsubscribeAfterTest(() => channel.unsubscribe(subscribers));
  api.answer({ status: 200, body: statusResult });

  await expect(api.client('node').getTransaction('txn_c2b_001')).resolves.toEqual(statusResult);
  expect(api.seen).toHaveLength(1);
});

/** The outcome `startAttempt` hands to its receiver. */
function attemptOutcome(request: AttemptRequest, transport: Transport): Promise<AttemptOutcome> {
  return new Promise((arrived, failed) =>
    startAttempt(request, { endpoint: 'status' }, 1, [], transport, { arrived, failed }),
  );
}

test('with nobody subscribed, an attempt builds no trace context and goes out unchanged', async () => {
  const baseUrl = vi.fn(() => new URL('https://api.example.com/'));
  const request = {
    method: 'GET' as const,
    headers: {},
    body: undefined,
    timeoutMs: 1_000,
    signal: undefined,
    maxResponseBytes: 1_048_576,
    path: 'x',
    get baseUrl() {
      return baseUrl();
    },
  };
  const outcome = { kind: 'timeout', maybeSent: false } as const;
  const sent: AttemptRequest[] = [];
  const transport = async (attempt: AttemptRequest) => {
    sent.push(attempt);
    return outcome;
  };

  expect(await attemptOutcome(request, transport)).toBe(outcome);
  expect(baseUrl).not.toHaveBeenCalled();
  expect(sent).toEqual([request]);

  recordTrace('merchant-wallet:request');
  expect(await attemptOutcome(request, transport)).toBe(outcome);
  expect(baseUrl).toHaveBeenCalled();
});

test('where node:diagnostics_channel cannot be loaded there is no channel', () => {
  vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
  try {
    expect(tracingChannel('merchant-wallet:request')).toBeUndefined();
  } finally {
    vi.unstubAllGlobals();
  }
});
