/**
 * `node:diagnostics_channel` tracing without a static import of a `node:` module, so the fetch
 * path still loads in browsers and workers: `process.getBuiltinModule` (Node >= 20.16, Bun, Deno)
 * loads it where it exists; elsewhere there is no channel and tracing is skipped.
 */

/** The part of a `TracingChannel` the client uses. */
export interface TraceChannel {
  readonly hasSubscribers: boolean | undefined;
  tracePromise<T>(run: () => Promise<T>, context: object): Promise<T>;
}

/** The parts of `node:diagnostics_channel` the SDK uses. */
interface DiagnosticsChannels {
  tracingChannel?(name: string): TraceChannel;
  channel?(name: string): PublishChannel;
}

/** `node:diagnostics_channel`, or `undefined` where the runtime has none. */
function diagnosticsChannels(): DiagnosticsChannels | undefined {
  return (
    globalThis as { process?: { getBuiltinModule?(id: string): DiagnosticsChannels } }
  ).process?.getBuiltinModule?.('node:diagnostics_channel');
}

/** The tracing channel called `name`, or `undefined` where `node:diagnostics_channel` is missing. */
export function tracingChannel(name: string): TraceChannel | undefined {
  return diagnosticsChannels()?.tracingChannel?.(name);
}

/** The part of a plain `Channel` the sweeper uses. */
export interface PublishChannel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

/** The plain channel called `name`, or `undefined` where `node:diagnostics_channel` is missing. */
export function publishChannel(name: string): PublishChannel | undefined {
  return diagnosticsChannels()?.channel?.(name);
}

/**
 * What a subscriber may set on a traced context at `start`: the traced work then runs inside it, so
 * what the work starts (journal writes, HTTP attempts, a driver's own instrumentation) sees the
 * subscriber's async context, such as OpenTelemetry's `context.with(spanContext, work)`.
 * `tracingChannel`'s `bindStore` needs the store itself, which a tracing library keeps private.
 */
export interface TraceScope {
  /** Runs `work` inside the subscriber's context and returns what it returns. Set at `start`; read once. */
  runInScope?: (<T>(work: () => T) => T) | undefined;
}
