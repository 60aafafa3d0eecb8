/**
 * The `node:diagnostics_channel` channel `journalHealth()` publishes each alarm it raises on:
 * `{ alarm: 'webhooks_silent', settledWithoutWebhook, windowMs, lastWebhookAt }` while webhooks seem
 * to have stopped arriving, and `{ alarm: 'events_not_listening', state, since, failedAttempts,
 * lastError, downMs }` while the shared transaction-event source does not listen.
 */
export const HEALTH_CHANNEL = 'merchant-wallet:health';
