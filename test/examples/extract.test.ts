import { expect, test } from 'vitest';
import { markdownExamples, tsdocExamples } from '../../scripts/examples/extract.js';
import { implicitImports } from '../../scripts/examples/implicit-imports.js';

test('the ts blocks of a page are found with the line they start after; other and no-check blocks are not', () => {
  const page = [
    '# Title', // 1
    '```ts', // 2
    'const a = 1;', // 3
    '```', // 4
    '```sh', // 5
    'npm test', // 6
    '```', // 7
    '```ts no-check', // 8
    'interface Sketch { a? }', // 9
    '```', // 10
    '```typescript', // 11
    'const b = 2;', // 12
    'const c = 3;', // 13
    '```', // 14
  ].join('\n');
  expect(markdownExamples('docs/x.md', page)).toEqual([
    { source: 'docs/x.md', line: 2, code: 'const a = 1;' },
    { source: 'docs/x.md', line: 11, code: 'const b = 2;\nconst c = 3;' },
  ]);
});

test('TSDoc @example blocks are found up to the next tag or the end of the comment', () => {
  const source = [
    '/**', // 1
    ' * Does a thing.', // 2
    ' *', // 3
    ' * @example', // 4
    ' * const x = thing();', // 5
    ' * use(x);', // 6
    ' * @throws {Error} never', // 7
    ' */', // 8
    'export function thing() {}', // 9
    '/** @example */', // 10: not a block of its own line
    '/**', // 11
    ' * @example', // 12
    ' * other();', // 13
    ' */', // 14
  ].join('\n');
  expect(tsdocExamples('src/x.ts', source)).toEqual([
    { source: 'src/x.ts', line: 4, code: 'const x = thing();\nuse(x);' },
    { source: 'src/x.ts', line: 12, code: 'other();' },
  ]);
});

test('names of the package a snippet uses but does not import are imported for it, from their entry', () => {
  const exported = new Map([
    ['WalletClient', 'merchant-wallet'],
    ['createSandbox', 'merchant-wallet/testing'],
    ['createWebhookHandler', 'merchant-wallet'],
  ]);
  expect(implicitImports('const s = createSandbox(); new WalletClient({});', exported)).toBe(
    "import { WalletClient } from 'merchant-wallet'; import { createSandbox } from 'merchant-wallet/testing';",
  );
  expect(
    implicitImports("import { WalletClient } from 'merchant-wallet';\nnew WalletClient();", exported),
  ).toBe('');
  expect(implicitImports('function createWebhookHandler() {}\ncreateWebhookHandler();', exported)).toBe('');
});
