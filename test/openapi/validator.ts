import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * A JSON Schema 2020-12 validator (Ajv, the validator Prism uses) that knows a document's
 * components, so `#/components/schemas/...` references resolve. Each schema compiles once.
 */
export function validatorFor(document: Record<string, unknown>): (schema: object, value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'doc' }, 'doc');
  const compiled = new Map<string, ValidateFunction>();
  return (schema, value) => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
    let check = compiled.get(text);
    if (check === undefined) {
      check = ajv.compile(JSON.parse(text));
      compiled.set(text, check);
    }
    return check(value) as boolean;
  };
}
