import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createMemoryJournal, HEALTH_CHANNEL, WalletClient, WalletConfigError } from '../../src/index.js';
import { createConnectionStatus } from '../../src/polling/event-source-health.js';

const wallet = new WalletClient({
  apiKey: 'sk_sandbox_demo_shop',
  baseUrl: 'http://127.0.0.1:1',
  journal: createMemoryJournal(),
});

test('journalHealth({ events }) reports where the event source stands: reconnecting, since when, after which error', async () => {
  const status = createConnectionStatus('events', undefined);
  const events = { health: () => status.health() };
  status.failed(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 100);
  expect((await wallet.journalHealth({ events })).events).toEqual({
    state: 'reconnecting',
    since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    failedAttempts: 1,
    lastError: 'ECONNREFUSED',
  });
  status.connected();
  expect((await wallet.journalHealth({ events })).events).toMatchObject({
    state: 'connected',
    failedAttempts: 0,
  });
});

test('without events, journalHealth() has no events section', async () => {
  expect('events' in (await wallet.journalHealth())).toBe(false);
});

test('events that are not an event source are refused, naming events', async () => {
  const refused = await wallet.journalHealth({ events: {} as never }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(WalletConfigError);
  expect((refused as WalletConfigError).option).toBe('events');
});

describe('the events_not_listening alarm', () => {
  const START = Date.parse('2026-11-26T10:00:00Z');
  const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
  const at = (ms: number) => vi.setSystemTime(START + ms);
  const alarmsOf = async (options: Parameters<typeof wallet.journalHealth>[0]) =>
    (await wallet.journalHealth(options)).alarms;

  afterEach(() => {
    vi.useRealTimers();
  });

  test('a source reconnecting for a minute raises it, published on HEALTH_CHANNEL with where it stands; listening again clears it', async () => {
    vi.useFakeTimers({ now: START, toFake: ['Date'] });
    const status = createConnectionStatus('events', undefined);
    const events = { health: () => status.health() };
    status.connected();
    at(5_000);
    status.failed(refused, 100);
    at(20_000);
    status.failed(refused, 200);
    const messages: unknown[] = [];
    const listener = (message: unknown) => void messages.push(message);
    subscribe(HEALTH_CHANNEL, listener);
    try {
      at(5_000 + 59_999);
      expect(await alarmsOf({ events })).toEqual([]);
      expect(messages).toEqual([]);
      at(5_000 + 60_000);
      expect(await alarmsOf({ events })).toEqual(['events_not_listening']);
      expect(messages).toEqual([
        {
          alarm: 'events_not_listening',
          state: 'reconnecting',
          since: '2026-11-26T10:00:05.000Z',
          failedAttempts: 2,
          lastError: 'ECONNREFUSED',
          downMs: 60_000,
        },
      ]);
      expect(JSON.stringify(messages)).not.toContain('10.0.0.7');
      status.connected();
      expect(await alarmsOf({ events })).toEqual([]);
      expect(messages).toHaveLength(1);
    } finally {
      unsubscribe(HEALTH_CHANNEL, listener);
    }
  });

  test('a first attempt that has not answered counts as not listening; a closed source and no source raise nothing', async () => {
    vi.useFakeTimers({ now: START, toFake: ['Date'] });
    const status = createConnectionStatus('events', undefined);
    const events = { health: () => status.health() };
    at(60_000);
    expect(status.health().state).toBe('connecting');
    expect(await alarmsOf({ events })).toEqual(['events_not_listening']);
    status.closed();
    expect(await alarmsOf({ events })).toEqual([]);
    expect(await alarmsOf({})).toEqual([]);
  });

  test('notListeningAfterMs sets the threshold', async () => {
    vi.useFakeTimers({ now: START, toFake: ['Date'] });
    const status = createConnectionStatus('events', undefined);
    const events = { health: () => status.health() };
    status.failed(refused);
    at(4_999);
    expect(await alarmsOf({ events, notListeningAfterMs: 5_000 })).toEqual([]);
    at(5_000);
    expect(await alarmsOf({ events, notListeningAfterMs: 5_000 })).toEqual(['events_not_listening']);
    expect(await alarmsOf({ events })).toEqual([]);
  });

  test.each([0, -1, Number.NaN, '60s'])(
    'notListeningAfterMs %s is refused with a WalletConfigError naming it',
    async (value) => {
      const refusal = await wallet
        .journalHealth({ notListeningAfterMs: value as number })
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(WalletConfigError);
      expect((refusal as WalletConfigError).option).toBe('notListeningAfterMs');
      expect((refusal as WalletConfigError).message).toMatch(
        /^notListeningAfterMs: must be a positive number of milliseconds/,
      );
    },
  );
});
