/** Fatal: an invalid byte throws instead of becoming U+FFFD. Reusable: each `decode` call starts afresh. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Why a response body could not be read; the text becomes the issue message of the error. */
export class UnreadableBody extends Error {}

/**
 * Collects a response body chunk by chunk up to `maxBytes`, then decodes it as strict UTF-8:
 * an invalid byte makes the body unreadable rather than turning into U+FFFD inside an id.
 */
export class BodyCollector {
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(readonly maxBytes: number) {}

  /** Keeps `chunk`; throws {@link UnreadableBody} once the body is past the limit, so the caller stops reading. */
  add(chunk: Uint8Array): void {
    this.#size += chunk.byteLength;
    if (this.#size > this.maxBytes) throw tooLarge(this.maxBytes);
    this.#chunks.push(chunk);
  }

  /** The body as text; throws {@link UnreadableBody} when it is not valid UTF-8. */
  text(): string {
    // Most answers arrive in one chunk: decode it in place rather than copy it.
    const bytes = this.#chunks.length === 1 ? (this.#chunks[0] as Uint8Array) : new Uint8Array(this.#size);
    if (this.#chunks.length > 1) {
      let offset = 0;
      for (const chunk of this.#chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    try {
      return strictUtf8.decode(bytes);
    } catch {
      throw new UnreadableBody('body is not valid UTF-8');
    }
  }
}

/** The error for a body larger than `maxBytes`, also used when Content-Length says so up front. */
export function tooLarge(maxBytes: number): UnreadableBody {
  return new UnreadableBody(`body is larger than maxResponseBytes (${maxBytes} bytes)`);
}

/** Whether a declared, uncompressed Content-Length already exceeds the limit. */
export function declaredTooLarge(contentLength: string | null, maxBytes: number): boolean {
  return contentLength !== null && Number(contentLength) > maxBytes;
}
