import type { SandboxEvent } from '../../testing/index.js';

/**
 * One line per sandbox event, for the running `sandbox` command. A new token is printed in
 * full, like the seed's: it replaces one the banner listed, which stops working.
 */
export function formatSandboxEvent(event: SandboxEvent): string {
  switch (event.type) {
    case 'webhook-attempt': {
      const { delivery, attempt, number } = event;
      const outcome =
        attempt.status === undefined ? `no answer (${attempt.error})` : `HTTP ${attempt.status}`;
      const next =
        delivery.nextAttemptAt !== undefined
          ? `; next attempt at ${delivery.nextAttemptAt.toISOString()} (sandbox clock)`
          : delivery.state === 'failed'
            ? '; no attempt left'
            : '';
      return `webhook ${delivery.id} ${delivery.event.event} → ${delivery.url}: ${outcome}, attempt ${number}${next}\n`;
    }
    case 'webhook-held': {
      const { delivery, until } = event;
      const what = `webhook ${delivery.id} ${delivery.event.event} → ${delivery.url}`;
      if (until === undefined) return `${what}: dropped (plan)\n`;
      const sooner = delivery.mode === 'out-of-order' ? ', or once the next other delivery finishes' : '';
      return `${what}: held until ${until.toISOString()}${sooner} (${delivery.mode})\n`;
    }
    case 'authorized': {
      const replaced = event.revoked.length === 0 ? '' : `; ${event.revoked.join(', ')} no longer works`;
      const where =
        event.webhookUrl === undefined
          ? ' (no webhook URL set: nothing sent; use --webhook-url or "sandbox webhook-url")'
          : ` → user_authorized to ${event.webhookUrl}`;
      return `login approved: ${event.email} for ${event.appId}, new token ${event.token}${replaced}${where}\n`;
    }
    case 'revoked':
      return `tokens revoked: ${event.email}, ${event.revoked} token(s); requests with them now get application_not_authorized\n`;
    case 'settled': {
      const tx = event.transaction;
      const reason = tx.failure_reason ? ` (${tx.failure_reason})` : '';
      return `deposit ${tx.transaction_id} ${tx.transaction_status}${reason}\n`;
    }
    case 'reset':
      return 'sandbox reset to its seed\n';
  }
}
