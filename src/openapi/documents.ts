import { sandboxControlDocument } from './sandbox-control.js';
import type { JsonSchema } from './types.js';
import { walletApiDocument } from './wallet-api.js';

/** The documents the package ships, by file name under `openapi/`. */
export const OPENAPI_DOCUMENTS: Readonly<Record<string, () => JsonSchema>> = {
  'openapi.json': walletApiDocument,
  'sandbox-control.openapi.json': sandboxControlDocument,
};

/** A document as the package ships it: two-space JSON with a final newline. */
export function documentText(document: JsonSchema): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
