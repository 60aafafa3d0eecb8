/**
 * Subscribing to the SDK's diagnostics channels. `node:diagnostics_channel` is loaded through
 * `process.getBuiltinModule`, as the client does, so importing this entry never fails where the
 * module is missing: there is then nothing to subscribe to, as the client traces nothing either.
 */

/** The handlers of a tracing channel this entry uses; the others are no-ops. */
export interface TraceHandlers<T> {
  start(context: T): void;
  asyncEnd(context: T): void;
}

interface Subscribable {
  subscribe(handlers: Record<string, (message: never) => void>): void;
  unsubscribe(handlers: Record<string, (message: never) => void>): void;
}

interface DiagnosticsModule {
  tracingChannel(name: string): Subscribable;
  subscribe(name: string, listener: (message: never) => void): void;
  unsubscribe(name: string, listener: (message: never) => void): void;
}

function diagnostics(): DiagnosticsModule | undefined {
  return (
    globalThis as { process?: { getBuiltinModule?(id: string): DiagnosticsModule | undefined } }
  ).process?.getBuiltinModule?.('node:diagnostics_channel');
}

const ignore = () => {};

/** Subscribes `handlers` to the tracing channel `name`; answers how to unsubscribe. */
export function subscribeTracing<T>(name: string, handlers: TraceHandlers<T>): () => void {
  const module = diagnostics();
  if (module === undefined) return ignore;
  // Every event named: Node 20's TracingChannel.subscribe expects all five.
  const all = {
    start: handlers.start,
    end: ignore,
    asyncStart: ignore,
    asyncEnd: handlers.asyncEnd,
    error: ignore,
  } as Record<string, (message: never) => void>;
  const channel = module.tracingChannel(name);
  channel.subscribe(all);
  return () => channel.unsubscribe(all);
}

/** Subscribes `listener` to the plain channel `name`; answers how to unsubscribe. */
export function subscribeChannel<T>(name: string, listener: (message: T) => void): () => void {
  const module = diagnostics();
  if (module === undefined) return ignore;
  const wrapped = listener as (message: never) => void;
  module.subscribe(name, wrapped);
  return () => module.unsubscribe(name, wrapped);
}
