import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALICE, codeOf, DEMO_KEY, deposit, type Running, runSandbox } from './helpers.js';

const C2B = '/merchants/transactions/c2b';

let run: Running;
beforeAll(async () => {
  run = await runSandbox(undefined, { maxBodyBytes: 1024 });
});
afterAll(() => run.close());

/** Sends raw bytes and returns whatever the server answered before closing. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('bad input gets a documented JSON error, never a crash or a hang', () => {
  test('malformed JSON is 400 invalid_json', async () => {
    const answer = await run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body: '{"amount": 1,' });
    expect([answer.status, codeOf(answer)]).toEqual([400, 'invalid_json']);
  });

  test('a JSON array or scalar body is 400 invalid_json', async () => {
    for (const body of ['[1,2]', '42', 'null']) {
      const answer = await run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body });
      expect(codeOf(answer), body).toBe('invalid_json');
    }
  });

  test('bytes that are not UTF-8 are 400 invalid_json', async () => {
    const response = await fetch(`${run.server.baseUrl}${C2B}`, {
      method: 'POST',
      headers: {
        'x-api-key': DEMO_KEY,
        authorization: `Bearer ${ALICE}`,
        'content-type': 'application/json',
      },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_json' });
  });

  test('a body that is not application/json is 415 unsupported_media_type', async () => {
    const answer = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: JSON.stringify(deposit()),
      contentType: 'text/plain',
    });
    expect([answer.status, codeOf(answer)]).toEqual([415, 'unsupported_media_type']);
  });

  test('a body over the limit is 413 payload_too_large and applies nothing', async () => {
    const answer = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ description: 'x'.repeat(200_000) }),
    });
    expect([answer.status, codeOf(answer)]).toEqual([413, 'payload_too_large']);
    expect(run.sandbox.transactions()).toHaveLength(0);
  });

  test('an unknown route is 404 not_found', async () => {
    for (const path of [
      '/',
      '/merchants',
      '/merchants/transactions/status/',
      '/merchants/accounts/providers/extra',
      '/auth/nope',
    ]) {
      const answer = await run.api({ path, key: DEMO_KEY });
      expect([answer.status, codeOf(answer)], path).toEqual([404, 'not_found']);
    }
  });

  test('a known route with the wrong method is 405 with an Allow header', async () => {
    const answer = await run.api({ method: 'GET', path: C2B, key: DEMO_KEY });
    expect([answer.status, codeOf(answer)]).toEqual([405, 'method_not_allowed']);
    expect(answer.headers.get('allow')).toBe('POST');
    const del = await run.api({
      method: 'DELETE',
      path: '/merchants/transactions/status/txn_1',
      key: DEMO_KEY,
    });
    expect(del.headers.get('allow')).toBe('GET');
  });

  test('malformed HTTP gets a 400 and the server keeps serving', async () => {
    const port = Number(new URL(run.server.baseUrl).port);
    const answer = await rawExchange(port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(
      (await run.api({ path: '/merchants/accounts/providers', key: DEMO_KEY, token: ALICE })).status,
    ).toBe(200);
  });

  test('a client that goes away mid-body applies nothing, and the server keeps serving', async () => {
    const port = Number(new URL(run.server.baseUrl).port);
    const body = JSON.stringify(deposit());
    const head = [
      `POST ${C2B} HTTP/1.1`,
      'host: x',
      `x-api-key: ${DEMO_KEY}`,
      `authorization: Bearer ${ALICE}`,
      'content-type: application/json',
      `content-length: ${body.length}`,
    ].join('\r\n');
    // Half the body, then the connection is gone: no end of the request ever arrives.
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`${head}\r\n\r\n${body.slice(0, body.length / 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(run.sandbox.transactions()).toHaveLength(0);
    expect(
      (await run.api({ path: '/merchants/accounts/providers', key: DEMO_KEY, token: ALICE })).status,
    ).toBe(200);
  });

  test('an absolute-form request target cannot point the sandbox at another host', async () => {
    const port = Number(new URL(run.server.baseUrl).port);
    const answer = await rawExchange(
      port,
      `GET http://evil.example/merchants/accounts/providers HTTP/1.1\r\nhost: x\r\nx-api-key: ${DEMO_KEY}\r\nconnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
  });
});

describe('error body shapes', () => {
  test.each([
    ['code', { code: 'missing_api_key', message: 'please provide an api key' }],
    ['error-object', { error: { code: 'missing_api_key', message: 'please provide an api key' } }],
    ['error-string', { error: 'missing_api_key', message: 'please provide an api key' }],
    ['errors-array', { errors: [{ code: 'missing_api_key', message: 'please provide an api key' }] }],
  ] as const)('the %s shape', async (shape, expected) => {
    run.sandbox.errorShape = shape;
    try {
      const answer = await run.api({ path: '/merchants/accounts/providers' });
      expect(answer.body).toEqual(expected);
    } finally {
      run.sandbox.errorShape = 'code';
    }
  });

  test('an unknown shape is a WalletConfigError naming the field', () => {
    expect(() => {
      run.sandbox.errorShape = 'xml' as never;
    }).toThrow(/errorShape: must be one of/);
  });
});
