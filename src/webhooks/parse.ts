import { type $ZodType, type output, safeParse } from 'zod/v4/core';
import { TransactionWebhook, UserAuthorizedWebhook } from '../schemas/webhook.js';
import { decodeBody, resolveMaxBytes } from './body.js';
import { WalletWebhookError } from './errors.js';

/**
 * A user approved your application. `token` is their bearer token: a secret.
 * `util.inspect` (and so `console.log`) shows it as `[redacted]`; `JSON.stringify`
 * keeps it, so the event can still be handed on to your own storage.
 */
export type UserAuthorizedEvent = UserAuthorizedWebhook & {
  /** Which webhook this is: always `'user_authorized'`. */
  readonly type: 'user_authorized';
};

/** A transaction reached a status (the C2B result webhook). */
export type TransactionEvent = TransactionWebhook & {
  /** Which webhook this is: always `'transaction'`. */
  readonly type: 'transaction';
};

/** Any webhook the SDK understands; switch on `type`. */
export type WebhookEvent = UserAuthorizedEvent | TransactionEvent;

/** A webhook body as it may reach you: raw text, raw bytes, or JSON your framework already parsed. */
export type WebhookBody = string | Uint8Array | ArrayBuffer | object;

/** Options of {@link parseWebhookEvent}. */
export interface ParseWebhookOptions {
  /**
   * Largest raw body accepted, in bytes (UTF-8). Does not apply to an already-parsed object.
   * @default 65536
   */
  maxBytes?: number;
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

function redactToken(this: UserAuthorizedEvent): Record<string, unknown> {
  return { ...this, token: '[redacted]' };
}

function validate<S extends $ZodType>(schema: S, value: Record<string, unknown>): output<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  // Only issue paths and messages are kept; zod does not copy input values into either.
  throw new WalletWebhookError(
    'invalid_fields',
    'Webhook body has invalid fields',
    // Every schema here sets its own messages, so zod's issues map one to one (toWalletIssues
    // is not used: it would cost this size-budgeted entry half a kilobyte).
    result.error.issues.map(({ path, message }) => ({ path: path.join('.'), message })),
  );
}

/**
 * Reads a webhook body and returns the event it carries, discriminated by `type`.
 *
 * - `{"event": "user_authorized", "user_email", "token"}` → `type: 'user_authorized'`.
 * - A transaction result (its payload is not in the spec): `transaction_id` and
 *   `transaction_status` with `event` either `"transaction"` or absent → `type: 'transaction'`,
 *   with `reference_id`, `amount` (number or string), `currency`, `failure_reason` and
 *   `date_completed` checked when present.
 *
 * Fields the SDK does not know are kept; a `type` field in the body is overwritten.
 *
 * @param body Raw text, bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`) or an already-parsed object.
 * @throws {WalletWebhookError} with `reason` `too_large`, `invalid_body` (not UTF-8, or not a JSON
 *   object), `invalid_json`, `unknown_event` or `invalid_fields`. Its message and issues never
 *   quote the body, so they never carry the user token.
 * @example
 * const event = parseWebhookEvent(await request.text());
 * if (event.type === 'user_authorized') await saveToken(event.user_email, event.token);
 * else if (event.transaction_status === 'completed') await markPaid(event.transaction_id);
 */
export function parseWebhookEvent(body: WebhookBody, options: ParseWebhookOptions = {}): WebhookEvent {
  const value = decodeBody(body, resolveMaxBytes(options.maxBytes));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WalletWebhookError('invalid_body', 'Webhook body must be a JSON object');
  }
  const fields = value as Record<string, unknown>;
  if (fields.event === 'user_authorized') {
    const event = { ...validate(UserAuthorizedWebhook, fields), type: 'user_authorized' as const };
    Object.defineProperty(event, inspectSymbol, { value: redactToken });
    return event;
  }
  const looksLikeTransaction =
    fields.event === 'transaction' ||
    (fields.event === undefined && ('transaction_id' in fields || 'transaction_status' in fields));
  if (looksLikeTransaction) {
    return { ...validate(TransactionWebhook, fields), type: 'transaction' as const };
  }
  const { event } = fields;
  if (event !== undefined && typeof event !== 'string') {
    throw new WalletWebhookError('invalid_fields', 'Webhook body has invalid fields', [
      { path: 'event', message: 'must be a string' },
    ]);
  }
  // The event name is quoted (shortened): it is not a secret, and it tells the merchant what to add.
  throw new WalletWebhookError(
    'unknown_event',
    `Unknown webhook event: ${event === undefined ? 'no event or transaction fields' : JSON.stringify(event.slice(0, 40))}`,
  );
}
