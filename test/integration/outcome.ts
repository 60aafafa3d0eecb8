import { WalletApiError, WalletError } from '../../src/index.js';

/** What a caller can observe of one SDK call, in a form `toEqual` can compare across targets. */
export type Outcome =
  | { ok: true; value: unknown }
  | {
      ok: false;
      name: string;
      message: string;
      code?: string;
      status?: number;
      endpoint?: string;
      requestId?: string | undefined;
      body?: unknown;
    };

/** Settles `call` into an {@link Outcome}; anything but a `WalletError` is a test failure. */
export async function outcomeOf(call: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    if (error instanceof WalletApiError) {
      const { name, message, code, status, endpoint, requestId, body } = error;
      return { ok: false, name, message, code, status, endpoint, requestId, body };
    }
    if (error instanceof WalletError) return { ok: false, name: error.name, message: error.message };
    throw error;
  }
}
