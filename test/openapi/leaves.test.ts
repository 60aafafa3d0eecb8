import { describe, expect, test } from 'vitest';
import type * as core from 'zod/v4/core';
import { toJsonSchema, UndescribedLeafError } from '../../src/openapi/json-schema.js';
import { LEAF_SCHEMAS } from '../../src/openapi/leaves.js';
import { checked, looseObject } from '../../src/schemas/build.js';
import { validatorFor } from './validator.js';

const validate = validatorFor({});

/** Values on both sides of every leaf's line: types, blanks, bounds, patterns, formats. */
const PROBES: readonly unknown[] = [
  'KES',
  'kes',
  'K€S',
  '',
  ' ',
  '  x ',
  'x',
  'a'.repeat(16),
  'a'.repeat(17),
  'pending',
  'completed',
  'failed',
  'PENDING',
  'user_authorized',
  'transaction',
  'alice@example.com',
  'a.b+c@mail.example.co',
  'alice@example',
  'a b@example.com',
  'not-an-email',
  'https://shop.example/hooks',
  'http://127.0.0.1:3000/x',
  'ftp://x.example',
  'shop.example/hooks',
  '250.00',
  0,
  -1,
  0.01,
  1,
  100,
  1.5,
  20260304050607,
  Number.MAX_SAFE_INTEGER + 2,
  null,
  true,
  [],
  {},
  ['x'],
];

/** Whether zod, through the leaf's guard, accepts `value`. */
function accepts(schema: core.$ZodType, value: unknown): boolean {
  return !Object.hasOwn(schema['~standard'].validate(value), 'issues');
}

describe.each([...LEAF_SCHEMAS])('the JSON Schema of a leaf', (leaf, json) => {
  test(`${JSON.stringify(json)} accepts exactly what the leaf's guard accepts`, () => {
    const disagree = PROBES.filter((value) => accepts(leaf, value) !== validate(json, value));
    expect(disagree).toEqual([]);
  });
});

test('a schema with a leaf the table does not describe is refused, naming the field', () => {
  const unknownLeaf = looseObject({ colour: checked((v): v is string => v === 'red', 'must be red') });
  expect(() => toJsonSchema(unknownLeaf, 'output')).toThrow(UndescribedLeafError);
  expect(() => toJsonSchema(unknownLeaf, 'output')).toThrow('properties.colour');
});
