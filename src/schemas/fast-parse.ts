import type * as core from 'zod/v4/core';

/** What {@link fastParse} returns when it cannot tell: zod then parses the value, and says why it fails. */
export const UNDECIDED: unique symbol = Symbol('undecided');

/** One field of an object schema whose check is a plain guard. */
interface GuardedField {
  readonly key: string;
  readonly accepts: (value: unknown) => unknown;
  /** Whether the key may be absent (and, when present, `undefined`). */
  readonly optional: boolean;
}

/** An object schema made of guarded fields only, as this SDK builds them. */
interface GuardedObject {
  readonly guard?: undefined;
  readonly fields: readonly GuardedField[];
  readonly keys: ReadonlySet<string>;
  /** Unknown keys are kept (`looseObject`) or refused (`strictObject`). */
  readonly loose: boolean;
}

/** A schema that is a guard itself (`checked()`), as identifiers are. */
interface GuardedValue {
  readonly guard: (value: unknown) => unknown;
}

const plans = new WeakMap<core.$ZodType, GuardedObject | GuardedValue | null>();

/**
 * Parses `value` without zod's per-field bookkeeping when `schema` is a guard (`checked()`) that
 * passes it, or an object of guarded fields (maybe `optional()`) that all pass: the result is what
 * zod would return, an object with the same keys in the same order. Anything else (a failing field, a missing key,
 * an unknown key of a strict object, another kind of schema) is {@link UNDECIDED}, and zod decides
 * with its own issues. The fields' guards are the schema's own, read from it once.
 */
export function fastParse(schema: core.$ZodType, value: unknown): unknown {
  let plan = plans.get(schema);
  if (plan === undefined) {
    plan = planOf(schema);
    plans.set(schema, plan);
  }
  if (plan === null) return UNDECIDED;
  if (plan.guard) return plan.guard(value) ? value : UNDECIDED;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return UNDECIDED;
  const input = value as Record<string, unknown>;
  const output: Record<string, unknown> = {};
  for (const { key, accepts, optional } of plan.fields) {
    // `in` and a plain read, as zod's object parse does (inherited keys count).
    const present = key in input;
    const field = input[key];
    if (optional && (!present || field === undefined)) {
      if (present) output[key] = field;
      continue;
    }
    if (!present || !accepts(field)) return UNDECIDED;
    output[key] = field;
  }
  for (const key in input) {
    if (plan.keys.has(key)) continue;
    // zod never copies `__proto__` (it would replace the result's prototype); a strict object refuses it.
    if (!plan.loose) return UNDECIDED;
    if (key !== '__proto__') output[key] = input[key];
  }
  return output;
}

/** How `schema` is checked without zod, or `null` when it is neither a guard nor an object of guarded fields. */
function planOf(schema: core.$ZodType): GuardedObject | GuardedValue | null {
  const guard = guardOf(schema);
  if (guard) return { guard };
  const def = schema._zod.def as core.$ZodObjectDef;
  if (def.type !== 'object' || def.checks?.length) return null;
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== 'unknown' && catchall !== 'never') return null;
  if (Object.getOwnPropertySymbols(def.shape).length > 0) return null;
  const fields: GuardedField[] = [];
  for (const key of Object.keys(def.shape)) {
    if (key === '__proto__') return null;
    let field = def.shape[key] as core.$ZodType;
    const optional = field._zod.def.type === 'optional';
    if (optional) field = (field._zod.def as core.$ZodOptionalDef).innerType;
    const accepts = guardOf(field);
    if (!accepts) return null;
    fields.push({ key, accepts, optional });
  }
  return { fields, keys: new Set(Object.keys(def.shape)), loose: catchall === 'unknown' };
}

/** The guard of a `checked()` schema: a custom check with nothing else attached. */
function guardOf(schema: core.$ZodType): ((value: unknown) => unknown) | undefined {
  const def = schema._zod.def as core.$ZodCustomDef;
  if (def.type !== 'custom' || def.checks?.length) return undefined;
  return def.fn;
}
