import { readFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { expect, test } from 'vitest';

const root = new URL('../../', import.meta.url);

test('test/openapi/generated/wallet-api.ts is what openapi-typescript makes of openapi/openapi.json today', async () => {
  const ast = await openapiTS(new URL('openapi/openapi.json', root));
  const generated = COMMENT_HEADER + astToString(ast);
  // `npm run openapi` regenerates both.
  expect(readFileSync(new URL('test/openapi/generated/wallet-api.ts', root), 'utf8')).toBe(generated);
});
