/**
 * A `fetch` that hands each request straight to the sandbox's request handler, in this process, so
 * that the virtual clock drives every wait. The sandbox's connection faults become what `fetch`
 * shows for them: a dropped connection rejects as undici's does, a reset mid-body errors the stream.
 */
import type { SandboxRequestHandler } from '../../src/testing/index.js';

/** undici's error for a connection the server closed without an answer. */
function closedBySandbox(): TypeError {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
}

/** The in-process fetch of `handle`. */
export function sandboxFetch(handle: SandboxRequestHandler): typeof globalThis.fetch {
  return async (input, init = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body =
      typeof init.body === 'string'
        ? new TextEncoder().encode(init.body)
        : init.body instanceof Uint8Array
          ? init.body
          : new Uint8Array();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const response = await handle({ method: init.method ?? 'GET', url, headers, body });
    if (init.signal?.aborted) throw init.signal.reason;
    if (response.kind === 'drop') throw closedBySandbox();
    const bytes = new TextEncoder().encode(response.body);
    const cut = response.resetAfterBytes;
    const empty = response.status === 303 || response.status === 204 || bytes.byteLength === 0;
    const stream =
      cut === undefined
        ? empty
          ? null
          : bytes
        : new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes.subarray(0, cut));
              controller.error(closedBySandbox());
            },
          });
    return new Response(stream, { status: response.status, headers: response.headers });
  };
}
