// Inlined by the bundler (only `version`), so the client reads no file at run time to know it.
import { version } from '../../package.json';

interface RuntimeGlobals {
  Deno?: { version?: { deno?: string } };
  process?: { versions?: { node?: string; bun?: string } };
  navigator?: { userAgent?: string };
}

/**
 * `merchant-wallet/<version> <runtime>/<version>` for Node, Bun and Deno; `undefined` in a
 * browser, where `user-agent` is the browser's own and setting it is refused or ignored.
 * Other server runtimes (workers) get the SDK's name alone.
 */
export function defaultUserAgent(runtime: RuntimeGlobals = globalThis as RuntimeGlobals): string | undefined {
  const sdk = `merchant-wallet/${version}`;
  const deno = runtime.Deno?.version?.deno;
  if (deno) return `${sdk} deno/${deno}`;
  const versions = runtime.process?.versions;
  if (versions?.bun) return `${sdk} bun/${versions.bun}`;
  if (versions?.node) return `${sdk} node/${versions.node}`;
  return runtime.navigator?.userAgent?.startsWith('Mozilla/') ? undefined : sdk;
}
