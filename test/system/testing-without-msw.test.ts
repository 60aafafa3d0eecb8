import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './runtimes.js';

const run = promisify(execFile);

/**
 * A project outside the repository with the built `merchant-wallet/testing` entry installed
 * and no msw anywhere up its tree, as in a strict TypeScript project that never added msw.
 */
let project: string;

const CONSUMER = `import { createSandbox, sandboxHandlers, startSandboxServer, type SandboxMswHandler } from 'merchant-wallet/testing';

const sandbox = createSandbox();
const server = await startSandboxServer({ sandbox, port: 0 });
const handlers: SandboxMswHandler[] = await sandboxHandlers(sandbox, server);
console.log(handlers.length);
`;

const RUNTIME = `import { createSandbox, sandboxHandlers } from 'merchant-wallet/testing';

const sandbox = createSandbox();
try {
  await sandboxHandlers(sandbox, { baseUrl: 'https://wallet.test', authUrl: 'https://wallet.test/auth' });
  console.log('resolved');
} catch (error) {
  console.log(JSON.stringify({ name: error.name, option: error.option, message: error.message }));
} finally {
  sandbox.close();
}
`;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'mw-no-msw-'));
  const pkg = join(project, 'node_modules/merchant-wallet');
  await mkdir(join(project, 'node_modules/@types'), { recursive: true });
  // What installing the package brings along: its dependency zod (declarations refer to it), and Node's types.
  await symlink(join(ROOT, 'node_modules/@types/node'), join(project, 'node_modules/@types/node'));
  await symlink(join(ROOT, 'node_modules/zod'), join(project, 'node_modules/zod'));
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/tsup/dist/cli-default.js'),
      'src/testing/index.ts',
      '--no-config',
      '--format',
      'esm',
      '--dts',
      '--target',
      'node20',
      '--out-dir',
      join(pkg, 'dist'),
    ],
    { cwd: ROOT },
  );
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({
      name: 'merchant-wallet',
      type: 'module',
      exports: { './testing': { types: './dist/index.d.ts', default: './dist/index.js' } },
    }),
  );
  await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(project, 'consumer.ts'), CONSUMER);
  await writeFile(join(project, 'runtime.mjs'), RUNTIME);
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        types: ['node'],
        noEmit: true,
      },
      files: ['consumer.ts'],
    }),
  );
}, 120_000);

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('merchant-wallet/testing without msw installed', () => {
  test('msw cannot be resolved from the project (the premise of the other tests)', async () => {
    const resolve = run(process.execPath, ['--input-type=module', '-e', "await import('msw')"], {
      cwd: project,
    });
    await expect(resolve).rejects.toThrow(/Cannot find package 'msw'/);
  });

  test('its declarations type-check with skipLibCheck false', async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', project]).then(
      () => ({ ok: true, output: '' }),
      (error: { stdout: string }) => ({ ok: false, output: error.stdout }),
    );
    expect(result).toEqual({ ok: true, output: '' });
    // skipLibCheck false checks @types/node and zod too, which takes a while on a busy machine.
  }, 180_000);

  test('sandboxHandlers rejects with a WalletConfigError that says to install msw', async () => {
    const { stdout } = await run(process.execPath, ['runtime.mjs'], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      name: 'WalletConfigError',
      option: 'msw',
      message: 'msw: is not installed: sandboxHandlers needs msw 2 (npm install -D msw)',
    });
  });
});
