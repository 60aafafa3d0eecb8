import fc from 'fast-check';
import { afterEach, expect, test, vi } from 'vitest';
import { type HeldLease, type SendingLeases, sendingLeases } from '../../src/client/sending-lease.js';
import { createMemoryJournal } from '../../src/index.js';
import type { PaymentJournal } from '../../src/journal/types.js';

afterEach(() => vi.useRealTimers());

const LEASE_MS = 40;

/** A journal that records when each lease would end, as renewals move it. */
function leaseClock() {
  const endsAt = new Map<string, number>();
  const renewedAfterRelease: string[] = [];
  const released = new Set<string>();
  const journal = {
    ...createMemoryJournal(),
    async renewSending(referenceId: string, recordedBy: string, leaseMs: number) {
      if (released.has(referenceId)) renewedAfterRelease.push(referenceId);
      expect(recordedBy).toBe(`call-${referenceId}`);
      endsAt.set(referenceId, Date.now() + leaseMs);
      return true;
    },
  } satisfies PaymentJournal;
  return { journal, endsAt, released, renewedAfterRelease };
}

interface Real {
  readonly leases: SendingLeases;
  readonly clock: ReturnType<typeof leaseClock>;
  readonly held: Map<string, HeldLease>;
}
interface Model {
  next: number;
  readonly held: Set<string>;
}

/** A call records its intent, taking its lease for LEASE_MS, and holds it while it sends. */
class Hold implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    const referenceId = `p${model.next++}`;
    real.clock.endsAt.set(referenceId, Date.now() + LEASE_MS);
    real.held.set(referenceId, real.leases.hold(referenceId, `call-${referenceId}`));
    model.held.add(referenceId);
  }
  toString = () => 'hold';
}

/** A call in flight ends, whichever it is. */
class Release implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.held.size > 0;
  async run(model: Model, real: Real) {
    const referenceId = [...model.held][this.pick % model.held.size] as string;
    real.leases.release(real.held.get(referenceId) as HeldLease);
    real.clock.released.add(referenceId);
    model.held.delete(referenceId);
    real.held.delete(referenceId);
  }
  toString = () => `release(${this.pick})`;
}

/** Time passes; no lease of a call still in flight may have ended meanwhile. */
class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    for (let step = 0; step < this.ms; step++) {
      await vi.advanceTimersByTimeAsync(1);
      for (const referenceId of model.held)
        expect(real.clock.endsAt.get(referenceId), referenceId).toBeGreaterThan(Date.now());
    }
  }
  toString = () => `advance(${this.ms})`;
}

test('however calls start and end, no lease of a call in flight ends, none is renewed after its call, and no timer outlives the last', async () => {
  vi.useFakeTimers();
  const commands = [
    fc.constant(new Hold()),
    fc.nat().map((pick) => new Release(pick)),
    fc.integer({ min: 0, max: 2 * LEASE_MS }).map((ms) => new Advance(ms)),
  ];
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (sequence) => {
      vi.clearAllTimers();
      const clock = leaseClock();
      const real: Real = {
        leases: sendingLeases(clock.journal, undefined, LEASE_MS),
        clock,
        held: new Map(),
      };
      const model: Model = { next: 0, held: new Set() };
      await fc.asyncModelRun(() => ({ model, real }), sequence);
      await vi.advanceTimersByTimeAsync(LEASE_MS);
      expect(clock.renewedAfterRelease).toEqual([]);
      expect(vi.getTimerCount()).toBe(model.held.size === 0 ? 0 : 1);
    }),
    { numRuns: 200 },
  );
});

test('a call shorter than a quarter lease writes no renewal', async () => {
  vi.useFakeTimers();
  const clock = leaseClock();
  const renew = vi.spyOn(clock.journal, 'renewSending');
  const leases = sendingLeases(clock.journal, undefined, LEASE_MS);
  for (let call = 0; call < 20; call++) {
    const lease = leases.hold(`p${call}`, `call-p${call}`);
    await vi.advanceTimersByTimeAsync(LEASE_MS / 4 - 1);
    leases.release(lease);
  }
  expect(renew).not.toHaveBeenCalled();
  expect(vi.getTimerCount()).toBe(0);
});

