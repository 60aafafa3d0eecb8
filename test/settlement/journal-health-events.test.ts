import { expect, test } from 'vitest';
import { createMemoryJournal, WalletClient, WalletConfigError } from '../../src/index.js';
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
