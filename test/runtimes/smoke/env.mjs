// Runtime detection and environment access that work the same in Node, Bun and Deno.

export function runtime() {
  if (globalThis.Bun) return { name: 'bun', version: globalThis.Bun.version };
  if (globalThis.Deno) return { name: 'deno', version: globalThis.Deno.version.deno };
  return { name: 'node', version: globalThis.process.versions.node };
}

export function env(name) {
  const value = globalThis.Deno ? globalThis.Deno.env.get(name) : globalThis.process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** Rejects after `ms`, so a missing answer fails the smoke instead of hanging it. */
export function within(ms, what, promise) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
