import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { CONTROL_PREFIX } from './control.js';
import { jsonResponse, type SandboxHttpResponse } from './response.js';

/**
 * Where the sandbox serves the package's OpenAPI documents, under its base URL: the API's and the
 * control API's. Both are public (a document holds no secret), even when the control API is off.
 */
export const OPENAPI_DOCUMENT_PATHS: Readonly<Record<string, string>> = {
  '/openapi.json': 'merchant-wallet/openapi.json',
  [`${CONTROL_PREFIX}/openapi.json`]: 'merchant-wallet/sandbox-control.openapi.json',
};

/** Documents read once per process: they change only with the package. */
const cache = new Map<string, Promise<Record<string, unknown>>>();

function load(specifier: string): Promise<Record<string, unknown>> {
  let document = cache.get(specifier);
  if (document === undefined) {
    // The package's own export, resolved from here: the same file from src/ and from dist/.
    const path = createRequire(import.meta.url).resolve(specifier);
    document = readFile(path, 'utf8').then((text) => JSON.parse(text) as Record<string, unknown>);
    cache.set(specifier, document);
    document.catch(() => cache.delete(specifier));
  }
  return document;
}

/**
 * The document served at `path` (relative to the base URL), its servers set to where this sandbox
 * runs, so tools pointed at the URL (a mock, a client generator) talk to this sandbox; `undefined`
 * when `path` serves no document.
 */
export async function answerDocumentRequest(
  method: string,
  path: string,
  urls: { readonly baseUrl: string; readonly authUrl: string },
): Promise<SandboxHttpResponse | undefined> {
  const specifier = OPENAPI_DOCUMENT_PATHS[path];
  if (specifier === undefined || (method !== 'GET' && method !== 'HEAD')) return undefined;
  const document = structuredClone(await load(specifier));
  document.servers = [{ url: urls.baseUrl, description: 'This sandbox.' }];
  const login = (document.paths as Record<string, { get?: { servers?: unknown } }> | undefined)?.['/login']
    ?.get;
  if (login) login.servers = [{ url: urls.authUrl, description: "This sandbox's login page." }];
  return jsonResponse(200, document, { 'access-control-allow-origin': '*' });
}
