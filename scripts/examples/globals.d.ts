/**
 * What the documentation's snippets take as given: the merchant's own objects and functions, which
 * each page assumes exist. A snippet that declares or imports one of these names uses its own
 * (module scope shadows these). The SDK's own names are never declared here: a snippet that uses
 * one without importing it gets the import (scripts/examples/implicit-imports.ts).
 */
import type {
  DepositRequest,
  DepositResult,
  TokenVault,
  TransactionResult,
  WalletClient,
  WalletLogger,
  WalletOutcomeUnknownError,
} from 'merchant-wallet';
import type { PostgresJournal } from 'merchant-wallet/postgres';
import type { Sandbox } from 'merchant-wallet/testing';
import type { Wallet } from 'merchant-wallet/wallet';
import type { UnverifiedTransactionEvent, WebhookHandler } from 'merchant-wallet/webhooks';
import type pg from 'pg';

/** The merchant's own code the snippets call: any method, any answer. */
// biome-ignore lint/suspicious/noExplicitAny: the merchant's own code, whose types the docs cannot know.
type YourCode = { [name: string]: (...args: any[]) => any };
/** A web framework's app, as Express and Hono route requests. */
// biome-ignore lint/suspicious/noExplicitAny: the framework's own request and response types.
type Route = (path: string, ...handlers: ((req: any, res: any, next?: any) => unknown)[]) => void;

declare global {
  /**
   * The merchant's wallet: the pages built on `createWallet` use its parts (`wallet.client`,
   * `wallet.vault`), the pages on the client alone call it directly, so the name stands for both.
   */
  const wallet: WalletClient & Wallet;
  const sandbox: Sandbox;
  const journal: PostgresJournal;
  const pool: pg.Pool;
  const client: pg.PoolClient;
  const walletWebhook: WebhookHandler;
  const logger: WalletLogger;
  /** The merchant's token vault (docs/authorization.md). */
  const vault: TokenVault;
  /** The signed-in shop customer of a request handler. */
  const customer: { id: string; email: string };
  /** Values a snippet works with. */
  const userToken: string;
  const apiKey: string;
  const baseUrl: string;
  const orderId: string;
  const referenceId: string;
  const transactionId: string;
  const id: string;
  const amount: number;
  const currency: string;
  const body: DepositRequest;
  const deposit: DepositResult;
  const status: TransactionResult;
  const err: unknown;
  const rawBody: string;
  const request: Request;
  const receiverUrl: string;
  const idsFromYourLedger: string[];
  const unknownError: WalletOutcomeUnknownError;
  /** The merchant's own modules. */
  const orders: YourCode;
  const payouts: YourCode;
  const tokens: YourCode;
  const db: YourCode & { query(sql: string, values?: unknown[]): Promise<{ transaction_id: string }[]> };
  const log: YourCode;
  const metrics: YourCode;
  const order: { id: string; amount: number; currency: string };
  const app: { all: Route; get: Route; post: Route; use: Route };
  function onTransaction(event: UnverifiedTransactionEvent): Promise<void>;
  function markPaid(transactionId: string): Promise<void>;
  function flagForReview(referenceId: string): Promise<void>;
  function markOrderPaid(referenceId: string, transactionId?: string): Promise<void>;
  function pendingIds(): AsyncIterable<string>;
  function askForProvider(): void;
  function markForReconciliation(orderId: string, referenceId: string): void;
  function restartLogin(): void;
  function saveToken(email: string, token: string): Promise<void>;
  function offerTopUp(endpoint: string): void;
  function customerLeftCheckout(): boolean;
  function compare(transactionId: string, status: string): void;
  function report(transactionId: string, error: unknown): void;
  function save(result: unknown): Promise<void>;
  function uniqueName(): string;
  function createMyJournal(options?: { table: string }): import('merchant-wallet').PaymentJournal;
  function createMyStore(options: { ttlMs: number }): import('merchant-wallet').WebhookDedupeStore;
  function createMyDedupeStore(options: { ttlMs: number }): import('merchant-wallet').WebhookDedupeStore;
}
