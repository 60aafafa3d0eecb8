import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { checkLiteralValues } from '../../scripts/build/literal-values.js';
import { mangleLocals } from '../../scripts/build/mangle-locals.js';
import { checkStackNames, type ModuleKind, stackNames } from '../../scripts/build/stack-names.js';

// The forms esbuild writes and V8 names frames after: top-level classes as `var C = class {…}` (several
// in one statement, one extending another), private methods, functions named by a default parameter,
// a destructuring default, a later assignment (`=`, `??=`), a `const` and a member of a local object
// (`holder.onEnd`), nested declarations; a multi-byte string comes first, so positions count bytes.
const body = `var NOTE="café — ünïcode",GroupCommit=class{#flush(callback){return callback()}add(callback){return this.#flush(callback)}},
  Batch=class extends GroupCommit{run(callback){return new GroupCommit().add(()=>this.add(callback))}};
function payDeposit(amount,now=()=>{throw new Error(NOTE+amount)}){let orElse,later;const holder={};holder.onEnd=()=>now();orElse??=()=>holder.onEnd();
  const{fromDefault=()=>orElse()}={};later=()=>fromDefault();
  const viaConst=()=>later();function nestedDeclaration(){return viaConst()}
  class Inner{go(){return nestedDeclaration()}}return new Batch().run(()=>new Inner().go())}
function frames(file){Error.stackTraceLimit=50;try{payDeposit(5)}catch(error){return error.stack.split("\\n").filter(line=>line.includes(file))
  .map(line=>line.trim().replace(/^at /,"").split(" (")[0]).map(name=>name.includes(file)?"":name).slice(0,-1)}}`;
const MODULES: Record<ModuleKind, string> = {
  esm: `${body}\nconsole.log(JSON.stringify(frames(import.meta.url)));export{payDeposit,GroupCommit};\n`,
  cjs: `"use strict";${body}\nconsole.log(JSON.stringify(frames(__filename)));exports.payDeposit=payDeposit;\n`,
};

const dir = mkdtempSync(join(tmpdir(), 'mangle-locals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The frame names `code`'s own stack trace shows, run by Node from a file of its kind. */
function framesOf(code: string, kind: ModuleKind, name: string): string[] {
  const file = join(dir, `${name}.${kind === 'esm' ? 'mjs' : 'cjs'}`);
  writeFileSync(file, code);
  return JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' }));
}

describe.each(['esm', 'cjs'] as const)('renaming the locals of a library module (%s)', (kind) => {
  const code = MODULES[kind];

  test('keeps every function, class and private method name its stack trace shows', async () => {
    const renamed = await mangleLocals(code, kind, 'library');
    const before = framesOf(code, kind, 'before');
    expect(before).toEqual([
      'now',
      'holder.onEnd',
      'orElse',
      'fromDefault',
      'later',
      'viaConst',
      'nestedDeclaration',
      'Inner.go',
      '',
      '#flush',
      'Batch.add',
      '',
      '#flush',
      'GroupCommit.add',
      'Batch.run',
      'payDeposit',
      'frames',
    ]);
    expect(framesOf(renamed, kind, 'after')).toEqual(before);
    expect(renamed.length).toBeLessThan(code.length);
    expect(renamed).not.toContain('callback');
    expect(stackNames(renamed, kind)).toEqual(stackNames(code, kind));
  });
});

describe('renaming the locals of a program', () => {
  test('renames its functions and classes too, and it runs as before', async () => {
    const renamed = await mangleLocals(MODULES.esm, 'esm', 'program');
    expect(renamed).not.toMatch(/viaConst|nestedDeclaration|#flush|function payDeposit|GroupCommit=/);
    expect(renamed).toContain('export{');
    expect(framesOf(renamed, 'esm', 'program')).toHaveLength(framesOf(MODULES.esm, 'esm', 'original').length);
  });
});

describe('the stack-name check', () => {
  test('names the first function whose stack name a renaming changed', () => {
    expect(() => checkStackNames('function payDeposit(){}', 'function a(){}', 'esm')).toThrow(
      'renaming changed the stack name "payDeposit" to "a"',
    );
    expect(() => checkStackNames('var C=class{}', 'var a=class{}', 'esm')).toThrow('"C" to "a"');
    expect(() => checkStackNames('let f;f=()=>1', 'let a;a=()=>1', 'cjs')).toThrow('"f" to "a"');
  });

  test('passes a renaming that leaves every stack name as it was', () => {
    expect(() => checkStackNames('var C=class{};let x=1', 'var a=class C{};let b=1', 'esm')).not.toThrow();
  });
});

describe('the string-value check', () => {
  test('quotes the first string or template text a renaming changed', () => {
    expect(() => checkLiteralValues('let a="x-api-key"', 'let a="x-api-kez"', 'esm')).toThrow(
      'renaming changed the string "\'x-api-key" to "\'x-api-kez"',
    );
    expect(() => checkLiteralValues('let a=`one\\ntwo`', 'let a=`onentwo`', 'cjs')).toThrow(
      'renaming changed',
    );
  });

  test('passes strings written with other escapes but the same values', () => {
    expect(() => checkLiteralValues('let a=`\\u2026 \\xD7`', 'let b=`… \\xd7`', 'esm')).not.toThrow();
    expect(() => checkLiteralValues('let a="caf\\xe9"', 'let b="café"', 'esm')).not.toThrow();
  });
});
