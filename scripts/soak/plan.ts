import type { FaultSpec } from '../../src/testing/index.js';
import type { Random } from './prng.js';

/** The sandbox's default-seed credentials the soak uses. */
export const SOAK_API_KEY = 'sk_sandbox_demo_shop';
export const SOAK_TOKENS = { alice: 'tok_sandbox_alice', bob: 'tok_sandbox_bob' } as const;
/** Every secret that must never appear in an error or a log line. */
export const SOAK_SECRETS: readonly string[] = [SOAK_API_KEY, ...Object.values(SOAK_TOKENS)];

/** One planned SDK call. */
export type PlannedOperation =
  | {
      kind: 'deposit';
      index: number;
      referenceId: string;
      user: keyof typeof SOAK_TOKENS;
      amount: number;
      currency: string;
      provider: string | undefined;
      fault: FaultSpec | undefined;
    }
  | {
      kind: 'withdraw';
      index: number;
      referenceId: string;
      email: string;
      amount: number;
      currency: string;
      fault: FaultSpec | undefined;
    };

/** The secrets a call of `operation` holds: the API key, and the user token of a deposit. */
export function secretsHeldBy(operation: PlannedOperation): readonly string[] {
  return operation.kind === 'deposit' ? [SOAK_API_KEY, SOAK_TOKENS[operation.user]] : [SOAK_API_KEY];
}

/** How the plan is drawn. */
export interface PlanOptions {
  operations: number;
  /** Share of operations that arm one fault just before they start. */
  faultRate: number;
  /** Share of operations that deliberately reuse an earlier reference id. */
  reuseRate: number;
  /** Per-attempt time limit of the client; latency faults straddle it. */
  timeoutMs: number;
}

const echo = `${SOAK_API_KEY} ${SOAK_TOKENS.alice} ${SOAK_TOKENS.bob}`;
const ELSEWHERE = { location: 'http://127.0.0.1:9/elsewhere' };
/** What a caching or mis-routing proxy may change in an answer: another payment's values. */
const MISMATCHES = [{ amount: 123_456.78 }, { currency: 'XAF' }, { reference_id: 'another-payment' }];

/** Faults of every kind. 2xx answers the sandbox makes up are left out: they would report payments that do not exist. */
function drawFault(random: Random, timeoutMs: number): FaultSpec {
  const route = random.pick(['deposit', 'withdraw', undefined] as const);
  const base = route === undefined ? {} : { route };
  const kinds: (() => FaultSpec)[] = [
    () => ({ ...base, kind: 'latency', ms: random.int(0, timeoutMs * 2) }),
    () => ({ ...base, kind: 'error', code: 'internal_server_error' }),
    () => ({ ...base, kind: 'error', code: 'psp_error' }),
    () => ({ ...base, kind: 'respond', status: random.pick([500, 502, 503, 504]), body: {} }),
    () => ({ ...base, kind: 'respond', status: 429, body: {}, headers: { 'retry-after': '0' } }),
    () => ({ ...base, kind: 'respond', status: 502, body: `<html><body>bad gateway ${echo}</body></html>` }),
    () => ({ ...base, kind: 'respond', status: 500, body: { message: `key ${echo} rejected` } }),
    () => ({ ...base, kind: 'respond', status: 200, body: { echoed: echo } }),
    () => ({ ...base, kind: 'respond', status: 200, body: `{"echo": "${echo}` }),
    () => ({ ...base, kind: 'respond', status: 200, body: '' }),
    () => ({ ...base, kind: 'drop-before' }),
    () => ({ ...base, kind: 'drop-after' }),
    () => ({ ...base, kind: 'reset-mid-body' }),
    () => ({ ...base, kind: 'answer-after', status: random.pick([302, 303, 307]), headers: ELSEWHERE }),
    () => ({
      ...base,
      kind: 'answer-after',
      status: random.pick([520, 522, 524]),
      body: '<html>origin</html>',
    }),
    () => ({ ...base, kind: 'respond', status: random.pick([520, 524]), body: {} }),
    () => ({ ...base, kind: 'mismatch', fields: random.pick(MISMATCHES) }),
    () => ({ ...base, kind: 'oversized', bytes: 2 * 1024 * 1024 }),
    () => ({ ...base, kind: 'stale-socket' }),
  ];
  return random.pick(kinds)();
}

/** Amounts in KES hundredths, now and then one the sandbox refuses. */
function drawAmount(random: Random): number {
  if (random.chance(0.02)) return 5_000_000;
  return random.int(1, 5_000) / 100;
}

/** Draws the whole run up front, so a seed always gives the same operations and faults. */
export function planOperations(random: Random, options: PlanOptions): PlannedOperation[] {
  const plan: PlannedOperation[] = [];
  for (let index = 0; index < options.operations; index++) {
    const earlier = plan.length > 0 && random.chance(options.reuseRate) ? random.pick(plan) : undefined;
    const referenceId = earlier?.referenceId ?? `soak-${index}-${random.int(0, 0xffffff).toString(16)}`;
    const fault = random.chance(options.faultRate) ? drawFault(random, options.timeoutMs) : undefined;
    const currency = random.chance(0.03) ? random.pick(['USD', 'TZS', 'UGX']) : 'KES';
    const amount = drawAmount(random);
    if (random.chance(0.5)) {
      const user = random.pick(['alice', 'bob'] as const);
      const provider = random.chance(0.3) ? 'mpesa' : undefined;
      plan.push({ kind: 'deposit', index, referenceId, user, amount, currency, provider, fault });
    } else {
      const email = random.pick(['alice@example.com', 'bob@example.com']);
      plan.push({ kind: 'withdraw', index, referenceId, email, amount, currency, fault });
    }
  }
  return plan;
}
