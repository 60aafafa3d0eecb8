/**
 * Writes the OpenAPI documents the package ships (openapi/openapi.json and
 * openapi/sandbox-control.openapi.json) from the SDK's zod schemas and error-code table; `npm run
 * build` runs it first. With `--check`, and always under CI (`CI=true`, so a build there can never
 * quietly fix a stale document), it writes nothing and exits 1 when a committed document differs
 * from what the schemas give (test/openapi/drift.test.ts checks the same).
 * Usage: tsx scripts/openapi.ts [--check]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { documentText, OPENAPI_DOCUMENTS } from '../src/openapi/documents.js';

const dir = fileURLToPath(new URL('../openapi/', import.meta.url));
const check = process.argv.includes('--check') || process.env.CI === 'true';
let stale = 0;
mkdirSync(dir, { recursive: true });
for (const [name, build] of Object.entries(OPENAPI_DOCUMENTS)) {
  const text = documentText(build());
  const path = `${dir}${name}`;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (current === text) continue;
  if (check) {
    stale += 1;
    process.stdout.write(`openapi/${name} differs from the schemas: run npm run openapi\n`);
  } else {
    writeFileSync(path, text);
    process.stdout.write(`wrote openapi/${name}\n`);
  }
}
process.exitCode = stale === 0 ? 0 : 1;
