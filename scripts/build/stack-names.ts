/**
 * The names a V8 stack trace shows for a module's functions and classes, read from its syntax tree:
 * a declaration's own name, a named expression's name, or the binding an anonymous function or class
 * is first given (`const f = () => …`, `f = function () {}`, `f ??= () => …`, `var C = class {}`, a
 * default parameter or a destructuring default), or the path of the member it is assigned to
 * (`inst._zod.parse = () => …` shows as `inst._zod.parse`, so `inst` must keep its name).
 * Methods and properties are named by their keys, which renaming never touches, so they are left out.
 */
import { type Module, type Node, parseSync, type Script } from '@swc/core';

/** Where a module's source comes from: an ES module (`.js`) or a CommonJS script (`.cjs`). */
export type ModuleKind = 'esm' | 'cjs';

/** Parses `code` as the build wrote it (ES2022, no TypeScript). */
export function parseModule(code: string, kind: ModuleKind): Module | Script {
  const options = { syntax: 'ecmascript', target: 'es2022' } as const;
  return kind === 'esm' ? parseSync(code, options) : parseSync(code, { ...options, isModule: false });
}

/** An anonymous function or class expression and the identifier it takes its name from. */
export interface InferredName {
  /** Where the expression starts, in UTF-8 bytes from the start of the module's code. */
  readonly start: number;
  /** `ClassExpression`, `FunctionExpression` or `ArrowFunctionExpression`. */
  readonly type: string;
  /** The name V8 shows: the binding's identifier, or an assignment target's path (`inst._zod.parse`). */
  readonly name: string;
  /** The identifier the name starts with, which a renaming must keep (`this` for `this.x = …`). */
  readonly root: string;
  /** Whether the name is the identifier alone, which a class expression can be given as its own. */
  readonly plain: boolean;
}

type SwcNode = Node & { readonly [key: string]: unknown };
type Span = { readonly start: number; readonly end: number };

const isNode = (value: unknown): value is SwcNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

const ANONYMOUS = new Set(['ClassExpression', 'FunctionExpression', 'ArrowFunctionExpression']);
const DECLARATIONS = new Set(['FunctionDeclaration', 'ClassDeclaration']);
/** The assignments that name an anonymous function or class after their target (NamedEvaluation). */
const NAMING_OPERATORS = new Set(['=', '&&=', '||=', '??=']);

/** `node`'s identifier name when it is a plain identifier (`a`, not `a.b` or a pattern). */
const identifierName = (node: unknown): string | undefined =>
  isNode(node) && node.type === 'Identifier' ? (node as unknown as { value: string }).value : undefined;

/**
 * The path V8 names a function after when it is assigned to a member (`inst._zod.parse`,
 * `list.<computed>`), with the identifier or `this` the path starts from; else undefined.
 */
function memberPath(node: unknown): { path: string; root: string } | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'ThisExpression') return { path: 'this', root: 'this' };
  const name = identifierName(node);
  if (name !== undefined) return { path: name, root: name };
  if (node.type !== 'MemberExpression') return undefined;
  const object = memberPath(node.object);
  const property = identifierName(node.property) ?? '<computed>';
  return object && { path: `${object.path}.${property}`, root: object.root };
}

/** The unnamed function or class `value` is, with the name `target` gives it; else undefined. */
function inferred(value: unknown, target: unknown): InferredName | undefined {
  let expression = value;
  while (isNode(expression) && expression.type === 'ParenthesisExpression')
    expression = expression.expression;
  const named = memberPath(target);
  if (named === undefined || !isNode(expression) || !ANONYMOUS.has(expression.type)) return undefined;
  if (expression.type !== 'ArrowFunctionExpression' && expression.identifier != null) return undefined;
  const { path, root } = named;
  return {
    start: (expression.span as Span).start,
    type: expression.type,
    name: path,
    root,
    plain: path === root,
  };
}

/** The anonymous function or class a node hands a binding's name to, if any. */
function inferredAt(node: SwcNode): InferredName | undefined {
  switch (node.type) {
    case 'VariableDeclarator':
      return inferred(node.init, node.id);
    case 'AssignmentExpression':
      return NAMING_OPERATORS.has(node.operator as string) ? inferred(node.right, node.left) : undefined;
    case 'AssignmentPattern':
      return inferred(node.right, node.left);
    case 'AssignmentPatternProperty':
      return inferred(node.value, node.key);
    default:
      return undefined;
  }
}

/** Calls `visit` on every node under `root`, parents before children, in source order. */
export function walk(root: unknown, visit: (node: SwcNode) => void): void {
  if (Array.isArray(root)) {
    for (const item of root) walk(item, visit);
    return;
  }
  if (typeof root !== 'object' || root === null) return;
  if (isNode(root)) visit(root);
  for (const [key, value] of Object.entries(root)) {
    if (key !== 'span' && typeof value === 'object') walk(value, visit);
  }
}

/**
 * Every anonymous function and class expression that takes its name from a binding
 * (`var C = class {}`, `let f; f = () => …`, `(now = () => Date.now()) => …`), in source order.
 */
export function namedByBindings(code: string, kind: ModuleKind): InferredName[] {
  const found: InferredName[] = [];
  walk(parseModule(code, kind), (node) => {
    const name = inferredAt(node);
    // SWC numbers a file's bytes from 1 (position 0 means "no position").
    if (name !== undefined) found.push({ ...name, start: name.start - 1 });
  });
  return found;
}

/** The name each function and class of `code` shows in a stack trace, in source order. */
export function stackNames(code: string, kind: ModuleKind): string[] {
  const names: string[] = [];
  const named = new Map<number, string>();
  walk(parseModule(code, kind), (node) => {
    const name = inferredAt(node);
    if (name !== undefined) named.set(name.start, name.name);
    if (DECLARATIONS.has(node.type)) names.push(identifierName(node.identifier) ?? '');
    else if (ANONYMOUS.has(node.type)) {
      const own = node.type === 'ArrowFunctionExpression' ? undefined : identifierName(node.identifier);
      names.push(own ?? named.get((node.span as Span).start) ?? '');
    }
  });
  return names;
}

/** Throws, naming the first difference, unless `after` shows the same stack names as `before`. */
export function checkStackNames(before: string, after: string, kind: ModuleKind): void {
  const was = stackNames(before, kind);
  const is = stackNames(after, kind);
  const at = was.findIndex((name, index) => is[index] !== name);
  if (at !== -1) throw new Error(`renaming changed the stack name "${was[at]}" to "${is[at] ?? ''}"`);
  if (was.length !== is.length)
    throw new Error(`renaming made ${was.length} functions and classes ${is.length}`);
}
