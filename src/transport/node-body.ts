import type { IncomingMessage } from 'node:http';
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
  const collector = new BodyCollector(maxBytes);
  let done = false;
  // Also the 'aborted' listener, which is called without an error.
  const stop = (error: unknown = new Error('response aborted')) => {
    if (done) return;
    done = true;
    // Reporting first: destroying the stream emits its own events, which must not win.
    receiver.fail(error);
    decoded.destroy();
  };
  incoming.on('error', stop);
  incoming.on('aborted', stop);
  decoded.on('data', (chunk: Buffer) => {
    try {
      collector.add(chunk);
    } catch (error) {
      stop(error);
    }
  });
  if (decoded !== incoming) {
    decoded.on('error', () =>
      stop(
        incoming.complete ? new UnreadableBody('body could not be decompressed') : new Error('response cut'),
      ),
    );
  }
  decoded.on('end', () => {
    if (done) return;
    if (!incoming.complete) return stop(new Error('response ended before its body was complete'));
    done = true;
    let text: string;
    try {
      text = collector.text();
    } catch (error) {
      return receiver.fail(error);
    }
    receiver.text(text);
  });
}
