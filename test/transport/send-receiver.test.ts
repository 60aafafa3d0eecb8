import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, test, vi } from 'vitest';
import type {
  AttemptOutcome,
  AttemptReceiver,
  AttemptRequest,
  Transport,
} from '../../src/transport/attempt.js';
import type { ResponseSlot } from '../../src/transport/response.js';
import { type CallSpec, send, type TransportConfig } from '../../src/transport/send.js';

const NO_HEADERS = { get: () => null };

function answer(status: number, body: unknown): AttemptOutcome {
  return { kind: 'response', status, headers: NO_HEADERS, text: JSON.stringify(body) };
}

function configWith(transport: Transport): TransportConfig {
  return {
    baseUrl: new URL('https://api.example.test/'),
    apiKey: 'sk_send_receiver',
    headers: {},
    maxRetries: 2,
    timeoutMs: 1_000,
    maxResponseBytes: 1 << 20,
    backoff: { baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 1_000 },
    transport,
    logger: undefined,
  };
}

const STATUS_CALL: CallSpec<{ id: string }> = {
  endpoint: 'status',
  method: 'GET',
  path: 'merchants/transactions/status/txn_1',
  validate: (body) => body as { id: string },
};

/** A transport whose `start` answers with `outcomes` in turn, and whose promise form must not be used. */
function startingTransport(outcomes: AttemptOutcome[]) {
  const promised = vi.fn(async (_request: AttemptRequest): Promise<AttemptOutcome> => {
    throw new Error('the promise form was used');
  });
  const start = vi.fn((_request: AttemptRequest, receiver: AttemptReceiver) => {
    const next = outcomes.shift();
    if (next) receiver.arrived(next);
  });
  return { transport: Object.assign(promised, { start }), promised, start };
}

describe('send hands each attempt to the transport and settles the call from its outcome', () => {
  test('a transport with start is used through it, without a promise per attempt', async () => {
    const { transport, promised, start } = startingTransport([answer(200, { id: 'txn_1' })]);

    await expect(send(configWith(transport), STATUS_CALL)).resolves.toEqual({ id: 'txn_1' });
    expect(start).toHaveBeenCalledTimes(1);
    expect(promised).not.toHaveBeenCalled();
  });

  test('a retried attempt comes back through start, and the slot counts both attempts', async () => {
    const { transport, start } = startingTransport([answer(503, {}), answer(200, { id: 'txn_1' })]);
    const slot: ResponseSlot = {};

    await expect(send(configWith(transport), STATUS_CALL, slot)).resolves.toEqual({ id: 'txn_1' });
    expect(start).toHaveBeenCalledTimes(2);
    expect(slot.answered?.response).toMatchObject({ status: 200, attempts: 2 });
  });

  test('while the request channel has a subscriber, a traced attempt still goes through start', async () => {
    const { transport, promised, start } = startingTransport([answer(503, {}), answer(200, { id: 'txn_1' })]);
    const seen: unknown[] = [];
    const onStart = (message: unknown) => seen.push({ ...(message as object) });
    const ended: unknown[] = [];
    const onEnd = (message: unknown) => ended.push({ ...(message as object) });
    subscribe('tracing:merchant-wallet:request:start', onStart);
    subscribe('tracing:merchant-wallet:request:asyncEnd', onEnd);
    try {
      await expect(send(configWith(transport), STATUS_CALL)).resolves.toEqual({ id: 'txn_1' });
    } finally {
      unsubscribe('tracing:merchant-wallet:request:start', onStart);
      unsubscribe('tracing:merchant-wallet:request:asyncEnd', onEnd);
    }
    expect(start).toHaveBeenCalledTimes(2);
    expect(promised).not.toHaveBeenCalled();
    expect(seen).toEqual([
      expect.objectContaining({ endpoint: 'status', attempt: 1 }),
      expect.objectContaining({ endpoint: 'status', attempt: 2 }),
    ]);
    expect(ended).toEqual([
      expect.objectContaining({ attempt: 1, status: 503, outcome: 'response' }),
      expect.objectContaining({ attempt: 2, status: 200, outcome: 'response' }),
    ]);
  });

  test('while the request channel has a subscriber, a transport without start is traced through its promise', async () => {
    const transport = vi.fn(async (_request: AttemptRequest) => answer(200, { id: 'txn_1' }));
    const ended: unknown[] = [];
    const onEnd = (message: unknown) => ended.push({ ...(message as object) });
    subscribe('tracing:merchant-wallet:request:asyncEnd', onEnd);
    try {
      await expect(send(configWith(transport), STATUS_CALL)).resolves.toEqual({ id: 'txn_1' });
    } finally {
      unsubscribe('tracing:merchant-wallet:request:asyncEnd', onEnd);
    }
    expect(transport).toHaveBeenCalledTimes(1);
    expect(ended).toEqual([expect.objectContaining({ attempt: 1, status: 200, outcome: 'response' })]);
  });

  test('a start that throws, on a first attempt or a retry, rejects the call rather than leaving it pending', async () => {
    const broken = new Error('transport bug');
    let attempts = 0;
    const transport = Object.assign(async () => answer(200, {}), {
      start: (_request: AttemptRequest, receiver: AttemptReceiver) => {
        attempts += 1;
        if (attempts === 1) receiver.arrived(answer(503, {}));
        else throw broken;
      },
    });
    const throwsAtOnce = Object.assign(async () => answer(200, {}), {
      start: () => {
        throw broken;
      },
    });

    await expect(send(configWith(transport), STATUS_CALL)).rejects.toBe(broken);
    expect(attempts).toBe(2);
    await expect(send(configWith(throwsAtOnce), STATUS_CALL)).rejects.toBe(broken);
  });

  test('a start that reports failed rejects the call with that error', async () => {
    const broken = new Error('transport bug');
    const transport = Object.assign(async () => answer(200, {}), {
      start: (_request: AttemptRequest, receiver: AttemptReceiver) => receiver.failed(broken),
    });

    await expect(send(configWith(transport), STATUS_CALL)).rejects.toBe(broken);
  });

  test('a transport without start that rejects rejects the call with its error', async () => {
    const broken = new Error('transport bug');
    const transport: Transport = async () => {
      throw broken;
    };

    await expect(send(configWith(transport), STATUS_CALL)).rejects.toBe(broken);
  });

  test('each call is counted in flight once, and ends once even when a broken transport reports twice', async () => {
    const counts = { started: 0, ended: 0 };
    const connections = {
      started: () => {
        counts.started += 1;
      },
      ended: () => {
        counts.ended += 1;
      },
    };
    const twice = Object.assign(async () => answer(200, {}), {
      start: (_request: AttemptRequest, receiver: AttemptReceiver) => {
        receiver.arrived(answer(200, { id: 'txn_1' }));
        throw new Error('transport bug after its outcome');
      },
    });
    const { transport: retried } = startingTransport([answer(503, {}), answer(200, { id: 'txn_2' })]);

    await expect(send({ ...configWith(twice), connections }, STATUS_CALL)).resolves.toEqual({ id: 'txn_1' });
    expect(counts).toEqual({ started: 1, ended: 1 });
    await expect(send({ ...configWith(retried), connections }, STATUS_CALL)).resolves.toEqual({
      id: 'txn_2',
    });
    expect(counts).toEqual({ started: 2, ended: 2 });
  });
});
