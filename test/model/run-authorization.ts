/** Runs the authorization model for a number of sequences against one sandbox server, reset between them. */
import fc from 'fast-check';
import { createSandbox, startSandboxServer } from '../../src/testing/index.js';
import { type AuthStep, AuthWorld, stepArbitrary } from './authorization.js';
import type { ModelReport } from './run-model.js';

/** Runs `sequences` random sequences (each of at most `maxSteps`); throws fast-check's report on a broken rule. */
export async function runAuthorizationModel(options: {
  sequences: number;
  maxSteps: number;
  seed?: number;
}): Promise<ModelReport> {
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox, port: 0 });
  const seed = options.seed ?? Date.now() % 2_147_483_647;
  let sequence = 0;
  let commands = 0;
  const started = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: options.maxSteps }),
        async (steps: AuthStep[]) => {
          sandbox.reset();
          sequence += 1;
          const world = new AuthWorld(sandbox, server.baseUrl, server.authUrl);
          try {
            for (const step of steps) {
              await Promise.all(step.map((command) => world.run(command)));
              commands += step.length;
              const broken = await world.broken();
              if (broken.length > 0) throw new Error(broken.join('; '));
            }
            const untold = await world.told();
            if (untold.length > 0) throw new Error(untold.join('; '));
          } finally {
            await world.close();
          }
        },
      ),
      { numRuns: options.sequences, seed },
    );
  } finally {
    sandbox.close();
    await server.close();
  }
  return { sequences: sequence, commands, seconds: (performance.now() - started) / 1000, seed };
}
