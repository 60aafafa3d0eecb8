import type { SandboxErrorCode } from '../http/status.js';
import type { DeliveryPlan } from './delivery-plan.js';
import type { SandboxState } from './state.js';
import type { SandboxWebhookEvent, TransactionRecord } from './transactions.js';

/** What the request rules need from the sandbox around them. @internal */
export interface RuleContext {
  state: SandboxState;
  transactions: Map<string, TransactionRecord>;
  newTransactionId(): string;
  now(): Date;
  /** Starts a delivery in the background, under `plan` when given. */
  sendWebhook(url: string, event: SandboxWebhookEvent, plan?: DeliveryPlan): void;
  /** Called once for every deposit that goes pending. */
  onPending(tx: TransactionRecord): void;
}

/** The result of applying one API request. @internal */
export type Outcome = { ok: true; body: Record<string, unknown> } | { ok: false; code: SandboxErrorCode };

/** A failed {@link Outcome}. */
export function fail(code: SandboxErrorCode): Outcome {
  return { ok: false, code };
}

/** A value sent as `reference_id` or `transaction_id` that makes the sandbox answer `internal_server_error`. */
export const INTERNAL_ERROR_TRIGGER = 'sandbox_internal_error';

/** Provider names: letters, digits, `_`, `-`, `.`; starting with a letter or digit; up to 64 characters. */
export const PROVIDER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A deliberately plain e-mail check: one `@`, no spaces, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
