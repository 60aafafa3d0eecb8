import type { PaymentJournal } from '../../index.js';
import type { DoctorConfig } from './config.js';
import type { ApiProbe } from './probe.js';

/** How a check ended: `warn` does not fail the run; `skip` means its settings or a check it needs are missing. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** What one check found. */
export interface CheckResult {
  readonly status: CheckStatus;
  /** A short name of what is wrong, stable for scripts (`invalid_api_key`, `webhook_not_found`). */
  readonly problem?: string | undefined;
  /** What was seen, in one line; never a secret. */
  readonly detail: string;
  /** What to do about it; set on every `fail` and `warn`. */
  readonly fix?: string | undefined;
}

/** One row of the doctor's report. */
export interface CheckReport extends CheckResult {
  /** The check's id, such as `api-key`. */
  readonly id: string;
  /** What it checks, in a few words. */
  readonly title: string;
}

/** What checks may call outside themselves, replaceable in tests. */
export interface DoctorDeps {
  /** Every HTTP request goes through it. @default globalThis.fetch */
  readonly fetch: typeof globalThis.fetch;
  /** This machine's clock. @default Date.now */
  readonly now: () => number;
  /** Resolves a host name; rejects when it does not resolve. @default node:dns lookup */
  readonly lookup: (hostname: string) => Promise<unknown>;
  /** The journal to judge the sweeper by, instead of opening `storeUrl`. */
  readonly journal?: PaymentJournal | undefined;
}

/** What every check receives. */
export interface CheckContext {
  readonly config: DoctorConfig;
  readonly deps: DoctorDeps;
  /** The one read of the API the API checks share (made at most once). */
  readonly probe: () => Promise<ApiProbe>;
  /** The store the journal checks share (opened at most once, closed after the run). */
  readonly store: () => Promise<import('./store.js').OpenedStore | undefined>;
}

/** One check: an id, what it needs, and its work. */
export interface DoctorCheck {
  readonly id: string;
  readonly title: string;
  /** Checks that must pass (or warn) first; when one did not, this one is skipped. */
  readonly needs?: readonly string[];
  run(context: CheckContext): Promise<CheckResult>;
}

/** A passing result. */
export const pass = (detail: string): CheckResult => ({ status: 'pass', detail });

/** A skipped result, saying what to set for the check to run. */
export const skip = (detail: string): CheckResult => ({ status: 'skip', detail });

/** A failed result, with its problem and fix. */
export const fail = (problem: string, detail: string, fix: string): CheckResult => ({
  status: 'fail',
  problem,
  detail,
  fix,
});

/** A warning, with its problem and fix. */
export const warn = (problem: string, detail: string, fix: string): CheckResult => ({
  status: 'warn',
  problem,
  detail,
  fix,
});
