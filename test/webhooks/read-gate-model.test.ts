import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { TransactionResult } from '../../src/schemas/responses.js';
import { type ReadGate, readGate } from '../../src/webhooks/read-gate.js';

const MAX = 2;
const NOT_FOUND_MS = 30_000;
/** A real transaction, three forged ids the service never issued, and one whose reads fail with a 5xx. */
const IDS = ['tx_real', 'tx_forged_a', 'tx_forged_b', 'tx_forged_c', 'tx_flaky'] as const;
type Id = (typeof IDS)[number];

/** What the model knows, from the calls the gate made and the reads it got back. */
interface Model {
  now: number;
  /** Reads in flight, by transaction id. */
  readonly reading: Map<string, number>;
  /** Ids whose first delivery (the one that read) has not been answered yet. */
  readonly leading: Set<string>;
  /** When each `transaction_not_found` read settled, plus NOT_FOUND_MS. */
  readonly notFoundUntil: Map<string, number>;
  readonly readsById: Map<string, number>;
  deliveries: number;
}

interface Real {
  readonly gate: ReadGate;
  readonly deliver: (read: Promise<TransactionResult>) => Promise<Response>;
  readonly answers: Promise<void>[];
}

/** How often each rule decided a delivery, over all runs: each must have been reached. */
const seen = { shared: 0, remembered: 0, busy: 0, read: 0 };

const inFlight = (model: Model) => [...model.reading.values()].reduce((sum, count) => sum + count, 0);

/** One delivery of a transaction event, checked against what the model says the gate must do. */
function deliverOne(id: Id, model: Model, real: Real): Promise<unknown> {
  const readsBefore = model.readsById.get(id) ?? 0;
  const leader = !model.leading.has(id);
  const remembered = (model.notFoundUntil.get(id) ?? 0) - model.now;
  const full = inFlight(model) >= MAX;
  const answer = real.gate(id, real.deliver);
  const read = (model.readsById.get(id) ?? 0) > readsBefore;
  model.deliveries += 1;
  seen[!leader ? 'shared' : remembered > 0 ? 'remembered' : full ? 'busy' : 'read'] += 1;
  expect(inFlight(model)).toBeLessThanOrEqual(MAX);
  for (const count of model.reading.values()) expect(count).toBeLessThanOrEqual(1);
  if (leader && remembered > 0) {
    expect(read).toBe(false);
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect([response.status, response.headers.get('retry-after')]).toEqual([
      503,
      String(Math.ceil(remembered / 1000)),
    ]);
    return expect(response.json()).resolves.toMatchObject({ error: 'verification_failed' });
  }
  if (leader && full) {
    expect(read).toBe(false);
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect([response.status, response.headers.get('retry-after')]).toEqual([503, '1']);
    return expect(response.json()).resolves.toMatchObject({ error: 'busy' });
  }
  // A first delivery reads; one that arrives while it runs shares its read and waits for it.
  expect(read).toBe(leader);
  expect(answer).toBeInstanceOf(Promise);
  if (leader) model.leading.add(id);
  real.answers.push(
    (answer as Promise<Response>).then((response) => {
      // A delivery is answered with what its transaction's read said.
      expect(response.status).toBe(id === 'tx_real' ? 200 : 503);
      if (leader) model.leading.delete(id);
    }),
  );
  return Promise.resolve();
}

/** Deliveries that arrive at once (a burst, or several copies of one event). */
class Deliver implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ids: readonly Id[]) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await Promise.all(this.ids.map((id) => deliverOne(id, model, real)));
  }
  toString = () => `deliver(${this.ids.join(', ')})`;
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model) {
    model.now += this.ms;
  }
  toString = () => `advance(${this.ms})`;
}

test('concurrent deliveries through the read gate share one read per transaction, never exceed the bound, and remember not-found for notFoundMs', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.commands(
        [
          fc.array(fc.constantFrom(...IDS), { minLength: 1, maxLength: 4 }).map((ids) => new Deliver(ids)),
          fc.integer({ min: 0, max: 40_000 }).map((ms) => new Advance(ms)),
        ],
        { maxCommands: 40, size: '+1' },
      ),
      async (s, commands) => {
        const model: Model = {
          now: 0,
          reading: new Map(),
          leading: new Set(),
          notFoundUntil: new Map(),
          readsById: new Map(),
          deliveries: 0,
        };
        const outcome = (id: string): TransactionResult => {
          if (id === 'tx_real') {
            return {
              transaction_id: id,
              transaction_status: 'completed',
              reference_id: 'order-1',
              amount: '10.00',
              currency: 'KES',
            } as TransactionResult;
          }
          const code = id === 'tx_flaky' ? 'internal_server_error' : 'transaction_not_found';
          throw Object.assign(new Error(code), { code });
        };
        const reader = {
          getTransaction(id: string) {
            model.readsById.set(id, (model.readsById.get(id) ?? 0) + 1);
            model.reading.set(id, (model.reading.get(id) ?? 0) + 1);
            const read = s.schedule(Promise.resolve(), `read ${id}`).then(() => outcome(id));
            // Registered before the gate's own handlers, so the model has seen the read end first.
            const settled = (notFound: boolean) => {
              model.reading.set(id, (model.reading.get(id) ?? 1) - 1);
              if (notFound) model.notFoundUntil.set(id, model.now + NOT_FOUND_MS);
            };
            read.then(
              () => settled(false),
              (error: { code?: string }) => settled(error.code === 'transaction_not_found'),
            );
            return read;
          },
        };
        const real: Real = {
          gate: readGate(reader, { maxVerifications: MAX, notFoundMs: NOT_FOUND_MS }, () => model.now),
          // The callback is a step of its own, so deliveries arrive while the first one is still running.
          deliver: async (read) => {
            try {
              await read;
            } catch {
              return new Response(null, { status: 503 });
            }
            await s.schedule(Promise.resolve(), 'callback');
            return new Response(null, { status: 200 });
          },
          answers: [],
        };
        await fc.scheduledModelRun(s, () => ({ model, real }), commands);
        // Reads and callbacks scheduled late join the scheduler after it emptied once.
        let over = false;
        const all = Promise.all(real.answers).finally(() => {
          over = true;
        });
        while (!over) {
          await s.waitAll();
          await new Promise((resolve) => setImmediate(resolve));
        }
        await all;
        expect(inFlight(model)).toBe(0);
        expect(model.leading.size).toBe(0);
        const reads = [...model.readsById.values()].reduce((sum, count) => sum + count, 0);
        expect(reads).toBeLessThanOrEqual(model.deliveries);
      },
    ),
    { numRuns: 200 },
  );
  process.stdout.write(`read gate model: deliveries decided by rule ${JSON.stringify(seen)}\n`);
  for (const count of Object.values(seen)) expect(count).toBeGreaterThan(0);
});
