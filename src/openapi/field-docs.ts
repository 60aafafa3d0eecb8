import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** The TSDoc of each field of each exported object schema in a module: schema → dotted field path → text. */
export type FieldDocs = ReadonlyMap<string, ReadonlyMap<string, string>>;

function docOf(node: ts.Node): string | undefined {
  const text = ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
    .join('\n')
    .trim();
  return text === '' ? undefined : text;
}

/** The object literal an object schema is made of: the first argument of `looseObject({...})`. */
function shapeOf(node: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  if (node === undefined || !ts.isCallExpression(node)) return undefined;
  const [first] = node.arguments;
  return first !== undefined && ts.isObjectLiteralExpression(first) ? first : undefined;
}

function collect(shape: ts.ObjectLiteralExpression, prefix: string, into: Map<string, string>): void {
  for (const property of shape.properties) {
    if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
    const path = `${prefix}${property.name.text}`;
    const doc = docOf(property);
    if (doc !== undefined) into.set(path, doc);
    const nested = shapeOf(property.initializer);
    if (nested) collect(nested, `${path}.`, into);
  }
}

/**
 * Reads the TSDoc comments of the fields of the object schemas the modules at `paths` export, so the
 * document describes each field in the words the SDK's own documentation uses, written once.
 */
export function readFieldDocs(paths: readonly URL[]): FieldDocs {
  const docs = new Map<string, Map<string, string>>();
  for (const path of paths) {
    const source = ts.createSourceFile(
      path.pathname,
      readFileSync(path, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const shape = shapeOf(declaration.initializer);
        if (!shape || !ts.isIdentifier(declaration.name)) continue;
        const fields = new Map<string, string>();
        collect(shape, '', fields);
        docs.set(declaration.name.text, fields);
      }
    }
  }
  return docs;
}

/** `json` with each property described by `fields` (dotted paths reach nested objects and arrays). */
export function describeFields(
  json: Record<string, unknown>,
  fields: ReadonlyMap<string, string>,
  prefix = '',
): Record<string, unknown> {
  const properties = json.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties === undefined) return json;
  const described: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const path = `${prefix}${key}`;
    const doc = fields.get(path);
    described[key] = describeFields(
      doc === undefined ? property : { description: doc, ...property },
      fields,
      `${path}.`,
    );
  }
  return { ...json, properties: described };
}
