import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

/** What a merchant who installed the package can import: its published entries and Node's own modules. */
const PUBLIC_ENTRIES = Object.keys(packageJson.exports)
  .filter((entry) => entry !== './package.json')
  .map((entry) => entry.replace(/^\./, 'merchant-wallet'));

/** Packages an example shows the SDK working with; a merchant installs them alongside it. */
const INTEGRATIONS = [
  '@opentelemetry/api',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/core',
  '@opentelemetry/sdk-trace-base',
];

function importedModules(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?(?:from\s+)?'([^']+)'/gm)].map(
    (match) => match[1] ?? '',
  );
}

const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.ts'));

describe('examples import only what a merchant can install', () => {
  test('there are examples to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  test.each(files)('%s imports only merchant-wallet entries, node: modules and integrations', (file) => {
    const modules = importedModules(readFileSync(`${EXAMPLES}${file}`, 'utf8'));

    expect(modules.length).toBeGreaterThan(0);
    for (const module of modules) {
      const installable =
        module.startsWith('node:') || PUBLIC_ENTRIES.includes(module) || INTEGRATIONS.includes(module);
      expect(installable, `${file} imports ${module}`).toBe(true);
    }
  });

  test('the published entries include the main one and the testing sandbox the examples run against', () => {
    expect(PUBLIC_ENTRIES).toEqual(expect.arrayContaining(['merchant-wallet', 'merchant-wallet/testing']));
  });
});
