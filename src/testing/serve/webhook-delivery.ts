import type { SandboxWebhookEvent } from '../model/transactions.js';
import type { ForgedDelivery, WebhookAttempt, WebhookDelivery } from './webhook-types.js';

/** A delivery as the dispatcher keeps it, changed in place as its attempts are made. @internal */
export interface MutableDelivery {
  id: string;
  url: string;
  event: SandboxWebhookEvent;
  state: WebhookDelivery['state'];
  mode: WebhookDelivery['mode'];
  redeliveryOf: string | undefined;
  attempts: WebhookAttempt[];
  nextAttemptAt: Date | undefined;
  forgery?: ForgedDelivery['forgery'];
  body?: string;
}

/** A copy of `d` a caller may keep: its event and attempts are not the dispatcher's own. @internal */
export function snapshot(d: MutableDelivery): WebhookDelivery {
  return { ...d, event: structuredClone(d.event), attempts: [...d.attempts] };
}
