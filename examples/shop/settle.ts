import type { OrderStore } from './orders.js';

/** Every order and payout is paid under `<kind>-<order id>`: the same on every retry and restart. */
export const referenceOf = (order: { kind: string; id: string }) => `${order.kind}-${order.id}`;

/**
 * Where a payment's final status reaches an order: the one place the shop settles. The webhook,
 * the status wait and start-up recovery all call it, and the store's conditional update lets
 * exactly one of them fulfil the order. When the SDK owns settlement (an `onSettled` hook), this
 * function becomes that hook and its three callers go away.
 */
export function createSettlement(orders: OrderStore, fulfil: (orderId: string, paid: boolean) => void) {
  return async (referenceId: string | undefined, status: string, transactionId?: string) => {
    const id = /^(?:order|payout)-(.+)$/.exec(referenceId ?? '')?.[1];
    if (id === undefined || (status !== 'completed' && status !== 'failed')) return;
    const paid = status === 'completed';
    if (await orders.finish(id, paid ? 'paid' : 'failed', transactionId)) fulfil(id, paid);
  };
}

export type Settle = ReturnType<typeof createSettlement>;
