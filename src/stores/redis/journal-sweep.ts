/** The Redis journal's settlement and sweeper methods, over the due set of sweep-scripts.ts. */
import type { PaymentIntent, PaymentJournal } from '../../journal/types.js';
import type { RedisScript } from './commander.js';
import {
  CLAIM_DUE_SCRIPT,
  CLAIM_SETTLEMENT_SCRIPT,
  COMPLETE_SETTLEMENT_SCRIPT,
  RELEASE_DUE_SCRIPT,
} from './sweep-scripts.js';

/** What the methods need of the journal. */
export interface SweepParts {
  readonly script: (source: RedisScript, keys: string[], args: string[]) => Promise<unknown>;
  readonly prefix: string;
  readonly dueKey: string;
  readonly intentKey: (referenceId: string) => string;
  readonly toIntent: (reply: unknown) => PaymentIntent | undefined;
  /** The server's clock (store-clock.ts), ms since the epoch. */
  readonly clock: () => Promise<number>;
}

/** The four methods on one Redis journal. */
export function sweepMethods(
  parts: SweepParts,
): Required<Pick<PaymentJournal, 'claimSettlement' | 'completeSettlement' | 'claimDue' | 'releaseDue'>> {
  const { script, prefix, dueKey, intentKey, toIntent, clock } = parts;
  return {
    async claimSettlement(referenceId, lease, leaseMs) {
      const reply = await script(
        CLAIM_SETTLEMENT_SCRIPT,
        [intentKey(referenceId), dueKey],
        [lease, String(await clock()), String(Math.ceil(leaseMs)), referenceId],
      );
      return toIntent(reply);
    },
    async completeSettlement(referenceId, lease) {
      const done = await script(
        COMPLETE_SETTLEMENT_SCRIPT,
        [intentKey(referenceId), dueKey],
        [lease, new Date(await clock()).toISOString(), referenceId],
      );
      return Number(done) === 1;
    },
    async claimDue(query) {
      const replies = (await script(
        CLAIM_DUE_SCRIPT,
        [dueKey],
        [
          prefix,
          String(await clock()),
          String(query.limit),
          String(Math.ceil(query.leaseMs)),
          query.lease,
          query.merchant ?? '',
          String(Math.ceil(query.sendingGraceMs)),
          String(Math.ceil(query.firstCheckMs)),
          String(Math.ceil(query.stuckAfterMs)),
          query.settle ? '1' : '0',
          String(query.limit * 4),
        ],
      )) as unknown[];
      return replies
        .map((reply) => toIntent(reply) as PaymentIntent)
        .sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
    },
    async releaseDue(referenceId, lease, nextCheckAt) {
      const nextMs = nextCheckAt === undefined ? 0 : Date.parse(nextCheckAt);
      await script(
        RELEASE_DUE_SCRIPT,
        [intentKey(referenceId), dueKey],
        [lease, nextCheckAt ?? '', String(nextMs), referenceId],
      );
    },
  };
}
