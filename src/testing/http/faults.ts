import { isWalletErrorCode, type WalletEndpoint, type WalletErrorCode } from '../../error-codes.js';
import { WalletConfigError } from '../../errors.js';
import { checkLimit } from '../model/bounds.js';

/**
 * What an injected fault does to a matching request.
 * - `latency`: waits `ms`, then handles the request normally.
 * - `respond`: answers `status` with `body` (JSON unless a string) without applying the request.
 * - `error`: answers a documented error `code` in the configured body shape and status, without applying the request.
 * - `drop-before`: closes the connection without applying the request or answering.
 * - `drop-after`: applies the request, then closes the connection without answering (the outcome is unknown to the client).
 * - `reset-mid-body`: applies the request, sends the headers and half the body, then resets the connection.
 * - `answer-after`: applies the request, then answers `status` with `body` in its place, as a gateway
 *   that lost the service's answer does (a 303, a CDN's 520 or 524).
 * - `mismatch`: applies the request, then answers the service's body with `fields` changed, as a
 *   caching or mis-routing proxy answering with another request's answer does.
 * - `oversized`: applies the request, then answers the service's body padded with spaces to `bytes` bytes.
 * - `stale-socket`: resets the connection without applying the request or answering, as a server
 *   does to a request written on a keep-alive connection it had already closed while idle.
 */
export type FaultAction =
  | {
      /** Delay, then handle normally. */
      kind: 'latency';
      /** The delay in ms, at most `SANDBOX_LIMITS.faultLatencyMs.max` (ten minutes). */
      ms: number;
    }
  | {
      /** Answer without applying the request. */
      kind: 'respond';
      /** The HTTP status, 200 to 599. */
      status: number;
      /** The body: JSON, or text when a string. @default {} */
      body?: unknown;
      /** Extra response headers. */
      headers?: Record<string, string>;
    }
  | {
      /** Answer a documented error without applying the request. */
      kind: 'error';
      /** One of the 22 documented codes. */
      code: WalletErrorCode;
    }
  | {
      /** Close the connection before applying the request. */
      kind: 'drop-before';
    }
  | {
      /** Apply the request, then close the connection without answering. */
      kind: 'drop-after';
    }
  | {
      /** Apply the request, then reset the connection halfway through the answer. */
      kind: 'reset-mid-body';
    }
  | {
      /** Apply the request, then answer `status`, `body` and `headers` in place of the service. */
      kind: 'answer-after';
      /** The status answered, 200 to 599. */
      status: number;
      /** The body answered: JSON unless a string. */
      body?: unknown;
      /** Headers added to the answer, e.g. a redirect's `location`. */
      headers?: Record<string, string>;
    }
  | {
      /** Apply the request, then answer the service's 2xx body with `fields` changed. */
      kind: 'mismatch';
      /** The fields to overwrite, e.g. `{ amount: 999 }`. */
      fields: Record<string, unknown>;
    }
  | {
      /** Apply the request, then pad the service's answer with spaces. */
      kind: 'oversized';
      /** The size of the padded body in bytes, at most `SANDBOX_LIMITS.faultBytes.max` (64 MiB). */
      bytes: number;
    }
  | {
      /** Reset the connection without applying the request or answering. */
      kind: 'stale-socket';
    };

/** When a fault fires. */
export interface FaultTrigger {
  /** Only requests to this route; any API route when absent. Login pages are never faulted. */
  route?: WalletEndpoint;
  /** Fires on every `every`-th matching request (the N-th, 2N-th, ...); a safe integer >= 1. @default 1 */
  every?: number;
  /**
   * How many times it fires before it is removed: a safe integer >= 1, or `Infinity`.
   * @default 1, or `Infinity` when `every` is given
   */
  times?: number;
}

/** A fault to inject: an action and its trigger. */
export type FaultSpec = FaultAction & FaultTrigger;

/** An injected fault. */
export interface FaultHandle {
  /** How many times it has fired so far. */
  readonly fired: number;
  /** Removes it before it runs out. */
  remove(): void;
}

