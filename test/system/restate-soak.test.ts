import { expect, test } from 'vitest';
import { runRestateSoak } from '../../scripts/soak-restate/run.js';

// The real Restate server from npm, the checkout service of examples/restate killed with SIGKILL 20
// times while orders run, PostgreSQL and the sandbox over HTTP: about a minute and a half here.
test('payments inside a Restate service under 20 SIGKILLs: none paid twice, every order settled once, the journal equal to the ledger', async () => {
  const report = await runRestateSoak({ kills: 20, orders: 150, seed: 20_261_126 });
  expect(report.violations).toEqual([]);
  expect(report.figures).toMatchObject({
    kills: 20,
    paidTwice: 0,
    unfinished: 0,
    fulfilledNotOnce: 0,
    journalDisagreesWithLedger: 0,
    unsettled: 0,
  });
  // The soak exercised what it claims: payments were made, and some went pending (settled through
  // the awakeable) beside the instant ones.
  expect(report.figures.payments).toBeGreaterThanOrEqual(100);
  expect(report.figures.completed).toBeGreaterThanOrEqual(100);
}, 300_000);
