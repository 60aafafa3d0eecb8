/** Fatal: an invalid byte throws instead of becoming U+FFFD. Reusable: each `decode` call starts afresh. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Why a response body could not be read; the text becomes the issue message of the error. */
export class UnreadableBody extends Error {}

/**
 * Collects a response body chunk by chunk up to `maxBytes`, then decodes it as strict UTF-8:
 * an invalid byte makes the body unreadable rather than turning into U+FFFD inside an id.
 */
export class BodyCollector {
  /** The first chunk: most answers arrive in one, which needs no list. */
  #first: Uint8Array | undefined;
  #rest: Uint8Array[] | undefined;
  #size = 0;

  constructor(readonly maxBytes: number) {}

  /** Keeps `chunk`; throws {@link UnreadableBody} once the body is past the limit, so the caller stops reading. */
  add(chunk: Uint8Array): void {
    this.#size += chunk.byteLength;
    if (this.#size > this.maxBytes) throw tooLarge(this.maxBytes);
    if (this.#first === undefined) this.#first = chunk;
    else if (this.#rest === undefined) this.#rest = [chunk];
    else this.#rest.push(chunk);
  }

  /** The body as text; throws {@link UnreadableBody} when it is not valid UTF-8. */
  text(): string {
    try {
      return strictUtf8.decode(this.#bytes());
    } catch {
      throw new UnreadableBody('body is not valid UTF-8');
    }
  }

  /** The body's bytes: the one chunk in place, or every chunk copied into one array. */
  #bytes(): Uint8Array {
    const first = this.#first;
    if (first === undefined) return new Uint8Array(0);
    if (this.#rest === undefined) return first;
    const bytes = new Uint8Array(this.#size);
    bytes.set(first, 0);
    let offset = first.byteLength;
    for (const chunk of this.#rest) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
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
