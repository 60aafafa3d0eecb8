/**
 * Error codes and messages that prove a request never left the client: the
 * connection was never made, or the URL was refused before dialling.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ConnectionRefused',
]);
const NOT_SENT_MESSAGES = /bad port|connection refused|getaddrinfo|dns|unable to connect/i;
/** Codes of a connection the other side closed or reset under the request. */
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** How a failed `fetch` failed. */
export interface NetworkFailure {
  /** `false` only when the request certainly never reached the server. */
  readonly maybeSent: boolean;
  /** The server answered with a redirect, which API requests refuse to follow. */
  readonly redirect: boolean;
  /**
   * The connection was reset before any byte of the answer, which is what writing to a keep-alive
   * connection the server had already closed while idle looks like. Transports that know whether the
   * connection was reused set it only for a reused one.
   */
  readonly staleSocket: boolean;
  /** A short description with no request data in it. */
  readonly description: string;
}

/** A redirect answer: the request was sent, so it may have been applied. */
export const REDIRECTED: NetworkFailure = {
  maybeSent: true,
  redirect: true,
  staleSocket: false,
  description: 'the API answered with a redirect',
};

/** A failure before anything was sent (no route, no transport), described without request data. */
export function notSent(description: string): NetworkFailure {
  return { maybeSent: false, redirect: false, staleSocket: false, description };
}

/** Classifies an error thrown by `fetch` (Node/undici, Bun, Deno, browsers). */
export function describeNetworkFailure(error: unknown): NetworkFailure {
  const chain = causeChain(error);
  const codes = chain.flatMap((link) => [link.code, ...(link.errors ?? []).map((inner) => inner.code)]);
  const messages = chain.map((link) => link.message ?? '').join(' | ');
  if (/unexpected redirect|redirect mode is set to error/i.test(messages)) {
    return REDIRECTED;
  }
  const notSent = codes.some((code) => code !== undefined && NOT_SENT_CODES.has(code));
  const code = codes.find((value) => value !== undefined);
  return {
    maybeSent: !(notSent || NOT_SENT_MESSAGES.test(messages)),
    redirect: false,
    staleSocket: codes.some((value) => value !== undefined && CLOSED_CODES.has(value)),
    description: code ? `network error ${code}` : `network error (${chain.at(-1)?.message ?? 'unknown'})`,
  };
}

interface ErrorLike {
  code?: string;
  message?: string;
  errors?: ErrorLike[];
}

function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && chain.length < 5) {
    const link = current as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    chain.push({
      ...(typeof link.code === 'string' ? { code: link.code } : {}),
      ...(typeof link.message === 'string' ? { message: link.message } : {}),
      ...(Array.isArray(link.errors) ? { errors: link.errors.filter(isObject).map(toErrorLike) } : {}),
    });
    current = link.cause;
  }
  return chain;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function toErrorLike(value: object): ErrorLike {
  const { code } = value as { code?: unknown };
  return typeof code === 'string' ? { code } : {};
}
