import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as core from 'zod/v4/core';
import { SCHEMA_COMPONENTS } from '../../src/openapi/components.js';
import {
  bobProviders,
  depositCovered,
  depositPending,
  EXAMPLE_CREDENTIALS,
  EXAMPLE_NOW,
  statusCompleted,
  statusPending,
  transactionResultExample,
  userAuthorizedExample,
  withdrawal,
} from '../../src/openapi/examples.js';
import { createSandbox, type Sandbox, startSandboxServer } from '../../src/testing/index.js';
import { validatorFor } from './validator.js';

const api = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'));
const validate = validatorFor(api);

interface MediaType {
  schema: object;
  examples?: Record<string, { value: unknown }>;
}

/** Every example of the document with the schema it illustrates, named by where it is. */
function examples(): [string, object, unknown][] {
  const found: [string, object, unknown][] = [];
  const visit = (node: unknown, where: string) => {
    if (typeof node !== 'object' || node === null) return;
    const media = (node as Record<string, MediaType | undefined>)['application/json'];
    for (const [key, example] of Object.entries(media?.examples ?? {})) {
      found.push([`${where} ${key}`, media?.schema ?? {}, example.value]);
    }
    for (const [key, child] of Object.entries(node)) visit(child, `${where}/${key}`);
  };
  visit(api.paths, 'paths');
  visit(api.webhooks, 'webhooks');
  return found;
}

test.each(examples())('the example at %s is valid against its schema', (_, schema, value) => {
  expect(validate(schema, value)).toBe(true);
});

test('the examples of the zod-made components parse with the SDK schemas', () => {
  const pairs = [
    ['DepositRequest', depositCovered.request],
    ['DepositRequest', depositPending.request],
    ['DepositResult', depositCovered.response],
    ['WithdrawRequest', withdrawal.request],
    ['WithdrawResult', withdrawal.response],
    ['TransactionResult', statusCompleted.response],
    ['ProviderList', bobProviders.response],
    ['UserAuthorizedWebhook', userAuthorizedExample],
    ['TransactionWebhook', transactionResultExample],
  ] as const;
  for (const [name, value] of pairs) {
    expect(core.safeParse(SCHEMA_COMPONENTS[name].schema, value).success, name).toBe(true);
  }
});

describe('the examples are what the sandbox answers', () => {
  let sandbox: Sandbox;
  let server: Awaited<ReturnType<typeof startSandboxServer>>;
  beforeAll(async () => {
    sandbox = createSandbox(undefined, { now: () => new Date(EXAMPLE_NOW) });
    server = await startSandboxServer({ sandbox });
  });
  afterAll(async () => {
    sandbox.close();
    await server.close();
  });

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const answer = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': EXAMPLE_CREDENTIALS.apiKey,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return [answer.status, await answer.json()];
  };

  test('in the order of the story they tell', async () => {
    const c2b = '/merchants/transactions/c2b';
    expect(await call('POST', c2b, EXAMPLE_CREDENTIALS.aliceToken, depositCovered.request)).toEqual([
      200,
      depositCovered.response,
    ]);
    expect(await call('POST', c2b, EXAMPLE_CREDENTIALS.bobToken, depositPending.request)).toEqual([
      200,
      depositPending.response,
    ]);
    expect(await call('POST', '/merchants/transactions/b2c', undefined, withdrawal.request)).toEqual([
      200,
      withdrawal.response,
    ]);
    for (const { transactionId, response } of [statusCompleted, statusPending]) {
      expect(await call('GET', `/merchants/transactions/status/${transactionId}`)).toEqual([200, response]);
    }
    expect(await call('GET', '/merchants/accounts/providers', EXAMPLE_CREDENTIALS.bobToken)).toEqual([
      200,
      bobProviders.response,
    ]);
    // Deliveries are recorded with their bodies; nothing listens at the discard port.
    sandbox.updateMerchant('app_demo_shop', {
      depositWebhookUrl: 'http://127.0.0.1:9/',
      authWebhookUrl: 'http://127.0.0.1:9/',
    });
    sandbox.settle(depositPending.response.transaction_id, { status: 'completed' });
    sandbox.authorize({ email: userAuthorizedExample.user_email, appId: 'app_demo_shop' });
    const [result, authorized] = sandbox.webhooks.deliveries().map((delivery) => delivery.event);
    expect(result).toEqual(transactionResultExample);
    expect(authorized).toEqual({ ...userAuthorizedExample, token: expect.stringMatching(/\S/) });
  });

  test('the sandbox serves both documents, pointed at itself', async () => {
    const served = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    expect(served.paths).toEqual(servedPaths(api, server.authUrl));
    expect(served.servers).toEqual([{ url: server.baseUrl, description: 'This sandbox.' }]);
    const control = await (await fetch(`${server.baseUrl}/_sandbox/openapi.json`)).json();
    expect(control.info.title).toBe('Merchant Wallet sandbox control API');
    expect(control.servers[0].url).toBe(server.baseUrl);
  });
});

/** The committed paths with the login page's server set to `authUrl`, as the sandbox serves them. */
function servedPaths(document: { paths: Record<string, unknown> }, authUrl: string): unknown {
  const paths = structuredClone(document.paths) as Record<string, { get?: { servers?: unknown } }>;
  const login = paths['/login']?.get;
  if (login) login.servers = [{ url: authUrl, description: "This sandbox's login page." }];
  return paths;
}
