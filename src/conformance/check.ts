/** One named conformance check: `run` resolves when the adapter behaves, rejects with what it got wrong. */
export interface ConformanceCheck {
  /** A behaviour sentence, usable as a test name. */
  readonly name: string;
  /** Runs the check against a fresh store from the factory. */
  readonly run: () => Promise<void>;
}

/** A conformance check found the adapter misbehaving. */
export class ConformanceError extends Error {
  /** Always `'ConformanceError'`. */
  override readonly name = 'ConformanceError' as const;
}

/** Fails the check with `message` unless `condition` holds. */
export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message);
}

/** JSON with object keys sorted, so stores that reorder keys (PostgreSQL `jsonb`) compare equal. */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Fails the check unless `actual` and `expected` are the same JSON value, key order aside. */
export function expectSame(actual: unknown, expected: unknown, what: string): void {
  const a = canonical(actual);
  const b = canonical(expected);
  expectThat(a === b, `${what}: expected ${b}, got ${a}`);
}

/** Fails the check unless `promise` rejects. */
export async function expectRejects(promise: () => Promise<unknown>, what: string): Promise<void> {
  let rejected = false;
  try {
    await promise();
  } catch {
    rejected = true;
  }
  expectThat(rejected, `${what} should reject`);
}

/** Waits `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
