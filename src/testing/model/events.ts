import type { WebhookAttempt, WebhookDelivery } from '../serve/webhook-types.js';
import type { SandboxTransaction } from './transactions.js';

/** One HTTP attempt of a webhook delivery finished. */
export interface WebhookAttemptEvent {
  /** The event's kind. */
  type: 'webhook-attempt';
  /** The delivery, as it stands after the attempt. */
  delivery: WebhookDelivery;
  /** The attempt. */
  attempt: WebhookAttempt;
  /** Which attempt of the delivery this was, from 1. */
  number: number;
}

/** A delivery plan kept a webhook from going out at once: `drop` (never sent) or `late`/`out-of-order` (held back). */
export interface WebhookHeldEvent {
  /** The event's kind. */
  type: 'webhook-held';
  /** The delivery: `state` is `dropped` or `scheduled`, `mode` says which plan. */
  delivery: WebhookDelivery;
  /**
   * Sandbox time by which a held delivery is sent (an `out-of-order` one goes sooner, once the next
   * other delivery finishes); `undefined` for a dropped one.
   */
  until: Date | undefined;
}

/** A user approved an app (on the login page or through `authorize`). */
export interface AuthorizedEvent {
  /** The event's kind. */
  type: 'authorized';
  /** The user's e-mail. */
  email: string;
  /** The app approved. */
  appId: string;
  /** The new token. */
  token: string;
  /** The user's earlier tokens for the app, which no longer work. */
  revoked: string[];
  /** Where `user_authorized` is sent; `undefined` when the merchant has no auth webhook URL. */
  webhookUrl: string | undefined;
}

/** Tokens were revoked (`sandbox.revoke`, `POST /_sandbox/tokens/revoke`). Never carries a token. */
export interface RevokedEvent {
  /** The event's kind. */
  type: 'revoked';
  /** The user whose tokens ended. */
  email: string;
  /** How many live tokens ended. */
  revoked: number;
}

/** A pending deposit ended (by `settle`, automatic settlement, a scenario or the clock). */
export interface SettledEvent {
  /** The event's kind. */
  type: 'settled';
  /** The transaction after settlement. */
  transaction: SandboxTransaction;
}

/** The sandbox went back to its seed (`reset`, or `POST /_sandbox/reset`). */
export interface ResetEvent {
  /** The event's kind. */
  type: 'reset';
}

/** Something the sandbox did that someone watching it wants to see, e.g. the CLI printing it. */
export type SandboxEvent =
  | WebhookAttemptEvent
  | WebhookHeldEvent
  | AuthorizedEvent
  | RevokedEvent
  | SettledEvent
  | ResetEvent;
