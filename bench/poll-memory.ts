import type { TransactionResult } from '../src/index.js';
import { waitForTransaction } from '../src/index.js';

const pending: TransactionResult = {
  transaction_id: 'txn_1',
  transaction_status: 'pending',
  amount: '1.00',
  currency: 'KES',
};

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
}

/**
 * Starts `count` waits that each read `pending` and then sleep, measures the heap they hold,
 * aborts them all and counts the timers left behind.
 */
export async function pollMemory(
  count = 10_000,
): Promise<{ heapPerWaitBytes: number; timersLeftAfterAbort: number }> {
  const client = { getTransaction: async (id: string) => ({ ...pending, transaction_id: id }) };
  const controller = new AbortController();
  const timersBefore = activeTimers();
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const waits = Array.from({ length: count }, (_, index) =>
    waitForTransaction(client, `txn_${index}`, {
      signal: controller.signal,
      initialDelayMs: 60_000,
      maxDelayMs: 60_000,
      timeoutMs: 600_000,
    }).catch(() => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  collectGarbage();
  const heapPerWaitBytes = (process.memoryUsage().heapUsed - heapBefore) / count;
  controller.abort();
  await Promise.all(waits);
  return { heapPerWaitBytes, timersLeftAfterAbort: activeTimers() - timersBefore };
}
