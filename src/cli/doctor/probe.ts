import { isWalletApiError, isWalletError, WalletClient } from '../../index.js';
import type { DoctorConfig } from './config.js';
import type { DoctorDeps } from './deps.js';

/** The transaction id the probe reads: one no service issues, so the answer is `transaction_not_found`. */
export const PROBE_TRANSACTION_ID = 'merchant-wallet-doctor-probe';

/** What the one read of the API the doctor makes found. */
export type ApiProbe =
  /** The client refused the base URL before any request (plain http, not a URL). */
  | { readonly kind: 'refused'; readonly reason: string }
  /** No answer: `cause` is the network or TLS error code, such as `ECONNREFUSED` or `CERT_HAS_EXPIRED`. */
  | { readonly kind: 'unreachable'; readonly cause: string }
  /** An answer: its HTTP status, the error code it carried, and the service's `Date` against ours. */
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly code: string | undefined;
      /** The service's `Date` header in ms, when sent. */
      readonly serverDate: number | undefined;
      /** This machine's clock when the answer arrived. */
      readonly receivedAt: number;
    };

/** The code of a network error, the TLS ones included, from a fetch failure or its cause. */
function causeOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = current.cause;
  }
  return error instanceof Error ? error.name : 'network error';
}

/**
 * Reads the status of a transaction that does not exist: a read with no effect, whose answer tells
 * an accepted key (`transaction_not_found`) from a refused one (`invalid_api_key`). One attempt,
 * within 4 s. The key goes only into the request's header, as the client sends it.
 */
export async function probeApi(config: DoctorConfig, deps: DoctorDeps): Promise<ApiProbe> {
  let answer: { status: number; date: string | null; at: number } | undefined;
  let cause: string | undefined;
  const recording: typeof globalThis.fetch = async (input, init) => {
    try {
      const response = await deps.fetch(input, init);
      answer = { status: response.status, date: response.headers.get('date'), at: deps.now() };
      return response;
    } catch (error) {
      cause = causeOf(error);
      throw error;
    }
  };
  let client: WalletClient;
  try {
    client = new WalletClient({
      apiKey: config.apiKey ?? 'no-key-configured',
      baseUrl: config.baseUrl ?? '',
      allowInsecureHttp: config.allowInsecureHttp ?? false,
      fetch: recording,
      maxRetries: 0,
      timeoutMs: 4_000,
    });
  } catch (error) {
    return { kind: 'refused', reason: isWalletError(error) ? error.message : String(error) };
  }
  let code: string | undefined;
  try {
    await client.getTransaction(PROBE_TRANSACTION_ID);
  } catch (error) {
    if (isWalletApiError(error)) code = error.code;
    else if (answer === undefined) return { kind: 'unreachable', cause: cause ?? causeOf(error) };
    else code = isWalletError(error) ? error.name : 'unexpected answer';
  }
  if (answer === undefined) return { kind: 'unreachable', cause: cause ?? 'no answer' };
  const parsed = answer.date === null ? Number.NaN : Date.parse(answer.date);
  return {
    kind: 'answered',
    status: answer.status,
    code,
    serverDate: Number.isNaN(parsed) ? undefined : parsed,
    receivedAt: answer.at,
  };
}
