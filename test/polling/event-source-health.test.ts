import { expect, test, vi } from 'vitest';
import { createConnectionStatus, errorLabel } from '../../src/polling/event-source-health.js';

function recordingLogger() {
  const lines: [string, string, Record<string, unknown> | undefined][] = [];
  const at = (level: string) => (message: string, meta?: Record<string, unknown>) =>
    void lines.push([level, message, meta]);
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432 password=s3cret'), {
  code: 'ECONNREFUSED',
});

test('a source that cannot listen at start-up warns once, then logs each further attempt at debug level, and says when it listens again', () => {
  const { lines, logger } = recordingLogger();
  const status = createConnectionStatus('PostgreSQL transaction events', logger);
  expect(status.health()).toMatchObject({ state: 'connecting', failedAttempts: 0 });
  status.failed(refused, 100);
  status.failed(refused, 200);
  expect(status.health()).toMatchObject({
    state: 'reconnecting',
    failedAttempts: 2,
    lastError: 'ECONNREFUSED',
  });
  status.connected();
  expect(status.health()).toEqual({
    state: 'connected',
    since: expect.any(String),
    failedAttempts: 0,
    lastError: 'ECONNREFUSED',
  });
  expect(lines.map(([level, message]) => [level, message])).toEqual([
    ['warn', expect.stringMatching(/^PostgreSQL transaction events: could not listen at start-up; retrying/)],
    ['debug', 'PostgreSQL transaction events: still not listening'],
    ['info', 'PostgreSQL transaction events: listening again'],
  ]);
  expect(lines[0]?.[2]).toEqual({ error: 'ECONNREFUSED', failedAttempts: 1, retryInMs: 100 });
  expect(lines[2]?.[2]).toMatchObject({ failedAttempts: 2 });
});

test('a drop after listening is a warning naming the drop, and since is when the state changed', () => {
  vi.useFakeTimers({ now: Date.parse('2026-11-26T10:00:00Z') });
  try {
    const { lines, logger } = recordingLogger();
    const status = createConnectionStatus('Redis transaction events', logger);
    status.connected();
    vi.setSystemTime(Date.parse('2026-11-26T10:05:00Z'));
    status.failed(new Error('Socket closed unexpectedly'));
    expect(status.health()).toEqual({
      state: 'reconnecting',
      since: '2026-11-26T10:05:00.000Z',
      failedAttempts: 1,
      lastError: 'Error',
    });
    expect(lines).toEqual([
      [
        'warn',
        'Redis transaction events: the listening connection dropped; re-establishing it with backoff, waits poll meanwhile',
        { error: 'Error', failedAttempts: 1 },
      ],
    ]);
    vi.setSystemTime(Date.parse('2026-11-26T10:05:02Z'));
    status.connected();
    expect(lines[1]).toEqual([
      'info',
      'Redis transaction events: listening again',
      { failedAttempts: 1, downMs: 2_000 },
    ]);
  } finally {
    vi.useRealTimers();
  }
});

test('after close(), failures change nothing and nothing is logged', () => {
  const { lines, logger } = recordingLogger();
  const status = createConnectionStatus('events', logger);
  status.connected();
  status.closed();
  status.failed(refused);
  status.connected();
  expect(status.health()).toMatchObject({ state: 'closed', failedAttempts: 0 });
  expect(lines).toEqual([]);
});

test('a logger that throws does not stop the status from following the connection', () => {
  const status = createConnectionStatus('events', {
    warn: () => {
      throw new Error('log sink down');
    },
  });
  expect(() => status.failed(refused)).not.toThrow();
  expect(status.health().state).toBe('reconnecting');
});

test('an error is shown by its code or class name, never by its message', () => {
  expect(errorLabel(refused)).toBe('ECONNREFUSED');
  expect(errorLabel(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe('57P01');
  expect(errorLabel(new TypeError('postgres://wallet:s3cret@db/x'))).toBe('TypeError');
  expect(errorLabel(Object.assign(new Error('x'), { code: 'x'.repeat(80) }))).toBe('Error');
  expect(errorLabel('down')).toBe('string');
  const status = createConnectionStatus('events', undefined);
  status.failed(new Error('connect to postgres://wallet:s3cret@db/x failed'));
  expect(JSON.stringify(status.health())).not.toMatch(/s3cret/);
});
