import type { WebhookDelivery } from './webhook-types.js';

/**
 * Resolves with what `find` finds, now or after one of the dispatcher's changes (each calls every
 * function in `listeners`); rejects after `timeoutMs` of real time. @internal
 */
export function waitUntilFound(
  find: () => WebhookDelivery | undefined,
  listeners: Set<() => void>,
  timeoutMs: number,
): Promise<WebhookDelivery> {
  return new Promise<WebhookDelivery>((resolve, reject) => {
    const found = find();
    if (found) return resolve(found);
    const listener = () => {
      const match = find();
      if (!match) return;
      cleanup();
      resolve(match);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no matching webhook delivery finished within ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      listeners.delete(listener);
    };
    listeners.add(listener);
  });
}
