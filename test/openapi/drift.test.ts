import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import type * as core from 'zod/v4/core';
import * as sdk from '../../src/index.js';
import { SCHEMA_COMPONENTS } from '../../src/openapi/components.js';
import { documentText, OPENAPI_DOCUMENTS } from '../../src/openapi/documents.js';
import { ERROR_BODY_SCHEMAS, ERROR_CODE_SCHEMAS } from '../../src/openapi/errors.js';
import { CONTROL_OPERATIONS } from '../../src/openapi/sandbox-control.js';
import { CONTROL_ROUTES } from '../../src/testing/http/control.js';
import { API_ROUTES, ERROR_BODY_SHAPES, SANDBOX_ERROR_STATUS } from '../../src/testing/index.js';
import { validatorFor } from './validator.js';

const committed = (name: string) => readFileSync(new URL(`../../openapi/${name}`, import.meta.url), 'utf8');
const api = JSON.parse(committed('openapi.json'));
const validate = validatorFor(api);

type Operation = {
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
};
const operations = (): [string, string, Operation][] =>
  Object.entries(api.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): [string, string, Operation] => [path, method, op]),
  );

describe.each(Object.keys(OPENAPI_DOCUMENTS))('openapi/%s', (name) => {
  test('is what the schemas give today (npm run openapi writes it)', () => {
    expect(committed(name)).toBe(documentText(OPENAPI_DOCUMENTS[name]?.() ?? {}));
  });
});

describe('a schema changed without the document', () => {
  const shape = (sdk.DepositRequest as core.$ZodObject)._zod.def.shape as Record<string, core.$ZodType>;
  afterEach(() => {
    delete shape.note;
  });

  test('makes the generated document differ from the committed one', () => {
    // A new optional text field, made of a leaf the generator knows.
    shape.note = shape.description as core.$ZodType;
    expect(documentText(OPENAPI_DOCUMENTS['openapi.json']?.() ?? {})).not.toBe(committed('openapi.json'));
  });
});

describe('every schema in the document maps to the SDK', () => {
  test('each component made from zod is a schema the SDK exports under the same name', () => {
    for (const [name, component] of Object.entries(SCHEMA_COMPONENTS)) {
      expect(component.exportedAs[1]).toBe(name);
      if (component.exportedAs[0] === 'merchant-wallet') {
        expect((sdk as Record<string, unknown>)[name], name).toBe(component.schema);
      }
    }
  });

  test('the document has no component the SDK does not export', () => {
    const known = [
      ...Object.keys(SCHEMA_COMPONENTS),
      ...Object.values(ERROR_CODE_SCHEMAS),
      ...Object.values(ERROR_BODY_SCHEMAS),
    ];
    expect(Object.keys(api.components.schemas).sort()).toEqual(known.sort());
  });

  test('the error bodies are the four shapes of ERROR_BODY_SHAPES, each valid with every code of its endpoint', () => {
    for (const [endpoint, bodyName] of Object.entries(ERROR_BODY_SCHEMAS)) {
      const body = api.components.schemas[bodyName];
      expect(body.anyOf.map((shape: { title: string }) => shape.title)).toEqual(
        Object.keys(ERROR_BODY_SHAPES),
      );
      for (const code of api.components.schemas[ERROR_CODE_SCHEMAS[endpoint as sdk.WalletEndpoint]].enum) {
        for (const build of Object.values(ERROR_BODY_SHAPES)) {
          expect(validate(body, build(code, 'a message')), `${endpoint} ${code}`).toBe(true);
        }
      }
      expect(validate(body, { code: 'not_a_documented_code', message: 'x' })).toBe(false);
    }
  });
});

describe('every documented error code is in the document, on the endpoints the spec names', () => {
  test.each(Object.keys(ERROR_CODE_SCHEMAS) as sdk.WalletEndpoint[])('%s', (endpoint) => {
    const enumCodes = api.components.schemas[ERROR_CODE_SCHEMAS[endpoint]].enum;
    expect(enumCodes).toEqual(
      sdk.walletErrorCodes.filter((code) => sdk.endpointsForCode(code).includes(endpoint)),
    );
    // Each code is an example of the endpoint's error answers, with the spec's message, under the
    // range of the status the sandbox answers it with.
    const [path, method] = [API_ROUTES[endpoint].path, API_ROUTES[endpoint].method.toLowerCase()];
    const [, , op] = operations().find(([p, m]) => p.startsWith(path) && m === method) ?? [];
    const examples = Object.entries(op?.responses ?? {}).flatMap(([range, response]) =>
      Object.entries(response.content?.['application/json']?.examples ?? {}).map(([key, example]) => ({
        range,
        key,
        value: example.value,
      })),
    );
    const errors = examples.filter((example) => example.range.endsWith('XX'));
    expect(errors.map((e) => e.key).sort()).toEqual([...enumCodes].sort());
    for (const { key, range, value } of errors) {
      const code = key as sdk.WalletErrorCode;
      expect(value).toEqual({ code, message: sdk.defaultErrorMessage(code, endpoint) });
      expect(range).toBe(`${String(SANDBOX_ERROR_STATUS[code])[0]}XX`);
    }
  });
});

test('every control operation of the sandbox is in the control document, and nothing else', () => {
  expect(Object.keys(CONTROL_OPERATIONS).sort()).toEqual(
    CONTROL_ROUTES.map((route) => `${route.method} ${route.path}`).sort(),
  );
});
