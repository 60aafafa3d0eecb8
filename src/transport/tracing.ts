/**
 * The SDK's tracing as every client loads it: a `hasSubscribers` check per payment and settlement
 * (and per attempt, in `start-attempt.ts`). What runs when someone listens (building the published
 * contexts, trace-context headers, the subscriber's scope) is in `traced-attempt.ts`, imported on
 * the first traced call of the process: a client nobody traces never loads it.
 */
import type { TraceChannel, TraceScope } from '../diagnostics/channel.js';

type TracedPaths = typeof import('./traced-attempt.js');

let loaded: TracedPaths | undefined;

/** Runs `use` with the traced paths, loading them first on the first traced call of the process. */
export function withTracedPaths<T>(use: (paths: TracedPaths) => Promise<T>): Promise<T> {
  if (loaded !== undefined) return use(loaded);
  return import('./traced-attempt.js').then((paths) => {
    loaded = paths;
    return use(paths);
  });
}

/**
 * Calls `use` with the traced paths: at once when they are loaded (an attempt costs no promise for
 * it), and what `use` throws then reaches the caller; else once they are loaded, and `failed` gets
 * an error of the import or of `use`.
 */
export function whenTracedPaths(use: (paths: TracedPaths) => void, failed: (error: unknown) => void): void {
  if (loaded !== undefined) use(loaded);
  else withTracedPaths(async (paths) => use(paths)).catch(failed);
}

/**
 * Runs `work` traced on `channel` with `context` when anyone listens (Node sets `context.result`,
 * or `context.error`, before `asyncEnd`), inside the scope a subscriber set at `start`; otherwise it
 * only checks `hasSubscribers`.
 */
export function traced<C extends TraceScope, T>(
  channel: TraceChannel | undefined,
  context: C,
  work: () => Promise<T>,
): Promise<T> {
  return channel?.hasSubscribers
    ? withTracedPaths((paths) => paths.tracePromise(channel, context, work))
    : work();
}
