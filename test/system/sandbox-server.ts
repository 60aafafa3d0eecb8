import { afterAll, beforeAll } from 'vitest';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { started } from './started.js';

/** A sandbox and its API over real HTTP, as {@link useSandboxServer} runs them for a test file. */
export interface ServedSandbox {
  /** The sandbox's state: its ledger, faults, webhooks and settle command. */
  readonly sandbox: Sandbox;
  /** Where its API answers; the server starts in `beforeAll`, so read it in tests and hooks only. */
  readonly baseUrl: string;
}

/**
 * For the file that calls it: a sandbox made with `createSandbox(...args)`, served on a free
 * loopback port before the file's tests and closed after them. Call it before the file's own
 * hooks, so they can use the server and are undone before it closes.
 */
export function useSandboxServer(...args: Parameters<typeof createSandbox>): ServedSandbox {
  const sandbox = createSandbox(...args);
  let server: SandboxServer | undefined;
  beforeAll(async () => {
    server = await startSandboxServer({ sandbox, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    sandbox.close();
  });
  return {
    sandbox,
    get baseUrl() {
      return started('useSandboxServer', 'baseUrl', server).baseUrl;
    },
  };
}
