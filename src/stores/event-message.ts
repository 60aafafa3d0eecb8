import * as core from 'zod/v4/core';
import { type WalletIssue, WalletResponseValidationError } from '../errors.js';
import type { TransactionEventContext, TransactionEventLike } from '../polling/event-source.js';
import { toWalletIssues } from '../schemas/issues.js';
import { TransactionResult } from '../schemas/responses.js';

/**
 * The largest message sent or accepted, in bytes: PostgreSQL refuses a NOTIFY payload of 8,000
 * bytes or more, and one limit for both stores keeps them interchangeable.
 */
export const MAX_MESSAGE_BYTES = 7_999;
/** The longest transaction id a message carries. */
export const MAX_ID_LENGTH = 256;

/** One transaction event as it travels between instances. Version 1. */
interface EventMessage {
  readonly v: 1;
  /** The sending instance, so it can skip its own message (it delivered the event locally already). */
  readonly origin: string;
  readonly transaction_id: string;
  /** The status a webhook handler made with `verifyWith` read back; absent for a hint. */
  readonly status?: TransactionResult;
}

/** A message read back from the wire: who sent it and the event, with its status when it carried one. */
export interface ReceivedEventMessage {
  readonly origin: string;
  readonly event: TransactionEventLike;
  readonly status: TransactionResult | undefined;
}

/** A message an instance sends itself to learn whether its LISTEN hears anything; others ignore it. */
export interface ReceivedProbe {
  readonly origin: string;
  readonly probe: true;
}

/** The probe message of `origin`. */
export function encodeProbe(origin: string): string {
  return JSON.stringify({ v: 1, origin, probe: true });
}

const encoder = new TextEncoder();

/**
 * The message for `event`: its transaction id and, when `context` is verified and about the same
 * transaction, the status read back. A status too large for one message is left out, so peers get a
 * hint and read the status themselves; `undefined` when even the hint is too large to send.
 */
export function encodeEventMessage(
  origin: string,
  event: TransactionEventLike,
  context: TransactionEventContext | undefined,
): string | undefined {
  const id = event.transaction_id;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) return undefined;
  const hint: EventMessage = { v: 1, origin, transaction_id: id };
  const status = context?.verified === true ? context.status : undefined;
  if (status?.transaction_id === id) {
    const full = JSON.stringify({ ...hint, status });
    if (encoder.encode(full).length <= MAX_MESSAGE_BYTES) return full;
  }
  return JSON.stringify(hint);
}

/**
 * Reads a message off the wire, where anyone who can reach the channel can write: anything but a
 * well-formed version 1 message whose status (when present) passes the `TransactionResult` schema and
 * names the same transaction is refused with a `WalletResponseValidationError` saying why.
 */
export function decodeEventMessage(
  text: string,
): ReceivedEventMessage | ReceivedProbe | WalletResponseValidationError {
  const refuse = (issues: WalletIssue[], body: unknown = text) =>
    new WalletResponseValidationError({ issues, subject: 'Invalid transaction event message', body });
  if (text.length > MAX_MESSAGE_BYTES) return refuse([{ path: '', message: 'is too large' }], undefined);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse([{ path: '', message: 'is not JSON' }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse([{ path: '', message: 'must be an object' }]);
  }
  const message = value as Partial<Record<keyof EventMessage | 'probe', unknown>>;
  const issues: WalletIssue[] = [];
  if (message.v !== 1) issues.push({ path: 'v', message: 'must be 1' });
  if (typeof message.origin !== 'string') issues.push({ path: 'origin', message: 'must be of type string' });
  if (message.probe === true && issues.length === 0) return { origin: message.origin as string, probe: true };
  const id = message.transaction_id;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
    issues.push({ path: 'transaction_id', message: `must be a string of 1 to ${MAX_ID_LENGTH} characters` });
  }
  let status: TransactionResult | undefined;
  if (message.status !== undefined) {
    const parsed = core.safeParse(TransactionResult, message.status, { reportInput: true });
    if (!parsed.success) {
      issues.push(...toWalletIssues(parsed.error.issues).map((i) => ({ ...i, path: `status.${i.path}` })));
    } else if (parsed.data.transaction_id !== id) {
      issues.push({ path: 'status.transaction_id', message: 'must be the message transaction_id' });
    } else {
      status = parsed.data;
    }
  }
  if (issues.length > 0) return refuse(issues, value);
  return { origin: message.origin as string, event: { transaction_id: id as string }, status };
}
