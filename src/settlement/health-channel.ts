/**
 * The `node:diagnostics_channel` channel `journalHealth()` publishes `{ alarm: 'webhooks_silent',
 * settledWithoutWebhook, windowMs, lastWebhookAt }` on while webhooks seem to have stopped arriving.
 */
export const HEALTH_CHANNEL = 'merchant-wallet:health';
