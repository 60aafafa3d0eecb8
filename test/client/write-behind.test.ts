import fc from 'fast-check';
import { afterEach, expect, test, vi } from 'vitest';
import { GATHER_MS, WritesBehind } from '../../src/client/write-behind.js';

afterEach(() => vi.useRealTimers());

/** A write behind an answer whose end the test decides. */
interface HeldWrite {
  started: boolean;
  ended: boolean;
  finish(): void;
  readonly start: () => Promise<void>;
}

function heldWrite(): HeldWrite {
  const write: HeldWrite = {
    started: false,
    ended: false,
    finish: () => {},
    start: () => {
      if (write.started) throw new Error('a write behind started twice');
      write.started = true;
      return new Promise<void>((resolve) => {
        write.finish = () => {
          write.ended = true;
          resolve();
        };
      });
    },
  };
  return write;
}

test('writes added within one window start together once it ends, not before', async () => {
  vi.useFakeTimers();
  const behind = new WritesBehind();
  const first = heldWrite();
  const second = heldWrite();
  behind.add(first.start);
  await vi.advanceTimersByTimeAsync(GATHER_MS - 1);
  behind.add(second.start);
  expect([first.started, second.started]).toEqual([false, false]);
  expect(behind.size).toBe(2);
  await vi.advanceTimersByTimeAsync(1);
  expect([first.started, second.started]).toEqual([true, true]);
  expect(behind.size).toBe(2);
  first.finish();
  second.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(behind.size).toBe(0);
});

test('drained() starts the gathered writes at once and resolves once they, and those added meanwhile, ended', async () => {
  vi.useFakeTimers();
  const behind = new WritesBehind();
  const first = heldWrite();
  const later = heldWrite();
  behind.add(first.start);
  let drained = false;
  void behind.drained().then(() => {
    drained = true;
  });
  expect(first.started).toBe(true);
  behind.add(later.start);
  first.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(later.started).toBe(true);
  expect(drained).toBe(false);
  later.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(drained).toBe(true);
});

test('a process with nothing else to do still runs the writes it owes', async () => {
  const behind = new WritesBehind();
  const write = heldWrite();
  behind.add(write.start);
  // No fake timers: the gathering timer is referenced, so it fires on its own.
  await vi.waitFor(() => expect(write.started).toBe(true));
  write.finish();
  await behind.drained();
});

/** What the model knows of one write: by when it must have started (its window's end), and the write itself. */
interface ModelWrite {
  readonly real: HeldWrite;
  readonly startsBy: number;
  /** A tracked payment: when it ends, it first adds its outcome's write behind (when it has one). */
  readonly payment?: { readonly writesBehind: boolean };
}

interface Model {
  now: number;
  /** When the open window's writes start (`undefined`: no window open). */
  windowEndsAt: number | undefined;
  readonly writes: ModelWrite[];
  /** Every `drained()` called, with the writes it waits for: those not ended when called or added before it resolved. */
  readonly drains: ModelDrain[];
}

interface ModelDrain {
  resolved: boolean;
  readonly awaited: ModelWrite[];
}

interface Real {
  readonly behind: WritesBehind;
}

/** Every write has started once the window it joined has ended (earlier only when drained). */
function checkStarts(model: Model): void {
  for (const write of model.writes) {
    if (model.now >= write.startsBy) expect(write.real.started).toBe(true);
  }
}

/** A drain resolves exactly when every write it waits for has ended, and never before. */
async function checkDrains(model: Model): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
  for (const drain of model.drains) {
    const due = drain.awaited.every((write) => write.real.ended);
    expect(drain.resolved).toBe(due);
  }
}

/** Adds a write behind to the real set and to the model: it joins the open window, or opens one. */
function addWrite(model: Model, real: Real): void {
  const write = heldWrite();
  real.behind.add(write.start);
  model.windowEndsAt ??= model.now + GATHER_MS;
  const added = { real: write, startsBy: model.windowEndsAt };
  model.writes.push(added);
  for (const drain of model.drains) if (!drain.resolved) drain.awaited.push(added);
}

class Add implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    addWrite(model, real);
    await checkDrains(model);
    expect(real.behind.size).toBe(model.writes.filter((one) => !one.real.ended).length);
  }
  toString = () => 'add';
}

/** A journaled payment starts: tracked from now until it ends, when a success adds its write behind. */
class Track implements fc.AsyncCommand<Model, Real> {
  constructor(readonly writesBehind: boolean) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const write = heldWrite();
    real.behind.track(write.start());
    const tracked = { real: write, startsBy: model.now, payment: { writesBehind: this.writesBehind } };
    model.writes.push(tracked);
    for (const drain of model.drains) if (!drain.resolved) drain.awaited.push(tracked);
    await checkDrains(model);
    expect(real.behind.size).toBe(model.writes.filter((one) => !one.real.ended).length);
  }
  toString = () => `track (${this.writesBehind ? 'writes behind' : 'writes nothing'})`;
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model): Promise<void> {
    await vi.advanceTimersByTimeAsync(this.ms);
    model.now += this.ms;
    if (model.windowEndsAt !== undefined && model.now >= model.windowEndsAt) model.windowEndsAt = undefined;
    checkStarts(model);
    await checkDrains(model);
  }
  toString = () => `advance ${this.ms} ms`;
}

class Finish implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.writes.some((one) => one.real.started && !one.real.ended);
  async run(model: Model, real: Real): Promise<void> {
    const running = model.writes.filter((one) => one.real.started && !one.real.ended);
    const ending = running[this.pick % running.length];
    // A payment adds its outcome's write behind before it settles, as sendJournaled does.
    if (ending?.payment?.writesBehind) addWrite(model, real);
    ending?.real.finish();
    await checkDrains(model);
    expect(real.behind.size).toBe(model.writes.filter((one) => !one.real.ended).length);
  }
  toString = () => `finish #${this.pick}`;
}

class Drain implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const drain: ModelDrain = { resolved: false, awaited: model.writes.filter((one) => !one.real.ended) };
    model.drains.push(drain);
    void real.behind.drained().then(() => {
      drain.resolved = true;
    });
    // Draining starts every gathered write without waiting for the window, and closes it.
    for (const write of model.writes) expect(write.real.started).toBe(true);
    model.windowEndsAt = undefined;
    await checkDrains(model);
  }
  toString = () => 'drain';
}

test('model: every write behind starts exactly once, within its window or when drained, and drained() waits for all of them and for the payments tracked', async () => {
  vi.useFakeTimers();
  const commands = [
    fc.constant(new Add()),
    fc.boolean().map((writesBehind) => new Track(writesBehind)),
    fc.integer({ min: 0, max: 2 * GATHER_MS }).map((ms) => new Advance(ms)),
    fc.nat().map((pick) => new Finish(pick)),
    fc.constant(new Drain()),
  ];
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (sequence) => {
      const model: Model = { now: 0, windowEndsAt: undefined, writes: [], drains: [] };
      const real: Real = { behind: new WritesBehind() };
      await fc.asyncModelRun(() => ({ model, real }), sequence);
      // Then every write owed ends: each starts, the drains resolve, none is left.
      await vi.advanceTimersByTimeAsync(GATHER_MS);
      for (const write of model.writes) {
        expect(write.real.started).toBe(true);
        if (!write.real.ended) write.real.finish();
      }
      await vi.advanceTimersByTimeAsync(0);
      for (const drain of model.drains) expect(drain.resolved).toBe(true);
      expect(real.behind.size).toBe(0);
    }),
    { numRuns: 300 },
  );
});
