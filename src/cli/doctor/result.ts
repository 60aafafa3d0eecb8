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
