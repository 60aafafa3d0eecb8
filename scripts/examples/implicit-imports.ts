/** The package's exported names by entry, and the imports a snippet needs of those it uses without importing. */
import { join } from 'node:path';
import ts from 'typescript';

/** Each subpath of the package, with the built declarations that describe it. */
const ENTRIES = {
  'merchant-wallet': 'index.d.ts',
  'merchant-wallet/login': 'login.d.ts',
  'merchant-wallet/webhooks': 'webhooks.d.ts',
  'merchant-wallet/testing': 'testing.d.ts',
  'merchant-wallet/postgres': 'postgres.d.ts',
  'merchant-wallet/redis': 'redis.d.ts',
  'merchant-wallet/conformance': 'conformance.d.ts',
  'merchant-wallet/wallet': 'wallet.d.ts',
  'merchant-wallet/adapters': 'adapters.d.ts',
} as const;

/** Names of the libraries the snippets use beside the SDK, imported for them the same way. */
const LIBRARIES: Readonly<Record<string, string>> = {
  createClient: 'redis',
  setupServer: 'msw/node',
  test: 'vitest',
  expect: 'vitest',
  beforeAll: 'vitest',
  afterAll: 'vitest',
  describe: 'vitest',
};

/** Every exported name, mapped to the first entry (in the order above) that exports it. */
export function packageExports(root: string): Map<string, string> {
  const files = Object.values(ENTRIES).map((file) => join(root, 'dist', file));
  const program = ts.createProgram(files, { skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const names = new Map<string, string>();
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(root, 'dist', file));
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`dist/${file} is missing: run npm run build first`);
    for (const exported of checker.getExportsOfModule(symbol)) {
      if (!names.has(exported.name)) names.set(exported.name, entry);
    }
  }
  for (const [name, library] of Object.entries(LIBRARIES)) if (!names.has(name)) names.set(name, library);
  return names;
}

/** Whether `code` binds `name` itself: imports it, or declares it. */
function binds(code: string, name: string): boolean {
  const word = `\\b${name}\\b`;
  return (
    new RegExp(`^\\s*import\\b[^;]*${word}`, 'ms').test(code) ||
    new RegExp(`\\b(const|let|var|function|class|interface|type)\\s+${name}\\b`).test(code) ||
    new RegExp(`\\{[^}]*${word}[^}]*\\}\\s*=`).test(code)
  );
}

/** One line importing, from its entry, each exported name `code` uses but does not bind. */
export function implicitImports(code: string, exported: ReadonlyMap<string, string>): string {
  const byEntry = new Map<string, string[]>();
  for (const [name, entry] of exported) {
    if (!new RegExp(`\\b${name}\\b`).test(code) || binds(code, name)) continue;
    byEntry.set(entry, [...(byEntry.get(entry) ?? []), name]);
  }
  return [...byEntry].map(([entry, names]) => `import { ${names.join(', ')} } from '${entry}';`).join(' ');
}
