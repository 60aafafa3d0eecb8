/**
 * A sweep works only within its lease on the intents it claimed: a re-send still running as the
 * lease nears its end is stopped (it ends `unknown`), and an intent not reached by then is left to
 * a later sweep (`left`), so no two sweepers ever send one payment at once.
 */
import { expect, test } from 'vitest';
import { createMemoryJournal } from '../../src/index.js';
import { useServerTarget } from '../integration/harness.js';

const target = useServerTarget();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a slow re-send is stopped before the lease ends, and what the lease no longer covers is left to the next sweep', async () => {
  const journal = createMemoryJournal();
  const wallet = target().client('node', { journal, maxRetries: 0 });
  const references = ['first', 'second', 'third'].map((name) => `lease-${name}-${crypto.randomUUID()}`);
  for (const referenceId of references) {
    const body = { reference_id: referenceId, email: 'alice@example.com', amount: 1, currency: 'KES' };
    // Left `sending` by a crash: no call holds it, so it is due once its grace has passed.
    await journal.record({ referenceId, endpoint: 'withdraw', body });
  }
  await pause(5);
  const sent = () =>
    target()
      .sandbox.transactions()
      .filter((one) => references.includes(one.reference_id as string));
  const fault = target().sandbox.faults.inject({ kind: 'latency', route: 'withdraw', ms: 1_200, every: 1 });
  const sweep = { sendingGraceMs: 1, leaseMs: 2_000, concurrency: 1 };
  const started = performance.now();
  const report = await wallet.sweepOnce(sweep);
  const tookMs = performance.now() - started;
  fault.remove();

  expect(report.claimed).toBe(3);
  // The sweep worked until 90 % of its lease: 1.2 s for the first, then the second stopped at 1.8 s.
  expect(report.intents.map(({ referenceId, outcome }) => [referenceId, outcome])).toEqual([
    [references[0], 'applied'],
    [references[1], 'unknown'],
    [references[2], 'left'],
  ]);
  expect(report.intents[1]?.reason).toMatch(/abort/i);
  expect(sent().map((one) => one.reference_id)).not.toContain(references[2]);
  expect(await journal.get(references[2] as string)).toMatchObject({ state: 'sending' });

  // Once the lease has ended, the next sweep takes up the intent left (the stopped one is due on its
  // schedule, a minute on): each payment is sent once in all.
  await pause(Math.max(0, 2_300 - tookMs));
  const next = await wallet.sweepOnce(sweep);
  expect(next.intents.map(({ referenceId, outcome }) => [referenceId, outcome])).toEqual([
    [references[2], 'applied'],
  ]);
  await pause(1_300);
  for (const referenceId of references) {
    expect(sent().filter((one) => one.reference_id === referenceId)).toHaveLength(1);
  }
});
