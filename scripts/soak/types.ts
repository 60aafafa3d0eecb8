import type { SoakInvariants } from './invariants.js';

/** Options of `runSoak` in `scripts/soak.ts`. */
export interface SoakOptions {
  /** Deposits and withdrawals to make. @default 10_000 */
  operations?: number | undefined;
  /** Seed of the plan (operations, amounts, reference ids, faults). @default 1 */
  seed?: number | undefined;
  /** Share of operations that arm a fault. @default 0.2 */
  faultRate?: number | undefined;
  /** Share of operations that reuse an earlier reference id. @default 0.03 */
  reuseRate?: number | undefined;
  /** Calls in flight at once. @default 16 */
  concurrency?: number | undefined;
  /** Per-attempt time limit of the client. @default 150 */
  timeoutMs?: number | undefined;
  /** `node` (default transport) or `fetch` (the global fetch). @default 'node' */
  transport?: 'node' | 'fetch' | undefined;
}

/** The counts and invariants of one run. */
export interface SoakResult {
  readonly seed: number;
  readonly operations: number;
  readonly succeeded: number;
  /** Failed operations per label (`WalletApiError <code>` or the error class). */
  readonly failures: Readonly<Record<string, number>>;
  readonly faultsArmed: number;
  readonly faultsLeftArmed: number;
  readonly transactions: number;
  readonly maxTransactionsPerReference: number;
  readonly logLines: number;
  readonly durationMs: number;
  readonly invariants: SoakInvariants;
  /** Sum of the invariants' violation counts; 0 when all hold. */
  readonly violations: number;
}
