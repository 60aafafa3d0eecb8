/** A JSON Schema (2020-12) or OpenAPI object, as plain JSON. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A JSON value, as the documents hold them. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
