import { sandboxControlDocument } from './sandbox-control.js';
import type { JsonSchema } from './types.js';
import { walletApiDocument } from './wallet-api.js';

/** The documents the package ships, by file name under `openapi/`. */
export const OPENAPI_DOCUMENTS: Readonly<Record<string, () => JsonSchema>> = {
  'openapi.json': walletApiDocument,
  'sandbox-control.openapi.json': sandboxControlDocument,
};

/**
 * A document as the package ships it: JSON with one key or item a line, unindented, and a final
 * newline. A change still shows line by line in a diff, and the tarball carries 1.6 kB less than
 * with two-space indentation (JSON strings hold no raw line breaks, so only indentation is removed).
 */
export function documentText(document: JsonSchema): string {
  return `${JSON.stringify(document, null, 2).replace(/^ +/gm, '')}\n`;
}
