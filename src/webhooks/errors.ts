import { describeIssues, WalletError, type WalletIssue } from '../errors.js';

/** A webhook body could not be accepted. */
export class WalletWebhookError extends WalletError {
  /** Always `'WalletWebhookError'`. */
  override readonly name = 'WalletWebhookError' as const;
  /** A short machine-readable reason. */
  readonly reason: 'invalid_json' | 'too_large' | 'unknown_event' | 'invalid_fields' | 'invalid_body';
  /** Every problem found in the body, each naming its field; empty when the body as a whole was refused. */
  readonly issues: readonly WalletIssue[];

  constructor(reason: WalletWebhookError['reason'], message: string, issues: readonly WalletIssue[] = []) {
    super(issues.length > 0 ? describeIssues(message, issues) : message);
    this.reason = reason;
    this.issues = issues;
  }
}
