import { isWalletErrorCode, type WalletApiErrorCode } from '../error-codes.js';

/** What an error response said, as far as it could be read. */
export interface ErrorBodyReading {
  readonly code: WalletApiErrorCode;
  /** The message the body carried, if any. */
  readonly message: string | undefined;
}

/**
 * Reads the code and message of an error body in any of the shapes the service
 * may use — `{code, message}`, `{error: {code, message}}`, `{error: "<code>", message}`,
 * `{errors: [{code, message}]}` — and never throws: anything else gives `unknown_error`.
 */
export function readErrorBody(body: unknown): ErrorBodyReading {
  for (const candidate of candidates(body)) {
    const code = candidate.code;
    if (typeof code === 'string' && code.length > 0) {
      return {
        code: isWalletErrorCode(code) ? code : 'unknown_error',
        message: typeof candidate.message === 'string' && candidate.message ? candidate.message : undefined,
      };
    }
  }
  const message = isRecord(body) ? stringField(body, 'message') : undefined;
  return { code: 'unknown_error', message };
}

function* candidates(body: unknown): Generator<{ code: unknown; message: unknown }> {
  if (!isRecord(body)) return;
  yield { code: body.code, message: body.message };
  const { error, errors } = body;
  if (typeof error === 'string') yield { code: error, message: body.message };
  if (isRecord(error)) yield { code: error.code, message: error.message ?? body.message };
  if (Array.isArray(errors)) {
    for (const entry of errors) {
      if (isRecord(entry)) yield { code: entry.code, message: entry.message };
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value ? value : undefined;
}
