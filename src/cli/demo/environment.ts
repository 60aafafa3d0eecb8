import { WalletClient } from '../../index.js';
import { createSandbox, type Sandbox, type SandboxServer, startSandboxServer } from '../../testing/index.js';
import { type MerchantApp, startMerchantApp } from './merchant-app.js';

/** The demo merchant of the sandbox's default seed. */
export const DEMO_MERCHANT = { name: 'Demo Shop', appId: 'app_demo_shop', apiKey: 'sk_sandbox_demo_shop' };

/** The pending provider deposit is settled this long after it starts, so the wait has something to wait for. */
export const SETTLE_AFTER_MS = 2_000;

/** Everything the demo runs against, and one `close` for all of it. */
export interface DemoEnvironment {
  readonly sandbox: Sandbox;
  readonly server: SandboxServer;
  readonly wallet: WalletClient;
  readonly app: MerchantApp;
  close(): Promise<void>;
}

/**
 * Starts the sandbox on a free port and the merchant app beside it, and registers the app's
 * webhook URL as the merchant's auth and deposit webhook, as a merchant would in the portal.
 */
export async function startDemoEnvironment(): Promise<DemoEnvironment> {
  // Settled by the demo itself, at a moment it knows, so it can show how soon the wait saw it.
  const sandbox = createSandbox();
  const closers: (() => unknown)[] = [() => sandbox.close()];
  const close = async () => {
    // Reverse order: the merchant app goes before the sandbox that posts to it.
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    const server = await startSandboxServer({ sandbox, port: 0 });
    closers.push(() => server.close());
    const wallet = new WalletClient({ apiKey: DEMO_MERCHANT.apiKey, baseUrl: server.baseUrl });
    const app = await startMerchantApp({ verifyWith: wallet });
    closers.push(() => app.close());
    sandbox.updateMerchant(DEMO_MERCHANT.appId, {
      authWebhookUrl: app.webhookUrl,
      depositWebhookUrl: app.webhookUrl,
    });
    return { sandbox, server, wallet, app, close };
  } catch (error) {
    await close();
    throw error;
  }
}
