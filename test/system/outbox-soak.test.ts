import { expect, test } from 'vitest';
import { runOutboxSoak } from '../../scripts/soak-outbox/run.js';

// PostgreSQL, the sandbox over HTTP, and the outbox recipe's payer and relay processes, 12 SIGKILLs
// between them, publishing to a stand-in consumer: about a minute here (`npm run soak:outbox` runs 20).
test('settlement events through the outbox under 12 SIGKILLs: every settled payment published, none that was not', async () => {
  const report = await runOutboxSoak({ kills: 12, seed: 20_261_126 });
  expect(report.violations).toEqual([]);
  expect(report.figures).toMatchObject({ kills: 12, lost: 0, phantom: 0, disagreeing: 0, unpublished: 0 });
  expect(report.figures.settled).toBeGreaterThanOrEqual(100);
  expect(report.figures.outboxRows).toBe(report.figures.settled);
}, 240_000);
