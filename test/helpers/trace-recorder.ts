import diagnostics from 'node:diagnostics_channel';
import { afterEach } from 'vitest';

/** One event a tracing channel published, with a snapshot of its context at that moment. */
export type TraceEvent = {
  name: 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';
  context: Record<string, unknown>;
};

const unsubscribers: Array<() => void> = [];
afterEach(() => {
  for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
});

/**
 * Subscribes to every event of the tracing channel `channelName` until the test ends, recording a
 * snapshot of the context at each.
 */
export function recordTrace(channelName: string): TraceEvent[] {
  const events: TraceEvent[] = [];
  const channel = diagnostics.tracingChannel(channelName);
  const handlers = Object.fromEntries(
    (['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const).map((name) => [
      name,
      (context: object) => events.push({ name, context: { ...context } }),
    ]),
  ) as unknown as Parameters<typeof channel.subscribe>[0];
  channel.subscribe(handlers);
  unsubscribers.push(() => channel.unsubscribe(handlers));
  return events;
}

/** Unsubscribes `unsubscribe` when the test ends, like the subscriptions {@link recordTrace} makes. */
export function unsubscribeAfterTest(unsubscribe: () => void): void {
  unsubscribers.push(unsubscribe);
}

/** The event names `count` traced async calls publish, in order: `start`, `end`, `asyncStart`, `asyncEnd` each. */
export function tracedCalls(count: number): TraceEvent['name'][] {
  return Array.from({ length: count }, () => ['start', 'end', 'asyncStart', 'asyncEnd'] as const).flat();
}
