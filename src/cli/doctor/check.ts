import type { DoctorConfig } from './config.js';
import type { DoctorDeps } from './deps.js';
import type { ApiProbe } from './probe.js';
import type { CheckResult } from './result.js';
import type { OpenedStore } from './store.js';

export type { DoctorDeps } from './deps.js';
export { type CheckResult, type CheckStatus, fail, pass, skip, warn } from './result.js';

/** One row of the doctor's report. */
export interface CheckReport extends CheckResult {
  /** The check's id, such as `api-key`. */
  readonly id: string;
  /** What it checks, in a few words. */
  readonly title: string;
}

/** What every check receives. */
export interface CheckContext {
  readonly config: DoctorConfig;
  readonly deps: DoctorDeps;
  /** The one read of the API the API checks share (made at most once). */
  readonly probe: () => Promise<ApiProbe>;
  /** The store the journal checks share (opened at most once, closed after the run). */
  readonly store: () => Promise<OpenedStore | undefined>;
}

/** One check: an id, what it needs, and its work. */
export interface DoctorCheck {
  readonly id: string;
  readonly title: string;
  /** Checks that must pass (or warn) first; when one did not, this one is skipped. */
  readonly needs?: readonly string[];
  run(context: CheckContext): Promise<CheckResult>;
}
