// Bundles smoke-worker.mjs as a Worker, the way the README says (esbuild, --platform=neutral), runs
// it on workerd through miniflare, with or without nodejs_compat (SMOKE_COMPAT), and prints the one
// JSON line it answers, with the bundle's facts. Run by Node 22+ (miniflare's requirement).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

const entry = fileURLToPath(new URL('./smoke-worker.mjs', import.meta.url));
const bundle = await build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  // The Node transport's chunk imports node:http; Workers never load it, so it stays out of reach.
  external: ['node:*'],
  write: false,
  metafile: true,
  logLevel: 'silent',
});
const compatibilityFlags = process.env.SMOKE_COMPAT ? [process.env.SMOKE_COMPAT] : [];
const mf = new Miniflare({
  modules: true,
  script: bundle.outputFiles[0].text,
  compatibilityDate: '2026-04-01',
  compatibilityFlags,
  bindings: { SMOKE_BASE_URL: process.env.SMOKE_BASE_URL, SMOKE_AUTH_URL: process.env.SMOKE_AUTH_URL },
});
try {
  const response = await mf.dispatchFetch('http://worker.test/smoke');
  const result = await response.json();
  result.compatibilityFlags = compatibilityFlags;
  console.log(JSON.stringify(result));
} finally {
  await mf.dispose();
}
