import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { defaultSandboxSeed, SANDBOX_LANDING_PATH } from '../../src/testing/index.js';
import { DEMO_KEY, type Receiver, type Running, runSandbox, startReceiver } from './helpers.js';

let receiver: Receiver;
let run: Running;
beforeEach(async () => {
  receiver = await startReceiver();
  const seed = defaultSandboxSeed();
  seed.merchants[0]!.authWebhookUrl = receiver.url;
  seed.merchants[0]!.name = 'Demo <Shop> & "Co"';
  run = await runSandbox(seed);
});
afterEach(async () => {
  await run.close();
  await receiver.close();
});

const REDIRECT = 'https://shop.example/callback?state=xyz';
const loginUrl = (params: Record<string, string>) =>
  `${run.server.authUrl}/login?${new URLSearchParams(params)}`;

function submit(form: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  return fetch(`${run.server.authUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
}

describe('login page', () => {
  test('serves an accessible form with a labelled e-mail field and Approve and Deny buttons', async () => {
    const response = await fetch(loginUrl({ app_id: 'app_demo_shop', redirect_url: REDIRECT }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<label for="email">');
    expect(html).toMatch(/<input id="email" name="email" type="email"/);
    expect(html).toContain('<form method="post" action="/auth/login">');
    expect(html).toMatch(
      /<button type="submit" name="decision" value="approve" class="primary">Approve<\/button>/,
    );
    expect(html).toMatch(/<button type="submit" name="decision" value="deny" formnovalidate>Deny<\/button>/);
    expect(html).toContain('Demo &lt;Shop&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('value="https://shop.example/callback?state=xyz"');
  });

  test('escapes a hostile redirect_url in the page', async () => {
    const hostile = 'https://shop.example/"><script>alert(1)</script>';
    const html = await (await fetch(loginUrl({ app_id: 'app_demo_shop', redirect_url: hostile }))).text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  test('approving creates a token, delivers it to the auth webhook, then redirects with 303', async () => {
    const response = await submit({
      app_id: 'app_demo_shop',
      redirect_url: REDIRECT,
      email: 'bob@example.com',
      decision: 'approve',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(REDIRECT);
    // The delivery finished before the redirect was sent.
    expect(receiver.received).toHaveLength(1);
    const event = receiver.received[0]?.body as { event: string; user_email: string; token: string };
    expect(event).toMatchObject({ event: 'user_authorized', user_email: 'bob@example.com' });
    const providers = await fetch(`${run.server.baseUrl}/merchants/accounts/providers`, {
      headers: { 'x-api-key': DEMO_KEY, authorization: `Bearer ${event.token}` },
    });
    expect(providers.status).toBe(200);
  });

  test('denying redirects with error=access_denied, keeps the query and issues no token', async () => {
    const response = await submit({ app_id: 'app_demo_shop', redirect_url: REDIRECT, decision: 'deny' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      'https://shop.example/callback?state=xyz&error=access_denied',
    );
    await run.sandbox.webhooks.idle();
    expect(receiver.received).toHaveLength(0);
  });

  test.each([
    ['an unknown app id', { app_id: 'app_nope', redirect_url: REDIRECT }, 'Unknown application'],
    ['no app id', { redirect_url: REDIRECT }, 'Unknown application'],
    ['no redirect_url', { app_id: 'app_demo_shop' }, 'no redirect_url'],
    ['a relative redirect_url', { app_id: 'app_demo_shop', redirect_url: '/callback' }, 'not an absolute'],
    [
      'a javascript: redirect_url',
      { app_id: 'app_demo_shop', redirect_url: 'javascript:alert(1)' },
      'not an absolute',
    ],
  ])('%s gives a 400 error page, never a redirect', async (_name, params, text) => {
    for (const response of [
      await fetch(loginUrl(params), { redirect: 'manual' }),
      await submit({ ...params, decision: 'approve', email: 'bob@example.com' }),
    ]) {
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain(text);
    }
    expect(receiver.received).toHaveLength(0);
  });

  test('approving with an unknown e-mail shows the form again with an alert', async () => {
    const response = await submit({
      app_id: 'app_demo_shop',
      redirect_url: REDIRECT,
      email: 'who@example.com',
      decision: 'approve',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="who@example.com"');
  });

  test('a form that is not url-encoded gets a 415 page', async () => {
    const response = await submit(
      { app_id: 'app_demo_shop', redirect_url: REDIRECT, decision: 'deny' },
      'application/json',
    );
    expect(response.status).toBe(415);
  });

  test('other methods get 405 with Allow', async () => {
    const response = await fetch(`${run.server.authUrl}/login`, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  test('the landing page under the auth URL says whether access was approved or denied', async () => {
    const landing = `${run.server.authUrl}${SANDBOX_LANDING_PATH}`;
    const approved = await fetch(landing);
    expect([approved.status, approved.headers.get('content-type')]).toEqual([
      200,
      'text/html; charset=utf-8',
    ]);
    expect(await approved.text()).toContain('<h1>Access approved</h1>');
    const denied = await fetch(`${landing}?error=access_denied`);
    expect(await denied.text()).toContain('<h1>Access denied</h1>');
    expect((await fetch(landing, { method: 'POST' })).status).toBe(404);
  });

  test('the auth URL is not the API base URL', () => {
    expect(run.server.authUrl).toBe(`${run.server.baseUrl}/auth`);
  });
});
