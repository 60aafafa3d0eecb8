import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import {
  CONTROL_KEY_HEADER,
  createSandbox,
  type Sandbox,
  type SandboxEvent,
  SandboxNotFoundError,
  sandboxHandlers,
} from '../../src/testing/index.js';
import {
  ALICE,
  type ApiAnswer,
  BOB,
  callApi,
  codeOf,
  DEMO_KEY,
  deposit,
  type Running,
  runSandbox,
} from './helpers.js';

const KEY = 'control-key-for-revoke';
const events: SandboxEvent[] = [];

let run: Running;
beforeEach(async () => {
  events.length = 0;
  run = await runSandbox(undefined, { controlKey: KEY, onEvent: (event) => events.push(event) });
});
afterEach(() => run.close());

function control(baseUrl: string, body: unknown): Promise<ApiAnswer> {
  return callApi(baseUrl, {
    method: 'POST',
    path: '/_sandbox/tokens/revoke',
    headers: { [CONTROL_KEY_HEADER]: KEY },
    body,
  });
}

const payWith = (token: string, baseUrl = run.server.baseUrl) =>
  callApi(baseUrl, { path: '/merchants/transactions/c2b', key: DEMO_KEY, token, body: deposit() });
const providersWith = (token: string, baseUrl = run.server.baseUrl) =>
  callApi(baseUrl, { path: '/merchants/accounts/providers', key: DEMO_KEY, token });

