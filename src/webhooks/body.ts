import { WalletConfigError } from '../errors.js';
import { WalletWebhookError } from './errors.js';

/** The default size limit of a webhook body: 64 KiB. */
export const DEFAULT_WEBHOOK_MAX_BYTES = 64 * 1024;

/** Checks a `maxBytes` option and applies the default. */
export function resolveMaxBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined) return DEFAULT_WEBHOOK_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new WalletConfigError('maxBytes', 'must be a positive integer');
  }
  return maxBytes;
}

/** The error for a body over the limit; shared so every entry point words it the same. */
export function tooLarge(maxBytes: number): WalletWebhookError {
  return new WalletWebhookError('too_large', `Webhook body is larger than ${maxBytes} bytes`);
}

/** The error for a body stream that failed or was already consumed. */
export function unreadable(): WalletWebhookError {
  return new WalletWebhookError('invalid_body', 'Webhook body could not be read');
}

const utf8 = new TextEncoder();

/** Whether `text` is longer than `maxBytes` once UTF-8 encoded. */
function exceeds(text: string, maxBytes: number): boolean {
  // A UTF-16 unit takes 1 to 3 UTF-8 bytes, so most bodies are judged without encoding them.
  return text.length > maxBytes || (text.length * 3 > maxBytes && utf8.encode(text).byteLength > maxBytes);
}

function toBytes(body: ArrayBuffer | ArrayBufferView): Uint8Array {
  return body instanceof ArrayBuffer
    ? new Uint8Array(body)
    : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}

function decodeText(bytes: Uint8Array, maxBytes: number): string {
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new WalletWebhookError('invalid_body', 'Webhook body is not valid UTF-8');
  }
}

/**
 * Turns a raw body (text or bytes) into the JSON value it holds, or passes an
 * already-parsed value through. Enforces the size limit on raw bodies, in bytes.
 */
export function decodeBody(body: unknown, maxBytes: number): unknown {
  let text: string;
  if (typeof body === 'string') {
    if (exceeds(body, maxBytes)) throw tooLarge(maxBytes);
    text = body;
  } else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    text = decodeText(toBytes(body), maxBytes);
  } else {
    return body;
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    // The SyntaxError is dropped on purpose: V8 quotes the body in it, and the body may hold a token.
    throw new WalletWebhookError('invalid_json', 'Webhook body is not valid JSON');
  }
}

/** Joins chunks read from a stream; `size` is their total length. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
