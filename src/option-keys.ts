/**
 * One way to list the keys an options type accepts. A registry is typed `OptionKeys<Options>`, so a
 * key added to the interface but forgotten here fails to compile, and a key given at run time but
 * absent here is refused by its caller as unknown (a misspelt `timeout` is an error, never ignored).
 */

/** Every key of `Options`, optional ones included, mapped to `true`. */
export type OptionKeys<Options> = { readonly [K in keyof Options]-?: true };

/** The keys of `options` that `registry` does not list, in the order given. */
export function unknownOptionKeys<Options>(options: object, registry: OptionKeys<Options>): string[] {
  return Object.keys(options).filter((key) => !Object.hasOwn(registry, key));
}
