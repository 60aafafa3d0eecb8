import { describeIssues, WalletError, type WalletIssue } from '../errors.js';

/** A webhook body could not be accepted, or (with `verifyWith`) the status endpoint did not confirm it. */
export class WalletWebhookError extends WalletError {
  /** Always `'WalletWebhookError'`. */
  override readonly name = 'WalletWebhookError' as const;
  /** A short machine-readable reason; `not_confirmed`: the status endpoint disagreed (see `issues`). */
  readonly reason:
    | 'invalid_json'
    | 'too_large'
    | 'unknown_event'
    | 'invalid_fields'
    | 'invalid_body'
    | 'not_confirmed';
  /**
   * Every problem found in the body, each naming its field; empty when the body as a whole was
   * refused. For `not_confirmed`, each field that differs from the status endpoint.
   */
  readonly issues: readonly WalletIssue[];

  constructor(reason: WalletWebhookError['reason'], message: string, issues: readonly WalletIssue[] = []) {
    super(issues.length > 0 ? describeIssues(message, issues) : message);
    this.reason = reason;
    this.issues = issues;
  }
}