test('a renewal that fails is logged with the reference, never thrown, and tried again on the next tick', async () => {
  vi.useFakeTimers();
  const warnings: unknown[] = [];
  const journal = {
    ...createMemoryJournal(),
    renewSending: vi.fn(async () => Promise.reject(new Error('store down'))),
  };
  const leases = sendingLeases(journal, { warn: (...args: unknown[]) => warnings.push(args) }, LEASE_MS);
  const lease = leases.hold('p1', 'call-p1');
  // Ticks at a quarter, a half, three quarters and the whole lease: the second renews, the next two retry.
  await vi.advanceTimersByTimeAsync(LEASE_MS);
  expect(journal.renewSending).toHaveBeenCalledTimes(3);
  expect(warnings).toContainEqual([
    'The payment journal could not renew a sending lease',
    { referenceId: 'p1', error: 'Error: store down' },
  ]);
  leases.release(lease);
});

test('a journal that cannot renew a lease gets no timer', () => {
  vi.useFakeTimers();
  const { renewSending: _, ...journal } = createMemoryJournal();
  const leases = sendingLeases(journal, undefined, LEASE_MS);
  leases.release(leases.hold('p1', 'call-p1'));
  leases.release(undefined);
  expect(vi.getTimerCount()).toBe(0);
});

test('a renewSending that throws at once or answers a plain value never escapes the timer', async () => {
  vi.useFakeTimers();
  const warnings: unknown[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(args) };
  const throwing = {
    ...createMemoryJournal(),
    renewSending: vi.fn((): Promise<boolean> => {
      throw new Error('not connected');
    }),
  };
  const plain = { ...createMemoryJournal(), renewSending: vi.fn(() => true as unknown as Promise<boolean>) };
  const throwingLeases = sendingLeases(throwing, logger, LEASE_MS);
  const plainLeases = sendingLeases(plain, logger, LEASE_MS);
  const held = [throwingLeases.hold('p1', 'call-p1'), plainLeases.hold('p2', 'call-p2')];
  await vi.advanceTimersByTimeAsync(LEASE_MS);
  // A throw is a failed renewal, tried again each tick; a plain `true` renews, so the next is two ticks on.
  expect(throwing.renewSending).toHaveBeenCalledTimes(3);
  expect(plain.renewSending).toHaveBeenCalledTimes(2);
  expect(warnings).toContainEqual([
    'The payment journal could not renew a sending lease',
    { referenceId: 'p1', error: 'Error: not connected' },
  ]);
  throwingLeases.release(held[0]);
  plainLeases.release(held[1]);
  expect(vi.getTimerCount()).toBe(0);
});

test('a lease the journal no longer holds is logged once and not renewed again', async () => {
  vi.useFakeTimers();
  const warnings: unknown[] = [];
  const journal = { ...createMemoryJournal(), renewSending: vi.fn(async () => false) };
  const leases = sendingLeases(journal, { warn: (...args: unknown[]) => warnings.push(args) }, LEASE_MS);
  const lease = leases.hold('p1', 'call-p1');
  await vi.advanceTimersByTimeAsync(3 * LEASE_MS);
  expect(journal.renewSending).toHaveBeenCalledTimes(1);
  expect(warnings).toEqual([
    [expect.stringContaining("no longer holds this call's sending lease"), { referenceId: 'p1' }],
  ]);
  expect(vi.getTimerCount()).toBe(0);
  leases.release(lease);
  expect(vi.getTimerCount()).toBe(0);
});

test('a renewal still on its way is not sent again by the next tick', async () => {
  vi.useFakeTimers();
  let answer: (renewed: boolean) => void = () => {};
  const journal = {
    ...createMemoryJournal(),
    renewSending: vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve))),
  };
  const leases = sendingLeases(journal, undefined, LEASE_MS);
  const lease = leases.hold('p1', 'call-p1');
  await vi.advanceTimersByTimeAsync(LEASE_MS);
  expect(journal.renewSending).toHaveBeenCalledTimes(1);
  answer(true);
  await vi.advanceTimersByTimeAsync(LEASE_MS / 2);
  expect(journal.renewSending).toHaveBeenCalledTimes(2);
  leases.release(lease);
});
