/**
 * Where the client reports what it does. Any subset of the four methods may be
 * given; `console` fits. Messages and metadata never carry the API key, user
 * tokens or request bodies.
 */
export interface WalletLogger {
  /** Each attempt as it is sent: method and path, with the endpoint and attempt number. */
  debug?(message: string, meta?: Record<string, unknown>): void;
  /** Informational notices: expected events worth keeping in a production log. */
  info?(message: string, meta?: Record<string, unknown>): void;
  /** A retry about to happen and why; a status read the payment journal could not record. */
  warn?(message: string, meta?: Record<string, unknown>): void;
  /** An outcome the payment journal could not record (the call's own result or error still reaches you). */
  error?(message: string, meta?: Record<string, unknown>): void;
}
