import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type * as Zlib from 'node:zlib';
import { BodyCollector, declaredTooLarge, tooLarge, UnreadableBody } from './body-reader.js';

/** The `accept-encoding` the node transport sends: every encoding {@link readNodeBody} decodes. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The `node:zlib` factory that decodes each content-encoding. */
const DECODERS: Record<string, 'createGunzip' | 'createInflate' | 'createBrotliDecompress' | undefined> = {
  gzip: 'createGunzip',
  'x-gzip': 'createGunzip',
  deflate: 'createInflate',
  br: 'createBrotliDecompress',
};

let zlib: typeof Zlib | undefined;

/** Where {@link readNodeBody} reports: exactly one of the two is called, once. */
export interface BodyReceiver {
  readonly text: (text: string) => void;
  /** {@link UnreadableBody} for a body that is too large, badly encoded or not UTF-8; else the connection's error. */
  readonly fail: (error: unknown) => void;
}

/**
 * Reads a response body, decompressed when the server compressed it, as strict UTF-8.
 * At most `maxBytes` of decoded bytes are kept (a small compressed body cannot expand past
 * the limit in memory); past it `fail` gets {@link UnreadableBody} at once, and the caller
 * drops the connection so the rest is never read. A broken connection fails with its own
 * error. Callbacks rather than a promise: this runs once per request.
 */
export function readNodeBody(incoming: IncomingMessage, maxBytes: number, receiver: BodyReceiver): void {
  // An empty header, as some proxies send, means no encoding, as it does to fetch.
  const encoding = incoming.headers['content-encoding']?.trim().toLowerCase() || 'identity';
  if (encoding === 'identity' && declaredTooLarge(incoming.headers['content-length'] ?? null, maxBytes)) {
    receiver.fail(tooLarge(maxBytes));
    return;
  }
  const decoder = DECODERS[encoding];
  if (encoding !== 'identity' && !decoder) {
    receiver.fail(new UnreadableBody(`body has an unsupported content-encoding "${encoding}"`));
    return;
  }
  zlib ??= decoder && (process.getBuiltinModule('node:zlib') as typeof Zlib);
  const decoded = decoder && zlib ? incoming.pipe(zlib[decoder]()) : incoming;
  new NodeBodyReading(incoming, decoded, maxBytes, receiver);
}

/** Where a stream being read keeps its reading, for the listeners every reading shares. */
const READING = Symbol('merchant-wallet.reading');

type ReadStream = Readable & { [READING]?: NodeBodyReading };

/**
 * One body being read. Its listeners are shared functions that find it on the stream, rather than
 * closures made for every request.
 */
class NodeBodyReading extends BodyCollector {
  readonly incoming: IncomingMessage;
  readonly #decoded: ReadStream;
  readonly #receiver: BodyReceiver;
  #done = false;

  constructor(incoming: IncomingMessage, decoded: Readable, maxBytes: number, receiver: BodyReceiver) {
    super(maxBytes);
    this.incoming = incoming;
    this.#decoded = decoded;
    this.#receiver = receiver;
    (incoming as ReadStream)[READING] = this;
    incoming.on('error', onIncomingError);
    // Called without an error.
    incoming.on('aborted', onIncomingError);
    if (decoded !== incoming) {
      (decoded as ReadStream)[READING] = this;
      decoded.on('error', onDecoderError);
    }
    decoded.on('data', onData);
    decoded.on('end', onEnd);
  }

  /** Keeps `chunk`, or stops once the body is past the limit. */
  chunk(chunk: Buffer): void {
    try {
      this.add(chunk);
    } catch (error) {
      this.stop(error);
    }
  }

  /** The decoded stream ended: the body, unless the answer was cut short. */
  end(): void {
    if (this.#done) return;
    if (!this.incoming.complete) {
      this.stop(new Error('response ended before its body was complete'));
      return;
    }
    this.#done = true;
    let text: string;
    try {
      text = this.text();
    } catch (error) {
      this.#receiver.fail(error);
      return;
    }
    this.#receiver.text(text);
  }

  /** Reports `error`, once, then drops the stream. */
  stop(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    // Reporting first: destroying the stream emits its own events, which must not win.
    this.#receiver.fail(error);
    this.#decoded.destroy();
  }
}

function readingOf(stream: ReadStream): NodeBodyReading {
  return stream[READING] as NodeBodyReading;
}

function onData(this: ReadStream, chunk: Buffer): void {
  readingOf(this).chunk(chunk);
}

function onEnd(this: ReadStream): void {
  readingOf(this).end();
}

function onIncomingError(this: ReadStream, error: unknown = new Error('response aborted')): void {
  readingOf(this).stop(error);
}

function onDecoderError(this: ReadStream): void {
  const reading = readingOf(this);
  reading.stop(
    reading.incoming.complete
      ? new UnreadableBody('body could not be decompressed')
      : new Error('response cut'),
  );
}
