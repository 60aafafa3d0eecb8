import type { NodeModules } from './node-route.js';
import type { ProxyEnv } from './proxy-env.js';

/** What the node transport needs of Node: its http modules and the environment proxies are read from. */
export interface NodeRuntime {
  readonly modules: NodeModules;
  readonly env: ProxyEnv;
}

/** Node's `http` modules where this is Node itself; `undefined` on Bun, Deno, Cloudflare Workers and elsewhere (they use the fetch transport). */
export function nodeRuntime(): NodeRuntime | undefined {
  const runtime = globalThis as {
    process?: {
      getBuiltinModule?: (id: string) => unknown;
      versions?: { bun?: string };
      env?: ProxyEnv;
    };
    Deno?: unknown;
    navigator?: { userAgent?: string };
  };
  const getBuiltinModule = runtime.process?.getBuiltinModule;
  if (
    typeof getBuiltinModule !== 'function' ||
    runtime.Deno !== undefined ||
    runtime.process?.versions?.bun ||
    // Workers with Node compatibility emulate node:http over their fetch: use that fetch directly.
    runtime.navigator?.userAgent === 'Cloudflare-Workers'
  ) {
    return undefined;
  }
  const modules = {
    http: getBuiltinModule('node:http'),
    https: getBuiltinModule('node:https'),
    tls: getBuiltinModule('node:tls'),
  } as NodeModules;
  return { modules, env: runtime.process?.env ?? {} };
}
