import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletApiError, WalletClient } from '../../src/index.js';
import { TRANSPORTS } from '../faults/harness.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';
import { DEMO_KEY, type Running, runSandbox } from '../testing/helpers.js';

const STATUS_PREFIX = '/merchants/transactions/status/';
/** Ids that would change the path if they were interpolated raw. */
const HOSTILE_IDS = [
  'a/b',
  '../accounts/providers',
  '../../x',
  '...',
  '.a',
  'x/..',
  'id?x=1',
  'id#frag',
  '100%',
  '%2F',
  'a%2Fb',
  '%2e%2e',
  '%2e%2e%2faccounts',
  '%252F',
  'naïve-ü-€-😀',
  'with space',
  ' leading',
  'a\\b',
  '?',
  '#',
  '//evil.example/x',
  'http://evil.example/',
] as const;

let recorder: LocalServer;
const received: string[] = [];
let running: Running;

beforeAll(async () => {
  recorder = await startLocalServer((request, response) => {
    received.push(request.url ?? '');
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ code: 'transaction_not_found', message: 'transaction not found' }));
  });
  running = await runSandbox();
});
afterAll(async () => {
  await Promise.all([recorder.close(), running.close()]);
});
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  received.length = 0;
});

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    test.each(HOSTILE_IDS)('transaction_id %j reaches the server as one status path segment', async (id) => {
      const client = new WalletClient({ apiKey: DEMO_KEY, baseUrl: recorder.url, ...TRANSPORTS[transport] });

      await rejectionOf(client.getTransaction(id));

      expect(received).toHaveLength(1);
      const target = received[0] as string;
      expect(target.startsWith(STATUS_PREFIX)).toBe(true);
      const segment = target.slice(STATUS_PREFIX.length);
      expect(segment).not.toMatch(/[/?#]/);
      expect(decodeURIComponent(segment)).toBe(id);
    });

    test.each(HOSTILE_IDS)('transaction_id %j is looked up by the sandbox status route', async (id) => {
      const client = new WalletClient({
        apiKey: DEMO_KEY,
        baseUrl: running.server.baseUrl,
        ...TRANSPORTS[transport],
      });

      const error = await rejectionOf(client.getTransaction(id));

      // The status route's own code: any other route, or no route, would answer differently.
      expect(error).toBeInstanceOf(WalletApiError);
      expect(error).toMatchObject({ code: 'transaction_not_found', status: 404, endpoint: 'status' });
    });
  },
);
