// Bundles the Worker of the "Cloudflare Workers" section of docs/runtimes.md with that section's own
// esbuild command, runs it on workerd through miniflare, and makes the deposit it makes, against the
// sandbox at SMOKE_BASE_URL. Prints one JSON line: the Worker's answer. Run by Node 22+.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const page = readFileSync(join(root, 'docs/runtimes.md'), 'utf8');
const start = page.indexOf('## Cloudflare Workers');
const section = start === -1 ? '' : page.slice(start, page.indexOf('\n## ', start + 1));
const command = /```sh\n([\s\S]*?)```/.exec(section)?.[1]?.replaceAll('\\\n', ' ').trim();
const worker = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
if (!command || !worker) throw new Error('docs/runtimes.md has no Workers section with an sh and a ts block');

// Inside the repository, so that `merchant-wallet` resolves to this package through its exports.
const dir = mkdtempSync(join(root, 'test/runtimes/worker/.docs-'));
try {
  writeFileSync(join(dir, 'worker.ts'), worker);
  const args = command
    .replace(/^npx esbuild /, '')
    .replace('src/worker.ts', join(dir, 'worker.ts'))
    .replace('dist/worker.js', join(dir, 'worker.js'))
    .split(/\s+/)
    .map((arg) => arg.replaceAll("'", ''));
  execFileSync(join(root, 'node_modules/.bin/esbuild'), [...args, '--log-level=error'], { cwd: root });
  const mf = new Miniflare({
    modules: true,
    script: readFileSync(join(dir, 'worker.js'), 'utf8'),
    compatibilityDate: '2026-04-01',
    bindings: { WALLET_API_KEY: 'sk_sandbox_demo_shop', WALLET_BASE_URL: process.env.SMOKE_BASE_URL },
  });
  try {
    const response = await mf.dispatchFetch('http://worker.test/checkout', {
      headers: { 'x-user-token': 'tok_sandbox_alice' },
    });
    console.log(JSON.stringify({ status: response.status, body: await response.json() }));
  } finally {
    await mf.dispose();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
