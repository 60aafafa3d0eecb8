import { WalletConfigError } from '../errors.js';
import { type PaymentIntent, SETTLED_BY, type SettledBy } from '../journal/types.js';
import { isPositiveMs, POSITIVE_MS } from '../limits.js';

/** Options of the webhook part of `journalHealth()`. */
export interface WebhookHealthOptions {
  /**
   * How far back settlements count, in ms. Two sweep intervals of the default schedule fit in it.
   * @default 900000 (15 minutes)
   */
  webhookWindowMs?: number | undefined;
  /**
   * How many payments must have settled after their answer (by status read, the sweeper, `recover()`
   * or `resolveOutcome`) in the window, none of them by webhook, before `webhooks_silent` is raised:
   * one payment the sweeper reached first is no alarm.
   * @default 3
   */
  silentAfter?: number | undefined;
}

/** How payments settled lately, and whether webhooks seem to have stopped. */
export interface WebhookHealth {
  /** The window the counts cover, in ms. */
  readonly windowMs: number;
  /** Payments settled in the window, by the path that settled them (`settledBy`). */
  readonly byPath: Readonly<Record<SettledBy, number>>;
  /**
   * Of the payments settled in the window after their answer (all but `answer`), the share a
   * verified webhook settled, 0 to 1; `undefined` when there were none.
   */
  readonly webhookShare: number | undefined;
  /** When the latest payment settled by a verified webhook settled (ISO 8601, UTC); `undefined` for none. */
  readonly lastWebhookAt: string | undefined;
  /**
   * `true` when at least `silentAfter` payments settled after their answer in the window and no
   * webhook settled any: a wrong webhook URL after a deploy, a firewall, a handler that refuses them.
   * The sweeper keeps settling payments meanwhile, which is why nobody would notice otherwise.
   */
  readonly silent: boolean;
}

const DEFAULT_WINDOW_MS = 900_000;
const DEFAULT_SILENT_AFTER = 3;

function checkOptions(options: WebhookHealthOptions) {
  const { webhookWindowMs = DEFAULT_WINDOW_MS, silentAfter = DEFAULT_SILENT_AFTER } = options;
  if (!isPositiveMs(webhookWindowMs)) throw new WalletConfigError('webhookWindowMs', POSITIVE_MS);
  if (!Number.isSafeInteger(silentAfter) || silentAfter < 1) {
    throw new WalletConfigError('silentAfter', 'must be an integer of at least 1');
  }
  return { windowMs: webhookWindowMs, silentAfter };
}

/** Payments settled after their answer (by any path but `answer`), of the counts `byPath`. */
export function settledAfterAnswer(byPath: Readonly<Record<SettledBy, number>>): number {
  return SETTLED_BY.reduce((sum, path) => sum + (path === 'answer' ? 0 : byPath[path]), 0);
}

/** When a final intent settled: `onSettled` completed, or else its last change. */
const settledTime = (intent: PaymentIntent) => Date.parse(intent.settledAt ?? intent.updatedAt);

/**
 * The webhook part of the journal's health, from its final (`completed`, `failed`) intents.
 * @throws {WalletConfigError} naming an option out of range.
 */
export function webhookHealth(
  final: readonly PaymentIntent[],
  now: number,
  options: WebhookHealthOptions = {},
): WebhookHealth {
  const { windowMs, silentAfter } = checkOptions(options);
  const byPath = Object.fromEntries(SETTLED_BY.map((path) => [path, 0])) as Record<SettledBy, number>;
  let last = Number.NEGATIVE_INFINITY;
  for (const intent of final) {
    if (intent.settledBy === undefined) continue;
    const at = settledTime(intent);
    if (intent.settledBy === 'webhook' && at > last) last = at;
    if (now - at <= windowMs) byPath[intent.settledBy]++;
  }
  const afterAnswer = settledAfterAnswer(byPath);
  const silent = afterAnswer >= silentAfter && byPath.webhook === 0;
  const lastWebhookAt = Number.isFinite(last) ? new Date(last).toISOString() : undefined;
  return {
    windowMs,
    byPath,
    webhookShare: afterAnswer === 0 ? undefined : byPath.webhook / afterAnswer,
    lastWebhookAt,
    silent,
  };
}
