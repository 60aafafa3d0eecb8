import { concatBytes, tooLarge, unreadable } from './body.js';
import { WalletWebhookError } from './errors.js';

/**
 * Reads a Fetch `Request` body, stopping as soon as it passes `maxBytes`, so an oversized
 * body is never held in memory. A `Content-Length` over the limit is refused before reading.
 */
export async function readRequestBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (request.bodyUsed) throw unreadable();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    throw error instanceof WalletWebhookError ? error : unreadable();
  }
  return concatBytes(chunks, size);
}
