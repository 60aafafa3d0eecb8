import { publishChannel } from '../diagnostics/channel.js';
import type { TransactionEventsHealth } from '../polling/event-source-health.js';
import { HEALTH_CHANNEL } from './health-channel.js';
import { settledAfterAnswer, type WebhookHealth } from './webhook-silence.js';

/** What the alarms of `journalHealth()` are decided from. */
export interface AlarmInputs {
  /** How payments settled lately. */
  readonly webhooks: WebhookHealth;
  /** The listening connection of the `events` source, when one was given. */
  readonly events: TransactionEventsHealth | undefined;
  /** How long `events` may go without listening before `events_not_listening` is raised, in ms. */
  readonly notListeningAfterMs: number;
}

/** An alarm `journalHealth()` raises: `webhooks_silent` or `events_not_listening` (docs/settlement.md). */
export type JournalHealthAlarm = 'webhooks_silent' | 'events_not_listening';

/**
 * The alarms `journalHealth()` raises, one row each: what its `HEALTH_CHANNEL` message carries
 * besides `alarm` when it is raised, `undefined` when it is not. Its keys are exactly the
 * {@link JournalHealthAlarm} codes (the compiler holds the two together), and `alarms` lists the
 * raised ones in its order.
 */
const ALARMS = {
  /** Payments settle after their answer and no webhook settled any ({@link WebhookHealth.silent}). */
  webhooks_silent: ({ webhooks: { silent, byPath, windowMs, lastWebhookAt } }: AlarmInputs) =>
    silent ? { settledWithoutWebhook: settledAfterAnswer(byPath), windowMs, lastWebhookAt } : undefined,
  /**
   * The shared transaction-event source has been connecting or reconnecting for `notListeningAfterMs`:
   * events from other instances are not heard here, and waits end only at their next poll.
   */
  events_not_listening: ({ events, notListeningAfterMs }: AlarmInputs) => {
    if (events?.state !== 'connecting' && events?.state !== 'reconnecting') return undefined;
    // `since` is on this process's clock, not the journal store's.
    const downMs = Date.now() - Date.parse(events.since);
    return downMs >= notListeningAfterMs ? { ...events, downMs } : undefined;
  },
} satisfies Record<JournalHealthAlarm, (inputs: AlarmInputs) => object | undefined>;

const CODES = Object.keys(ALARMS) as JournalHealthAlarm[];
const healthChannel = publishChannel(HEALTH_CHANNEL);

/** The alarms `inputs` raise, each also published as `{ alarm, ...details }` on {@link HEALTH_CHANNEL}. */
export function raisedAlarms(inputs: AlarmInputs): JournalHealthAlarm[] {
  return CODES.filter((alarm) => {
    const details = ALARMS[alarm](inputs);
    if (details !== undefined && healthChannel?.hasSubscribers) healthChannel.publish({ alarm, ...details });
    return details !== undefined;
  });
}
