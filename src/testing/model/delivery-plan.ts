import { WalletConfigError } from '../../errors.js';
import { checkLimit } from './bounds.js';

/**
 * How a webhook is delivered, for rehearsing what real providers do to callbacks:
 * - `deliver`: at once (the normal case).
 * - `twice`: at once, then the same body again as a second delivery.
 * - `late`: held back for `delayMs` of sandbox time (see `sandbox.clock.advance`).
 * - `out-of-order`: held back until the next other delivery has finished (or `delayMs` passes),
 *   so it arrives after a later event.
 * - `drop`: never sent; recorded as `dropped`.
 */
export type DeliveryMode = 'deliver' | 'twice' | 'late' | 'out-of-order' | 'drop';

/** Every {@link DeliveryMode}, in the order the docs list them. */
export const DELIVERY_MODES: readonly DeliveryMode[] = ['deliver', 'twice', 'late', 'out-of-order', 'drop'];

/** A {@link DeliveryMode} with its timing. */
export interface DeliveryPlan {
  /** How to deliver. */
  mode: DeliveryMode;
  /**
   * How long `late` and `out-of-order` deliveries are held at most, in sandbox ms; at most
   * `SANDBOX_LIMITS.deliveryDelayMs.max` (ten years). @default 60000
   */
  delayMs?: number;
}

const DEFAULT_HOLD_MS = 60_000;

/** Checks a plan from a caller, filling in its default delay. */
export function checkPlan(plan: unknown, field: string): Required<DeliveryPlan> {
  if (typeof plan !== 'object' || plan === null) throw new WalletConfigError(field, 'must be an object');
  const { mode, delayMs = DEFAULT_HOLD_MS } = plan as DeliveryPlan;
  if (!DELIVERY_MODES.includes(mode)) {
    throw new WalletConfigError(`${field}.mode`, `must be one of ${DELIVERY_MODES.join(', ')}`);
  }
  return { mode, delayMs: checkLimit('deliveryDelayMs', delayMs, `${field}.delayMs`) };
}
