import type { TransactionResult } from './schemas/responses.js';

/**
 * The one port that polling, reconciliation and webhook verification read through: a
 * `WalletClient` fits, and so does any object with this method. Typed structurally so that none
 * of them imports the client (and the webhooks entry never loads the transport).
 */
export interface TransactionReader {
  /**
   * Reads a transaction through the status endpoint.
   *
   * @param transactionId the transaction to read.
   * @param options `signal` cancels the read; `timeoutMs` bounds it (polling passes its remaining time);
   *   `readFor: 'webhook'` says a webhook handler reads to verify a delivery (the journal records it).
   */
  getTransaction(
    transactionId: string,
    options?: {
      signal?: AbortSignal | undefined;
      timeoutMs?: number | undefined;
      readFor?: 'webhook' | undefined;
    },
  ): Promise<TransactionResult>;
}
