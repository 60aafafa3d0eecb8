import * as core from 'zod/v4/core';
import { LEAF_SCHEMAS } from './leaves.js';
import type { JsonSchema } from './types.js';

/** Thrown when a schema holds a leaf that {@link LEAF_SCHEMAS} does not describe. */
export class UndescribedLeafError extends Error {
  override readonly name = 'UndescribedLeafError';
}

/**
 * The JSON Schema (2020-12, the dialect of OpenAPI 3.1) of one of the SDK's zod schemas: zod's own
 * conversion for objects, arrays and optional fields, and {@link LEAF_SCHEMAS} for the leaf guards.
 * `io` is `input` for what a client sends (strict objects refuse other fields) and `output` for what
 * it reads (loose objects keep them).
 *
 * @throws {UndescribedLeafError} naming the field path of a leaf with no JSON Schema.
 */
export function toJsonSchema(schema: core.$ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = core.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: ({ zodSchema, path }) => {
      const leaf = LEAF_SCHEMAS.get(zodSchema);
      if (leaf === undefined) {
        throw new UndescribedLeafError(`no JSON Schema for the leaf at ${path.join('.') || '(root)'}`);
      }
      return structuredClone(leaf) as core.JSONSchema.BaseSchema;
    },
  });
  return json;
}
