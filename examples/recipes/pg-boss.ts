// The sweeper as a pg-boss schedule: pg-boss runs each job on one worker of the fleet, and
// sweepOnce claims its intents under leases, so overlapping runs never share an intent.
import type { WalletClient } from 'merchant-wallet';
import type PgBoss from 'pg-boss';

export const SWEEP_QUEUE = 'merchant-wallet-sweep';

/** Schedules a sweep every minute and works it with `wallet`; returns the worker's id. */
export async function sweepWithPgBoss(boss: PgBoss, wallet: WalletClient): Promise<string> {
  await boss.createQueue(SWEEP_QUEUE);
  await boss.schedule(SWEEP_QUEUE, '* * * * *');
  return boss.work(SWEEP_QUEUE, async () => {
    const report = await wallet.sweepOnce({ limit: 500 });
    return { claimed: report.claimed, settled: report.settled };
  });
}
