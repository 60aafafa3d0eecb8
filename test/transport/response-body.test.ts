import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  WalletApiError,
  WalletClient,
  WalletConfigError,
  WalletOutcomeUnknownError,
  WalletResponseValidationError,
} from '../../src/index.js';
import { TRANSPORTS } from '../faults/harness.js';
import { depositResult, statusResult } from '../helpers/api-server.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

/** How the server answers the current test, and what it saw. */
let answer: (response: ServerResponse, method: string) => void;
const requestHeaders: IncomingHttpHeaders[] = [];
/** Whether the server's last response was cut off by the client before it was all sent. */
let cutOff: Promise<boolean>;
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    requestHeaders.push(request.headers);
    cutOff = new Promise((resolve) => response.on('close', () => resolve(!response.writableFinished)));
    request.resume();
    request.on('end', () => answer(response, request.method ?? ''));
  });
});
afterAll(() => server.close());
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  requestHeaders.length = 0;
});

/** Streams `chunk` again and again, without a Content-Length, until the client goes away. */
function endless(response: ServerResponse, chunk: Buffer): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const pump = () => {
    while (response.write(chunk)) if (response.destroyed) return;
    response.once('drain', pump);
  };
  response.on('error', () => {});
  pump();
}

const send =
  (status: number, body: Buffer | string, headers: Record<string, string> = {}) =>
  (response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    const client = (maxResponseBytes?: number) =>
      new WalletClient({
        apiKey: 'sk_body_1',
        baseUrl: server.url,
        ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
        ...TRANSPORTS[transport],
      });
    const deposit = (c: WalletClient) =>
      c.deposit(
        {
          reference_id: depositResult.reference_id,
          amount: depositResult.amount,
          currency: depositResult.currency,
        },
        { userToken: 'tok_body_1' },
      );

    describe('maxResponseBytes', () => {
      const padded = (bytes: number) => {
        const text = JSON.stringify(statusResult);
        return `${text.slice(0, -1)},"pad":"${'x'.repeat(bytes - text.length - 9)}"}`;
      };

      test('a 2xx body of exactly maxResponseBytes is read', async () => {
        answer = send(200, padded(4_096));
        await expect(client(4_096).getTransaction(statusResult.transaction_id)).resolves.toMatchObject(
          statusResult,
        );
      });

      test('a 2xx status body one byte over a declared Content-Length is a WalletResponseValidationError, not retried', async () => {
        answer = send(200, padded(4_097));

        const error = await rejectionOf(client(4_096).getTransaction(statusResult.transaction_id));

        expect(error).toBeInstanceOf(WalletResponseValidationError);
        expect(error).toMatchObject({
          status: 200,
          endpoint: 'status',
          issues: [{ path: '', message: 'body is larger than maxResponseBytes (4096 bytes)' }],
        });
        expect(requestHeaders).toHaveLength(1);
      });

      test('an endless 2xx status body is cut off at the default 1 MiB and the connection dropped', async () => {
        answer = (response) => endless(response, Buffer.alloc(64 * 1024, 0x20));

        const error = await rejectionOf(client().getTransaction(statusResult.transaction_id));

        expect(error).toBeInstanceOf(WalletResponseValidationError);
        expect((error as WalletResponseValidationError).issues[0]?.message).toBe(
          'body is larger than maxResponseBytes (1048576 bytes)',
        );
        await expect(cutOff).resolves.toBe(true);
      });

      test('an endless 2xx answer to a deposit is WalletOutcomeUnknownError caused by the size check', async () => {
        answer = (response) => endless(response, Buffer.alloc(64 * 1024, 0x20));

        const error = await rejectionOf(deposit(client(100_000)));

        expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
        expect(error).toMatchObject({ referenceId: depositResult.reference_id, attempts: 1 });
        expect((error as Error).cause).toBeInstanceOf(WalletResponseValidationError);
        expect(((error as Error).cause as WalletResponseValidationError).issues[0]?.message).toBe(
          'body is larger than maxResponseBytes (100000 bytes)',
        );
        await expect(cutOff).resolves.toBe(true);
      });

      test('an oversized 500 answer to a status read is retried like any 500, naming the size in the message', async () => {
        answer = send(500, 'x'.repeat(2_000));

        const error = await rejectionOf(client(1_000).getTransaction(statusResult.transaction_id));

        expect(error).toBeInstanceOf(WalletApiError);
        expect(error).toMatchObject({ status: 500, code: 'unknown_error' });
        expect((error as Error).message).toContain('body is larger than maxResponseBytes (1000 bytes)');
        expect(requestHeaders).toHaveLength(3);
      });

      test.each([0, -1, 1.5, Number.NaN, '1024'])(
        '%j is refused with a WalletConfigError naming maxResponseBytes',
        (value) => {
          expect(() => client(value as number)).toThrow(WalletConfigError);
          expect(() => client(value as number)).toThrow(/maxResponseBytes/);
        },
      );
    });

    describe('strict UTF-8', () => {
      const invalid = Buffer.concat([
        Buffer.from('{"transaction_id":"txn_'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('","x":1}'),
      ]);

      test('a 2xx status body with invalid UTF-8 is a WalletResponseValidationError, never U+FFFD in an id', async () => {
        answer = send(200, invalid);

        const error = await rejectionOf(client().getTransaction(statusResult.transaction_id));

        expect(error).toBeInstanceOf(WalletResponseValidationError);
        expect(error).toMatchObject({ issues: [{ path: '', message: 'body is not valid UTF-8' }] });
      });

      test('a 2xx deposit answer with invalid UTF-8 is WalletOutcomeUnknownError caused by the decoding check', async () => {
        answer = send(200, invalid);

        const error = await rejectionOf(deposit(client()));

        expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
        expect((error as Error).cause).toMatchObject({
          issues: [{ path: '', message: 'body is not valid UTF-8' }],
        });
      });

      test('valid multi-byte UTF-8 split across chunks is decoded whole', async () => {
        const text = JSON.stringify({ ...statusResult, failure_reason: 'naïve € 😀' });
        const bytes = Buffer.from(text);
        answer = (response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          for (let i = 0; i < bytes.length; i += 3) response.write(bytes.subarray(i, i + 3));
          response.end();
        };
        await expect(client().getTransaction(statusResult.transaction_id)).resolves.toMatchObject({
          failure_reason: 'naïve € 😀',
        });
      });
    });

    describe('compressed answers', () => {
      const body = Buffer.from(JSON.stringify(statusResult));
      test.each([
        ['gzip', gzipSync(body)],
        ['deflate', deflateSync(body)],
        ['br', brotliCompressSync(body)],
      ] as const)('a %s-encoded status answer is decoded', async (encoding, encoded) => {
        answer = send(200, encoded, { 'content-encoding': encoding });
        await expect(client().getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);
      });

      test('an empty content-encoding header, as some proxies send, means no encoding', async () => {
        answer = send(200, body, { 'content-encoding': '' });
        await expect(client().getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);
      });

      test('a gzip-encoded deposit answer is decoded', async () => {
        answer = send(200, gzipSync(JSON.stringify(depositResult)), { 'content-encoding': 'gzip' });
        await expect(deposit(client())).resolves.toEqual(depositResult);
      });

      test('a small gzip body that expands past maxResponseBytes (a decompression bomb) is refused, counting decoded bytes', async () => {
        const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
        expect(bomb.byteLength).toBeLessThan(100_000);
        answer = send(200, bomb, { 'content-encoding': 'gzip' });

        const error = await rejectionOf(client().getTransaction(statusResult.transaction_id));

        expect(error).toBeInstanceOf(WalletResponseValidationError);
        expect((error as WalletResponseValidationError).issues[0]?.message).toBe(
          'body is larger than maxResponseBytes (1048576 bytes)',
        );
      });
    });
  },
);

describe('the node transport', () => {
  const client = () => new WalletClient({ apiKey: 'sk_body_1', baseUrl: server.url, maxRetries: 0 });

  test('asks for gzip, deflate and br answers', async () => {
    answer = send(200, JSON.stringify(statusResult));
    await client().getTransaction(statusResult.transaction_id);
    expect(requestHeaders[0]?.['accept-encoding']).toBe('gzip, deflate, br');
  });

  test('a gzip body that is not gzip is a WalletResponseValidationError saying it could not be decompressed', async () => {
    answer = send(200, 'not gzip at all', { 'content-encoding': 'gzip' });

    const error = await rejectionOf(client().getTransaction(statusResult.transaction_id));

    expect(error).toBeInstanceOf(WalletResponseValidationError);
    expect(error).toMatchObject({ issues: [{ path: '', message: 'body could not be decompressed' }] });
  });

  test('an encoding it cannot decode is a WalletResponseValidationError naming it', async () => {
    answer = send(200, 'x', { 'content-encoding': 'zstd' });

    const error = await rejectionOf(client().getTransaction(statusResult.transaction_id));

    expect(error).toMatchObject({
      issues: [{ path: '', message: 'body has an unsupported content-encoding "zstd"' }],
    });
  });
});
