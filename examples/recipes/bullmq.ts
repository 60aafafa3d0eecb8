// The sweeper as a BullMQ job scheduler: one repeatable job every `everyMs`, taken by one worker
// of the fleet at a time; sweepOnce claims its intents under leases, so a slow run never overlaps.
import { type ConnectionOptions, Queue, Worker } from 'bullmq';
import type { WalletClient } from 'merchant-wallet';

export const SWEEP_QUEUE = 'merchant-wallet-sweep';

/** Schedules a sweep every `everyMs` and works it with `wallet`; close both on shutdown. */
export async function sweepWithBullMQ(
  connection: ConnectionOptions,
  wallet: WalletClient,
  everyMs = 30_000,
): Promise<{ queue: Queue; worker: Worker }> {
  const queue = new Queue(SWEEP_QUEUE, { connection });
  await queue.upsertJobScheduler('sweep', { every: everyMs }, { name: 'sweep' });
  const worker = new Worker(
    SWEEP_QUEUE,
    async () => {
      const report = await wallet.sweepOnce({ limit: 500 });
      return { claimed: report.claimed, settled: report.settled };
    },
    { connection },
  );
  return { queue, worker };
}
