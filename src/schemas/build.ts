import * as core from 'zod/v4/core';

// The SDK's schemas are built from `zod/v4/core`, the engine zod/mini wraps: the same parsing and
// issues, without zod/mini's schema classes and methods (`parse`, `check`, `clone`, …). Leaf fields
// are custom type guards that carry their own messages, because each zod schema kind (string,
// number, enum, union, nullable, int, email, regex and refine checks) adds its code to the bundle,
// and both the main client and the webhooks entry have a size budget. Objects and arrays stay
// zod's, so paths, unknown keys and the order of issues are zod's.

/** The message of a failed check: fixed, or made from the value that failed (called only then). */
export type CheckMessage = string | ((value: unknown) => string);

/** A schema that accepts what `test` accepts; anything else gives one issue with `message`. */
export function checked<T>(test: (value: unknown) => value is T, message: CheckMessage): core.$ZodCustom<T> {
  return new core.$ZodCustom({
    type: 'custom',
    check: 'custom',
    fn: test,
    // zod's `custom()` aborts too: a value that failed its check is not checked further.
    abort: true,
    error: (issue) => (typeof message === 'string' ? message : message(issue.input)),
  }) as core.$ZodCustom<T>;
}

/** `schema`, or absent (`undefined`). */
export function optional<T extends core.$ZodType>(schema: T) {
  return new core.$ZodOptional({ type: 'optional', innerType: schema }) as core.$ZodOptional<T>;
}

/** An object schema that checks `shape` and keeps fields it does not name (zod/mini's `looseObject`). */
export function looseObject<const Shape extends core.$ZodShape>(shape: Shape) {
  return new core.$ZodObject({
    type: 'object',
    shape,
    catchall: new core.$ZodUnknown({ type: 'unknown' }),
  }) as core.$ZodObject<Shape, core.$loose>;
}

/** An object schema that checks `shape` and refuses fields it does not name (zod/mini's `strictObject`). */
export function strictObject<const Shape extends core.$ZodShape>(shape: Shape) {
  return new core.$ZodObject({
    type: 'object',
    shape,
    catchall: new core.$ZodNever({ type: 'never' }),
  }) as core.$ZodObject<Shape, core.$strict>;
}

/** An array schema whose every element is checked by `element`. */
export function array<T extends core.$ZodType>(element: T) {
  return new core.$ZodArray({ type: 'array', element }) as core.$ZodArray<T>;
}

/** Whether `value` is a string. */
export const isString = (value: unknown): value is string => typeof value === 'string';
