import { randomUUID } from 'node:crypto';
import type { SettlementTransaction } from 'merchant-wallet';
import type pg from 'pg';

/** A sale (`order`, paid by a deposit) or a `payout` (a withdrawal), in the shop's own records. */
export interface Order {
  readonly id: string;
  readonly kind: 'order' | 'payout';
  readonly email: string;
  readonly amount: number;
  /** `new` until its payment settles (the order page reads a pending one from the journal). */
  readonly status: 'new' | 'paid' | 'failed';
  readonly transactionId: string | null;
}

/** The shop's small store: orders, and which wallet e-mail each browser account connected. */
export interface OrderStore {
  create(kind: Order['kind'], email: string, amount: number): Promise<Order>;
  get(id: string): Promise<Order | undefined>;
  /** Newest first. */
  list(limit: number): Promise<Order[]>;
  /** Orders still `new`, oldest first: start-up fails those whose payment never moved. */
  open(): Promise<Order[]>;
  /**
   * Ends an open order. A conditional update: `onSettled` runs at least once per payment, and only
   * the run that gets `true` fulfils the order. On PostgreSQL it writes through the settlement's
   * `transaction`, so it commits with the journal's `settledAt`: exactly once.
   */
  finish(
    id: string,
    status: 'paid' | 'failed',
    transactionId: string | undefined,
    transaction?: SettlementTransaction,
  ): Promise<boolean>;
  linkWallet(account: string, email: string): Promise<void>;
  walletOf(account: string): Promise<string | undefined>;
}

const newId = () => randomUUID().slice(0, 8);

/** Every order and payout is paid under `<kind>-<order id>`: the same on every retry and restart. */
export const referenceOf = (order: { kind: string; id: string }) => `${order.kind}-${order.id}`;

export function memoryOrders(): OrderStore {
  const orders = new Map<string, Order>();
  const wallets = new Map<string, string>();
  return {
    async create(kind, email, amount) {
      const order: Order = { id: newId(), kind, email, amount, status: 'new', transactionId: null };
      orders.set(order.id, order);
      return order;
    },
    get: async (id) => orders.get(id),
    list: async (limit) => [...orders.values()].reverse().slice(0, limit),
    open: async () => [...orders.values()].filter((o) => o.status === 'new'),
    // Check and write with no await between them: atomic in one process.
    async finish(id, status, transactionId) {
      const order = orders.get(id);
      if (order === undefined || order.status === 'paid' || order.status === 'failed') return false;
      orders.set(id, { ...order, status, transactionId: transactionId ?? order.transactionId });
      return true;
    },
    linkWallet: async (account, email) => void wallets.set(account, email),
    walletOf: async (account) => wallets.get(account),
  };
}

export async function postgresOrders(db: pg.Pool): Promise<OrderStore> {
  await db.query(`CREATE TABLE IF NOT EXISTS shop_orders (
    id text PRIMARY KEY, kind text NOT NULL, email text NOT NULL, amount numeric NOT NULL,
    status text NOT NULL, transaction_id text, created_at timestamptz NOT NULL DEFAULT clock_timestamp());
  CREATE TABLE IF NOT EXISTS shop_wallets (account text PRIMARY KEY, email text NOT NULL)`);
  const columns = 'id, kind, email, amount::float8 AS amount, status, transaction_id AS "transactionId"';
  const rows = async (where: string, params: unknown[] = []) =>
    (await db.query<Order>(`SELECT ${columns} FROM shop_orders ${where}`, params)).rows;
  return {
    async create(kind, email, amount) {
      const id = newId();
      await db.query(`INSERT INTO shop_orders VALUES ($1, $2, $3, $4, 'new')`, [id, kind, email, amount]);
      return { id, kind, email, amount, status: 'new', transactionId: null };
    },
    get: async (id) => (await rows('WHERE id = $1', [id]))[0],
    list: (limit) => rows('ORDER BY created_at DESC LIMIT $1', [limit]),
    open: () => rows(`WHERE status = 'new' ORDER BY created_at`),
    async finish(id, status, transactionId, transaction) {
      const sql = `UPDATE shop_orders SET status = $2, transaction_id = coalesce($3, transaction_id)
        WHERE id = $1 AND status = 'new'`;
      return (await (transaction ?? db).query(sql, [id, status, transactionId ?? null])).rowCount === 1;
    },
    async linkWallet(account, email) {
      await db.query(
        'INSERT INTO shop_wallets VALUES ($1, $2) ON CONFLICT (account) DO UPDATE SET email = $2',
        [account, email],
      );
    },
    walletOf: async (account) =>
      (await db.query<{ email: string }>('SELECT email FROM shop_wallets WHERE account = $1', [account]))
        .rows[0]?.email,
  };
}
