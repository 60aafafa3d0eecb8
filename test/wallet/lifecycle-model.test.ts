import fc from 'fast-check';
import { expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import { Lifecycle } from '../../src/wallet/lifecycle.js';

/** What the real lifecycle did, in order, and what the model knows of the calls made. */
interface World {
  readonly lifecycle: Lifecycle;
  readonly log: string[];
  /** Deliveries the inner handler is running now. */
  running: number;
  readonly pending: Promise<unknown>[];
  /** A step that ends when the scheduler says. */
  readonly step: <T>(name: string, value: T) => Promise<T>;
}

interface Model {
  started: boolean;
  closed: boolean;
}

const post = () => new Request('http://wallet.test/hook', { method: 'POST', body: '{}' });

class Start implements fc.AsyncCommand<Model, World> {
  check = () => true;
  async run(model: Model, world: World) {
    const before = model.closed;
    model.started = true;
    const started = world.lifecycle.start();
    world.pending.push(
      started.then(
        () => expect(before).toBe(false),
        (error: unknown) => {
          // Only a start after close() is refused; no step of this world throws.
          expect(before).toBe(true);
          expect(error).toBeInstanceOf(WalletConfigError);
        },
      ),
    );
  }
  toString = () => 'start';
}

class Close implements fc.AsyncCommand<Model, World> {
  check = () => true;
  async run(model: Model, world: World) {
    model.closed = true;
    world.pending.push(world.lifecycle.close());
  }
  toString = () => 'close';
}

class Deliver implements fc.AsyncCommand<Model, World> {
  check = () => true;
  async run(_model: Model, world: World) {
    const answer = world.lifecycle.gate(async () => {
      world.log.push(`handled:${world.lifecycle.state}`);
      await world.step('delivery', undefined);
      return new Response('{}', { status: 200 });
    });
    world.pending.push(
      answer(post()).then((response) => {
        expect([200, 503]).toContain(response.status);
      }),
    );
  }
  toString = () => 'deliver';
}

test('start, close and webhook deliveries in any interleaving keep the order: migrate, intake, recovery, sweeper, ready; close drains before it stops the client', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.commands([fc.constant(new Start()), fc.constant(new Close()), fc.constant(new Deliver())], {
        maxCommands: 12,
      }),
      async (s, commands) => {
        const log: string[] = [];
        const step = <T>(name: string, value: T) => {
          log.push(`${name}:begin`);
          return s.schedule(Promise.resolve(value), name).then((result) => {
            log.push(`${name}:end`);
            return result;
          });
        };
        let swept = false;
        const lifecycle = new Lifecycle({
          migrate: () => step('migrate', undefined),
          recover: () => step('recover', { claimed: 0, settled: 0, intents: [] }),
          supervise: (signal) => {
            log.push('sweeper:begin');
            return new Promise<void>((resolve) => {
              signal.addEventListener('abort', () => {
                swept = true;
                log.push('sweeper:end');
                resolve();
              });
            });
          },
          closeClient: () => {
            expect(swept || !log.includes('sweeper:begin')).toBe(true);
            return step('closeClient', undefined);
          },
        });
        const world: World = { lifecycle, log, running: 0, pending: [], step };
        await fc.scheduledModelRun(
          s,
          () => ({ model: { started: false, closed: false }, real: world }),
          commands,
        );
        // Steps scheduled by steps (close() after a start) join the scheduler late: run until all settled.
        let settled = false;
        const all = Promise.all(world.pending).finally(() => {
          settled = true;
        });
        while (!settled) {
          await s.waitAll();
          await new Promise((resolve) => setImmediate(resolve));
        }
        await all;

        // Every delivery the inner handler ran came while the intake was open: after migrate, before close.
        for (const entry of log.filter((one) => one.startsWith('handled:'))) {
          expect(['starting', 'ready']).toContain(entry.slice('handled:'.length));
          expect(log.indexOf('migrate:end')).toBeLessThan(log.indexOf(entry));
        }
        const at = (name: string) => log.indexOf(name);
        if (at('recover:begin') >= 0) expect(at('migrate:end')).toBeLessThan(at('recover:begin'));
        if (at('sweeper:begin') >= 0) expect(at('recover:end')).toBeLessThan(at('sweeper:begin'));
        if (at('closeClient:begin') >= 0) {
          expect(log.filter((one) => one === 'closeClient:begin')).toHaveLength(1);
          // Every delivery ended before the client began to close, and none began after.
          expect(log.lastIndexOf('delivery:end')).toBeLessThan(at('closeClient:begin'));
          expect(log.slice(at('closeClient:begin')).some((one) => one.startsWith('handled:'))).toBe(false);
        }
        const closed = commands.toString().includes('close');
        const started = commands.toString().includes('start');
        if (closed) expect(lifecycle.state).toBe('closed');
        else if (started) expect(lifecycle.state).toBe('ready');
        else expect(lifecycle.state).toBe('created');
      },
    ),
    { numRuns: 200 },
  );
});
