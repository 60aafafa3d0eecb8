/**
 * Shortens the local names of the built modules (variables, parameters, module-private bindings)
 * while every function and class keeps the name a stack trace shows, and the CLI, a program rather
 * than a library, loses its names too. tsup runs it on dist/ after each build (`onSuccess` in
 * tsup.config.ts), on the final ESM and CommonJS files.
 *
 * esbuild's own `minifyIdentifiers` renames functions and classes (its `keepNames` restores `.name`
 * but not the class a stack frame names: `at a.deposit`), so the renaming is SWC's, told to keep
 * function and class names and private members (`at GroupCommit.#flush`). esbuild writes top-level
 * classes as `var C = class {…}`, whose name comes from the variable: such a class first gets its name
 * written on it (`var C = class C {…}`), so the variable can be renamed; a binding that names an
 * anonymous function outside a declaration (a default parameter `now = () => …`, an assignment
 * `f = () => …`, the object of a member assigned one, `inst.parse = () => …`), which SWC's
 * `keepFnNames` does not see, is not renamed. Each library module's
 * stack names, and every module's string values, are then compared with what esbuild wrote, and a
 * difference stops the build.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { minify } from '@swc/core';
import { checkLiteralValues } from './literal-values.js';
import { checkStackNames, type InferredName, type ModuleKind, namedByBindings } from './stack-names.js';

/** What the renaming did to one directory: bytes before and after, and the files it rewrote. */
export interface MangleReport {
  readonly files: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

/** Whether a class expression can carry the name its binding gives it (`var C = class C {…}`). */
const givesItsName = ({ type, plain }: InferredName) => type === 'ClassExpression' && plain;

/** `var C = class {…}` written as `var C = class C {…}`, so renaming `C` leaves the class its name. */
export function nameClassesAfterBindings(code: string, bindings: readonly InferredName[]): string {
  const named = bindings.filter(givesItsName);
  if (named.length === 0) return code;
  const bytes = Buffer.from(code);
  const parts: Buffer[] = [];
  let from = 0;
  for (const { start, name } of named) {
    const at = start + 'class'.length;
    if (bytes.subarray(at - 'class'.length, at).toString() !== 'class') {
      throw new Error(`the class expression named by ${name} does not start with "class" at byte ${at}`);
    }
    parts.push(bytes.subarray(from, at), Buffer.from(` ${name}`));
    from = at;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts).toString();
}

/** How a module is renamed: a library keeps every name a stack trace shows, a program keeps none. */
export type NamePolicy = 'library' | 'program';

/** `code` with its local names shortened under `policy`; a library's stack names are checked. */
export async function mangleLocals(code: string, kind: ModuleKind, policy: NamePolicy): Promise<string> {
  const keep = policy === 'library';
  const bindings = keep ? namedByBindings(code, kind) : [];
  const named = nameClassesAfterBindings(code, bindings);
  const reserved = [
    ...new Set(
      bindings.filter((binding) => !givesItsName(binding) && binding.root !== 'this').map(({ root }) => root),
    ),
  ];
  const { code: mangled } = await minify(named, {
    module: kind === 'esm',
    compress: false,
    mangle: { topLevel: true, keepClassNames: keep, keepFnNames: keep, keepPrivateProps: keep, reserved },
    format: { comments: false },
  });
  if (keep) checkStackNames(code, mangled, kind);
  checkLiteralValues(code, mangled, kind);
  return mangled;
}

/**
 * Renames the locals of every `.js` and `.cjs` file in `dir` (which ends with `/`); the files named in
 * `programs` lose their function and class names too.
 */
export async function mangleDirectory(dir: string, programs: ReadonlySet<string>): Promise<MangleReport> {
  let bytesBefore = 0;
  let bytesAfter = 0;
  const files = readdirSync(dir).filter((file) => /\.c?js$/.test(file));
  for (const file of files) {
    const code = readFileSync(`${dir}${file}`, 'utf8');
    const kind: ModuleKind = file.endsWith('.cjs') ? 'cjs' : 'esm';
    let mangled: string;
    try {
      mangled = await mangleLocals(code, kind, programs.has(file) ? 'program' : 'library');
    } catch (error) {
      throw new Error(`${dir}${file}: ${(error as Error).message}`, { cause: error });
    }
    writeFileSync(`${dir}${file}`, mangled);
    bytesBefore += Buffer.byteLength(code);
    bytesAfter += Buffer.byteLength(mangled);
  }
  return { files: files.length, bytesBefore, bytesAfter };
}
