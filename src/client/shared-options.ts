import { WalletConfigError } from '../errors.js';
import type { WalletClientOptions } from './options.js';
import type { SharedTransport } from './resolve-options.js';

/** The options that choose the transport: a client made by `withOptions` keeps its parent's. */
const TRANSPORT_OPTIONS = ['fetch', 'agent', 'maxSockets'] as const satisfies ReadonlyArray<
  keyof WalletClientOptions
>;

/**
 * Options `withOptions` can change: all but `fetch`, `agent` and `maxSockets`, which choose the
 * transport and connections it shares.
 */
export type SharedClientOptions = Omit<WalletClientOptions, 'fetch' | 'agent' | 'maxSockets'>;

/** Refuses a `withOptions` argument that is not an object or would change the transport. */
export function checkSharedOptions(options: SharedClientOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new WalletConfigError('options', 'must be an object');
  }
  const issues = TRANSPORT_OPTIONS.filter((key) => Object.hasOwn(options, key)).map((key) => ({
    path: key,
    message: 'cannot be changed by withOptions, which shares the transport; create a new WalletClient',
  }));
  if (issues.length > 0) throw new WalletConfigError(issues, 'Invalid withOptions options');
}

/** Hidden option by which `withOptions` hands its transport and connections to the client it builds. */
const SHARED_TRANSPORT = Symbol('shared transport');
type WithSharedTransport = WalletClientOptions & { [SHARED_TRANSPORT]?: SharedTransport };

/** `options` (a parent's merged with `withOptions`'), carrying the transport the new client shares. */
export function sharingTransport(options: WalletClientOptions, shared: SharedTransport): WalletClientOptions {
  const sharing: WithSharedTransport = { ...options, [SHARED_TRANSPORT]: shared };
  return sharing;
}

/** The transport handed on by `withOptions`, if `options` came from it. */
export function sharedTransportOf(options: WalletClientOptions | null): SharedTransport | undefined {
  return (options as WithSharedTransport | null)?.[SHARED_TRANSPORT];
}
