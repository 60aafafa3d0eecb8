import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { median } from './throughput.js';

function importMs(specifier: string): number {
  const script = `const t = performance.now(); import(${JSON.stringify(specifier)}).then(() => process.stdout.write(String(performance.now() - t)))`;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/**
 * Median ratio of a cold `import()` of the built package to a cold `import('stripe')`,
 * each in a fresh Node process, interleaved so machine noise hits both alike.
 */
export function coldImportRatio(distEntry: string, runs = 21): number {
  const ours = pathToFileURL(distEntry).href;
  const ratios: number[] = [];
  for (let run = 0; run < runs; run++) ratios.push(importMs(ours) / importMs('stripe'));
  return median(ratios);
}
