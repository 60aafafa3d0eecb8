/**
 * The layers of `src/`, lowest first, and the check that no import runs from a lower layer to a
 * higher one. A module is named by its folder under `src/` (or its file name, for the files at the
 * root); a module may import its own layer and those below. `npm run check:layers` runs it on the
 * tree, CI runs it after the import-circle check.
 */

/** Each layer's modules, lowest first: the one table of what may import what. */
export const LAYERS: readonly (readonly string[])[] = [
  // What every other part stands on: errors, codes, limits, schemas and the entry with no imports.
  [
    'error-codes',
    'wallet-error',
    'errors',
    'guards',
    'limits',
    'logger',
    'option-keys',
    'amount',
    'login',
    'schemas',
    'transaction-reader',
  ],
  // Sending, recording and what they publish: the transport, the journal and the diagnostics
  // channels (the transport publishes its attempts on them; a settlement's trace names the journal's
  // settling path).
  ['transport', 'journal', 'diagnostics'],
  // What runs on a transaction reader and a journal, without a client.
  ['webhooks', 'polling', 'reconcile', 'settlement'],
  // The token vault and login sessions (they verify webhooks and build login URLs).
  ['auth'],
  // The client: a thin façade over the layers below.
  ['client'],
  // Entries of their own, built on everything below.
  ['stores', 'conformance', 'wallet', 'otel', 'openapi', 'testing', 'cli', 'index'],
];

/** One import from a module to another module of `src/`. */
export interface ModuleImport {
  /** The importing file, relative to `src/`. */
  readonly file: string;
  /** The imported file, relative to `src/`. */
  readonly target: string;
}

/** The module of a file relative to `src/`: its first folder, or its own name at the root. */
export function moduleOf(file: string): string {
  const [first, ...rest] = file.split('/');
  return rest.length === 0 ? (first as string).replace(/\.ts$/, '') : (first as string);
}

/** The layer of every module in {@link LAYERS}. */
const LAYER_OF = new Map(LAYERS.flatMap((modules, layer) => modules.map((module) => [module, layer])));

/**
 * The problems of `imports`: each import that runs up a layer, and each module no layer names (so a
 * new folder must take its place in the table). An empty list when the tree keeps to its layers.
 */
export function layerProblems(imports: readonly ModuleImport[]): string[] {
  const problems = new Set<string>();
  for (const { file, target } of imports) {
    const from = moduleOf(file);
    const to = moduleOf(target);
    const fromLayer = LAYER_OF.get(from);
    const toLayer = LAYER_OF.get(to);
    if (fromLayer === undefined)
      problems.add(`src/${file}: module "${from}" is in no layer of scripts/layers/rules.ts`);
    else if (toLayer === undefined)
      problems.add(`src/${target}: module "${to}" is in no layer of scripts/layers/rules.ts`);
    else if (toLayer > fromLayer)
      problems.add(
        `src/${file} imports src/${target}: "${from}" (layer ${fromLayer}) runs up to "${to}" (layer ${toLayer})`,
      );
  }
  return [...problems];
}