/** Approves `app_demo_shop` as `email` on the login page, as a browser would; returns the new token. */
async function approveOnLoginPage(email: string): Promise<string> {
  const response = await fetch(`${run.server.authUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      app_id: 'app_demo_shop',
      redirect_url: 'https://shop.example/back',
      decision: 'approve',
      email,
    }).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  const authorized = events.findLast((event) => event.type === 'authorized');
  return authorized?.type === 'authorized' ? authorized.token : '';
}

describe('revoking tokens through the control API', () => {
  test("revoke by e-mail ends the user's tokens: deposits and providers get application_not_authorized", async () => {
    expect((await payWith(ALICE)).status).toBe(200);
    const answer = await control(run.server.baseUrl, { email: 'Alice@Example.com' });
    expect(answer).toMatchObject({ status: 200, body: { email: 'alice@example.com', revoked: 2 } });
    const [paid, listed] = await Promise.all([payWith(ALICE), providersWith(ALICE)]);
    expect([paid.status, codeOf(paid), listed.status, codeOf(listed)]).toEqual([
      403,
      'application_not_authorized',
      403,
      'application_not_authorized',
    ]);
    expect((await payWith(BOB)).status).toBe(200);
    expect(events).toContainEqual({ type: 'revoked', email: 'alice@example.com', revoked: 2 });
  });

  test("revoke by e-mail and app ends only that app's token", async () => {
    const answer = await control(run.server.baseUrl, { email: 'alice@example.com', appId: 'app_other_shop' });
    expect(answer.body).toEqual({ email: 'alice@example.com', revoked: 1 });
    expect((await payWith(ALICE)).status).toBe(200);
  });

  test('revoke by token ends that token, never repeats it, and is idempotent', async () => {
    const first = await control(run.server.baseUrl, { token: BOB });
    expect(first).toMatchObject({ status: 200, body: { email: 'bob@example.com', revoked: 1 } });
    expect(JSON.stringify(first.body)).not.toContain(BOB);
    expect(codeOf(await payWith(BOB))).toBe('application_not_authorized');
    expect(codeOf(await providersWith(BOB))).toBe('application_not_authorized');
    expect((await control(run.server.baseUrl, { token: BOB })).body).toEqual({
      email: 'bob@example.com',
      revoked: 0,
    });
  });

  test('an unknown e-mail or token is a 404 naming the field, without echoing the token', async () => {
    const secret = 'tok_not_a_real_token_1234567890';
    const [email, token, app] = await Promise.all([
      control(run.server.baseUrl, { email: 'nobody@example.com' }),
      control(run.server.baseUrl, { token: secret }),
      control(run.server.baseUrl, { email: 'alice@example.com', appId: 'app_nope' }),
    ]);
    expect(email).toMatchObject({
      status: 404,
      body: { error: 'record_not_found', message: 'email: names no sandbox user (nobody@example.com)' },
    });
    expect(token).toMatchObject({
      status: 404,
      body: { error: 'record_not_found', message: 'token: names no token this sandbox issued' },
    });
    expect(JSON.stringify(token.body)).not.toContain(secret);
    expect(app.status).toBe(404);
    expect((await payWith(ALICE)).status).toBe(200);
  });

  test('a body naming both or neither of token and email is a 400', async () => {
    const [both, neither] = await Promise.all([
      control(run.server.baseUrl, { token: ALICE, email: 'alice@example.com' }),
      control(run.server.baseUrl, {}),
    ]);
    expect([both.status, neither.status]).toEqual([400, 400]);
    expect((neither.body as { message: string }).message).toBe(
      'target: must name exactly one of token and email',
    );
  });

  test('approving the app again on the login page issues a new token that works', async () => {
    await control(run.server.baseUrl, { email: 'alice@example.com' });
    const token = await approveOnLoginPage('alice@example.com');
    expect(token).toMatch(/^tok_/);
    expect((await payWith(token)).status).toBe(200);
    expect((await providersWith(token)).status).toBe(200);
    expect(codeOf(await payWith(ALICE))).toBe('application_not_authorized');
  });
});

describe('sandbox.revoke', () => {
  test('by e-mail and by token, with a count of the live tokens it ended', () => {
    const sandbox = createSandbox();
    expect(sandbox.revoke({ email: 'alice@example.com', appId: 'app_demo_shop' })).toEqual({
      email: 'alice@example.com',
      revoked: 1,
    });
    expect(sandbox.revoke({ token: 'tok_sandbox_alice_other' })).toEqual({
      email: 'alice@example.com',
      revoked: 1,
    });
    expect(sandbox.revoke({ email: 'alice@example.com' })).toEqual({
      email: 'alice@example.com',
      revoked: 0,
    });
    sandbox.close();
  });

  test('an unknown user or token throws SandboxNotFoundError, a WalletConfigError naming the field', () => {
    const sandbox = createSandbox();
    const secret = 'tok_secret_never_shown';
    const caught = (act: () => unknown) => {
      try {
        act();
      } catch (error) {
        return error as WalletConfigError;
      }
      throw new Error('not refused');
    };
    const byToken = caught(() => sandbox.revoke({ token: secret }));
    expect(byToken).toBeInstanceOf(SandboxNotFoundError);
    expect(byToken).toBeInstanceOf(WalletConfigError);
    expect([byToken.option, byToken.message.includes(secret)]).toEqual(['token', false]);
    expect(caught(() => sandbox.revoke({ email: 'nobody@example.com' })).option).toBe('email');
    sandbox.close();
  });
});

describe('msw handlers revoke as the node server does', () => {
  const MSW = { baseUrl: 'https://wallet.test', authUrl: 'https://wallet.test/auth' };
  let mswSandbox: Sandbox;
  let msw: ReturnType<typeof setupServer>;
  beforeAll(async () => {
    mswSandbox = createSandbox(undefined, { controlKey: KEY });
    msw = setupServer(...(await sandboxHandlers(mswSandbox, MSW)));
    msw.listen({ onUnhandledRequest: 'bypass' });
  });
  afterAll(() => {
    msw.close();
    mswSandbox.close();
  });

  test('the same revocations and refused inputs give the same answers', async () => {
    const observe = async (baseUrl: string) => [
      await control(baseUrl, { email: 'bob@example.com' }),
      await control(baseUrl, { token: 'tok_unknown_token' }),
      await payWith(BOB, baseUrl),
      await providersWith(BOB, baseUrl),
      await callApi(baseUrl, {
        path: '/_sandbox/clock/advance',
        headers: { [CONTROL_KEY_HEADER]: KEY },
        body: { by: 1e300 },
      }),
      await payWith(ALICE, baseUrl),
    ];
    const strip = (answers: ApiAnswer[]) =>
      answers.map(({ status, body }) => ({
        status,
        body: JSON.parse(JSON.stringify(body).replace(/ref-\d+-\d+/, 'ref')),
      }));
    const viaNode = strip(await observe(run.server.baseUrl));
    const viaMsw = strip(await observe(MSW.baseUrl));
    expect(viaMsw).toEqual(viaNode);
    expect(viaNode.map((a) => a.status)).toEqual([200, 404, 403, 403, 400, 200]);
  });
});
