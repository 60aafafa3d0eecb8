import fc from 'fast-check';
import { expect, test, vi } from 'vitest';
import { createMemoryJournal } from '../../src/journal/memory.js';
import type { PaymentJournal } from '../../src/journal/types.js';
import { type Settlement, settle } from '../../src/settlement/settle.js';

/** What the model knows: each payment's end, and which callbacks completed for it. */
interface Model {
  readonly ends: Map<string, 'completed' | 'failed' | 'refused'>;
}

interface Real {
  readonly journal: PaymentJournal;
  /** One settlement per instance, sharing the journal; each counts its completed callbacks. */
  readonly instances: Settlement[];
  readonly completed: Map<string, string[]>;
  /** References whose next callback run throws once (a process dying in it, as far as the claim sees). */
  readonly failNext: Set<string>;
  readonly running: Promise<unknown>[];
}

const REFERENCES = ['ref-a', 'ref-b', 'ref-c'];

class End implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly reference: string,
    readonly end: 'completed' | 'failed' | 'refused',
  ) {}
  check = (model: Readonly<Model>) => !model.ends.has(this.reference);
  async run(model: Model, real: Real) {
    model.ends.set(this.reference, this.end);
    await real.journal.record({ referenceId: this.reference, endpoint: 'withdraw', body: {} });
    await real.journal.update(
      this.reference,
      this.end === 'refused'
        ? { state: 'refused', reason: 'insufficient_balance' }
        : { state: this.end, transactionId: `tx-${this.reference}`, transactionStatus: this.end },
    );
  }
  toString = () => `end(${this.reference}, ${this.end})`;
}

/** Two instances settle the same payment at once, as a call's answer and a webhook do. */
class SettleTwice implements fc.AsyncCommand<Model, Real> {
  constructor(readonly reference: string) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    const [one, two] = real.instances as [Settlement, Settlement];
    real.running.push(settle(one, this.reference), settle(two, this.reference));
  }
  toString = () => `settleTwice(${this.reference})`;
}

class FailNext implements fc.AsyncCommand<Model, Real> {
  constructor(readonly reference: string) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    real.failNext.add(this.reference);
  }
  toString = () => `failNext(${this.reference})`;
}

test('concurrent settlements of final and refused payments run the right callback exactly once per reference, a failed run again later', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.commands(
        [
          fc
            .tuple(
              fc.constantFrom(...REFERENCES),
              fc.constantFrom('completed', 'failed', 'refused') as fc.Arbitrary<
                'completed' | 'failed' | 'refused'
              >,
            )
            .map(([reference, end]) => new End(reference, end)),
          fc.constantFrom(...REFERENCES).map((reference) => new SettleTwice(reference)),
          fc.constantFrom(...REFERENCES).map((reference) => new FailNext(reference)),
        ],
        { maxCommands: 20 },
      ),
      async (s, commands) => {
        const journal = createMemoryJournal();
        const completed = new Map<string, string[]>();
        const failNext = new Set<string>();
        const done = (reference: string, what: string) => {
          if (failNext.delete(reference)) throw new Error('the callback died');
          completed.set(reference, [...(completed.get(reference) ?? []), what]);
        };
        // Every journal step is scheduled, so claims and completions of both instances interleave.
        const scheduled = new Proxy(journal, {
          get(target, name, receiver) {
            const value = Reflect.get(target, name, receiver);
            if (
              typeof value !== 'function' ||
              !['claimSettlement', 'completeSettlement'].includes(String(name))
            )
              return value;
            return (...args: unknown[]) =>
              s.schedule(Promise.resolve(), String(name)).then(() => value.apply(target, args));
          },
        });
        const instance = (): Settlement => ({
          journal: scheduled,
          // Longer than any run here: two runs overlap only when one outlives its lease (at least once).
          leaseMs: 60_000,
          logger: undefined,
          onSettled: async (intent, status) => done(intent.referenceId, status),
          onRefused: async (intent) => done(intent.referenceId, 'refused'),
        });
        const real: Real = { journal, instances: [instance(), instance()], completed, failNext, running: [] };
        const model: Model = { ends: new Map() };
        // Steps scheduled by steps (a completion after its claim) join the scheduler late.
        const drain = async (work: Promise<unknown>) => {
          let over = false;
          const watched = work.finally(() => {
            over = true;
          });
          while (!over) {
            await s.waitAll();
            await new Promise((resolve) => setImmediate(resolve));
          }
          await watched;
        };
        await fc.scheduledModelRun(s, () => ({ model, real }), commands);
        await drain(Promise.all(real.running));
        // What a later sweep does: settle whatever is still unsettled, until nothing is.
        failNext.clear();
        const now = Date.now();
        vi.spyOn(Date, 'now').mockReturnValue(now + 120_000);
        for (const reference of model.ends.keys()) {
          // As the sweeper does, once the lease of a run that died has ended.
          await drain(settle(real.instances[0] as Settlement, reference));
        }
        for (const [reference, end] of model.ends) {
          expect([reference, completed.get(reference)]).toEqual([reference, [end]]);
          expect((await journal.get(reference))?.settledAt).toBeDefined();
        }
        for (const reference of REFERENCES.filter((one) => !model.ends.has(one)))
          expect(completed.get(reference)).toBeUndefined();
        vi.restoreAllMocks();
      },
    ),
    { numRuns: 150 },
  );
});
