/**
 * Runs the lifecycle model for a number of sequences against one sandbox, called in process and
 * reset between them, on a virtual clock.
 */
import fc from 'fast-check';
import { createSandbox, createSandboxRequestHandler } from '../../src/testing/index.js';
import { type Command, commandArbitrary, MODEL_BASE_URL, World } from './lifecycle.js';
import { VirtualClock } from './virtual-clock.js';

/** What a run did. */
export interface ModelReport {
  readonly sequences: number;
  readonly commands: number;
  readonly seconds: number;
  /** How much virtual time the sequences spent, in seconds (a model on a virtual clock). */
  readonly virtualSeconds?: number;
  readonly seed: number;
}

/** Options of {@link runModel}. */
export interface ModelOptions {
  readonly sequences: number;
  readonly maxCommands: number;
  readonly seed?: number;
  /** Called every `progressEvery` sequences with what ran so far. */
  readonly onProgress?: (report: ModelReport) => void;
  readonly progressEvery?: number;
}

/** Runs `sequences` random sequences (each of at most `maxCommands`); throws fast-check's report on a broken rule. */
export async function runModel(options: ModelOptions): Promise<ModelReport> {
  const clock = new VirtualClock();
  const sandbox = createSandbox();
  const handle = createSandboxRequestHandler(sandbox, {
    baseUrl: MODEL_BASE_URL,
    authUrl: `${MODEL_BASE_URL}auth`,
  });
  const seed = options.seed ?? Date.now() % 2_147_483_647;
  let sequence = 0;
  let commands = 0;
  // Real time, read through the real clock while the virtual one is installed.
  const realNow = performance.now.bind(performance);
  const started = realNow();
  const report = (): ModelReport => ({
    sequences: sequence,
    commands,
    seconds: (realNow() - started) / 1000,
    virtualSeconds: clock.advanced / 1000,
    seed,
  });
  const every = options.progressEvery ?? 500;
  clock.install();
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(commandArbitrary, { minLength: 1, maxLength: options.maxCommands }),
        async (steps: Command[]) => {
          sandbox.reset();
          sequence += 1;
          const world = new World(sandbox, handle, sequence, clock);
          for (const step of steps) {
            await world.run(step);
            commands += 1;
            const broken = world.chargedTwice();
            if (broken.length > 0) throw new Error(broken.join('; '));
          }
          const broken = await world.settledDisagreements();
          if (broken.length > 0) throw new Error(broken.join('; '));
          if (sequence % every === 0) options.onProgress?.(report());
        },
      ),
      { numRuns: options.sequences, seed },
    );
  } finally {
    clock.uninstall();
    sandbox.close();
  }
  return report();
}