/** Fault injection; see {@link FaultAction}. The first matching fault that fires wins. */
export interface SandboxFaults {
  /**
   * Arms a fault. Throws `WalletConfigError` naming the field (`fault.kind`, `fault.every`, ...) of a bad spec.
   * @example
   * sandbox.faults.inject({ route: 'deposit', kind: 'drop-after' });
   */
  inject(spec: FaultSpec): FaultHandle;
  /** Removes every fault. */
  clear(): void;
  /** How many faults are still armed. */
  readonly pending: number;
}

const KINDS = [
  'latency',
  'respond',
  'error',
  'drop-before',
  'drop-after',
  'reset-mid-body',
  'answer-after',
  'mismatch',
  'oversized',
  'stale-socket',
] as const;
const ROUTES: readonly WalletEndpoint[] = ['deposit', 'withdraw', 'status', 'providers'];

interface ArmedFault {
  action: FaultAction;
  route: WalletEndpoint | undefined;
  every: number;
  times: number;
  seen: number;
  fired: number;
}

function checkAction(spec: FaultSpec): FaultAction {
  if (!KINDS.includes(spec.kind))
    throw new WalletConfigError('fault.kind', `must be one of ${KINDS.join(', ')}`);
  if (spec.kind === 'latency') checkLimit('faultLatencyMs', spec.ms, 'fault.ms');
  if (
    (spec.kind === 'respond' || spec.kind === 'answer-after') &&
    !(Number.isInteger(spec.status) && spec.status >= 200 && spec.status <= 599)
  ) {
    throw new WalletConfigError('fault.status', 'must be an HTTP status from 200 to 599');
  }
  if (spec.kind === 'mismatch' && (typeof spec.fields !== 'object' || spec.fields === null)) {
    throw new WalletConfigError('fault.fields', 'must be an object of the fields to change');
  }
  if (spec.kind === 'oversized') checkLimit('faultBytes', spec.bytes, 'fault.bytes');
  if (spec.kind === 'error' && !isWalletErrorCode(spec.code)) {
    throw new WalletConfigError('fault.code', 'must be one of the 22 documented error codes');
  }
  const { route: _route, every: _every, times: _times, ...action } = spec;
  return action as FaultAction;
}

/** Holds the armed faults and decides which one a request meets. @internal */
export class FaultInjector implements SandboxFaults {
  #faults: ArmedFault[] = [];

  inject(spec: FaultSpec): FaultHandle {
    if (typeof spec !== 'object' || spec === null) throw new WalletConfigError('fault', 'must be an object');
    const action = checkAction(spec);
    if (spec.route !== undefined && !ROUTES.includes(spec.route)) {
      throw new WalletConfigError('fault.route', `must be one of ${ROUTES.join(', ')}`);
    }
    if (spec.every !== undefined) checkLimit('count', spec.every, 'fault.every');
    // `every: Infinity` would never fire; only `times` means "until removed" by it.
    if (spec.times !== undefined && spec.times !== Number.POSITIVE_INFINITY) {
      checkLimit('count', spec.times, 'fault.times');
    }
    const fault: ArmedFault = {
      action,
      route: spec.route,
      every: spec.every ?? 1,
      times: spec.times ?? (spec.every === undefined ? 1 : Number.POSITIVE_INFINITY),
      seen: 0,
      fired: 0,
    };
    this.#faults.push(fault);
    return {
      get fired() {
        return fault.fired;
      },
      remove: () => {
        this.#faults = this.#faults.filter((f) => f !== fault);
      },
    };
  }

  clear(): void {
    this.#faults = [];
  }

  get pending(): number {
    return this.#faults.length;
  }

  /** The action for a request to `route`, if a fault fires; counts the request for every matching fault. */
  take(route: WalletEndpoint): FaultAction | undefined {
    let chosen: FaultAction | undefined;
    for (const fault of this.#faults) {
      if (fault.route !== undefined && fault.route !== route) continue;
      fault.seen++;
      if (chosen !== undefined || fault.seen % fault.every !== 0) continue;
      fault.fired++;
      chosen = fault.action;
    }
    this.#faults = this.#faults.filter((f) => f.fired < f.times);
    return chosen;
  }
}
