/**
 * Where the client reports what it does. Any subset of the four methods may be
 * given; `console` fits. Messages and metadata never carry the API key, user
 * tokens or request bodies.
 */
export interface WalletLogger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  info?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
  error?(message: string, meta?: Record<string, unknown>): void;
}
