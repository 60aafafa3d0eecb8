/** Runs the lifecycle model for a number of sequences against one sandbox server, reset between them. */
import fc from 'fast-check';
import { createSandbox, startSandboxServer } from '../../src/testing/index.js';
import { type Command, commandArbitrary, World } from './lifecycle.js';

/** What a run did. */
export interface ModelReport {
  readonly sequences: number;
  readonly commands: number;
  readonly seconds: number;
  readonly seed: number;
}

/** Runs `sequences` random sequences (each of at most `maxCommands`); throws fast-check's report on a broken rule. */
export async function runModel(options: {
  sequences: number;
  maxCommands: number;
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
        fc.array(commandArbitrary, { minLength: 1, maxLength: options.maxCommands }),
        async (steps: Command[]) => {
          sandbox.reset();
          sequence += 1;
          const world = new World(sandbox, server.baseUrl, sequence);
          for (const step of steps) {
            await world.run(step);
            commands += 1;
            const broken = world.chargedTwice();
            if (broken.length > 0) throw new Error(broken.join('; '));
          }
          const broken = await world.settledDisagreements();
          if (broken.length > 0) throw new Error(broken.join('; '));
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
