import type { PaymentJournal } from '../journal/types.js';
import type { ConformanceCheck } from './check.js';
import { moveChecks } from './journal-move-checks.js';
import { recordChecks } from './journal-record-checks.js';
import { updateChecks } from './journal-update-checks.js';

/** Makes an empty journal for one check (a fresh table, key prefix or instance). */
export type JournalFactory = () => PaymentJournal | Promise<PaymentJournal>;

/**
 * The checks every {@link PaymentJournal} adapter passes: what `record` keeps, how `update` moves an
 * intent, and every pair of states against the one rule of `canMove`. Each check runs against a fresh
 * journal from `factory`. Test-runner agnostic: run them in any runner, e.g. with vitest or `node:test`:
 *
 * @example
 * for (const check of journalConformanceChecks(() => createMyJournal())) test(check.name, check.run);
 */
export function journalConformanceChecks(factory: JournalFactory): ConformanceCheck[] {
  return Object.entries({ ...recordChecks, ...updateChecks, ...moveChecks }).map(([name, check]) => ({
    name,
    run: async () => check(await factory()),
  }));
}
