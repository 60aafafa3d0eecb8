import type { DueQuery, PaymentIntent } from './types.js';

/**
 * Whether the sweeper has work on `intent` at `now` (leases aside): the rule every journal adapter
 * applies, written once here for the memory journal and the docs; the PostgreSQL and Redis adapters
 * state it in SQL and Lua.
 */
export function isDue(intent: PaymentIntent, query: DueQuery, now: number): boolean {
  if (intent.merchant !== undefined && query.merchant !== undefined && intent.merchant !== query.merchant) {
    return false;
  }
  const changed = Date.parse(intent.updatedAt);
  const next = intent.nextCheckAt === undefined ? undefined : Date.parse(intent.nextCheckAt);
  switch (intent.state) {
    case 'sending':
      return (next ?? changed + query.sendingGraceMs) <= now;
    case 'unknown':
      return (next ?? changed) <= now;
    case 'completed':
    case 'failed':
    case 'refused':
      return query.settle && intent.settledAt === undefined;
    case 'accepted': {
      // Without a transaction id its status cannot be read: it is stuck, for a person to settle.
      if (intent.transactionId === undefined) return false;
      if (Date.parse(intent.createdAt) + query.stuckAfterMs <= now) return false;
      return (next ?? changed + query.firstCheckMs) <= now;
    }
    default:
      return false;
  }
}
