/**
 * A model of two Redis journals on one store, recording and updating a few reference ids at once,
 * with keys deleted and intents recreated under them meanwhile (fast-check, concurrent commands): every
 * intent any call answers carries the fixed fields of one recording of its own reference id, never
 * another's, and once the commands settle each journal's update answers what `get` reads.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { PaymentIntent, PaymentIntentState } from '../../../src/journal/types.js';
import { createRedisJournal } from '../../../src/stores/redis/index.js';
import { useRedisClients } from './redis-clients.js';

const redis = useRedisClients();
let runs = 0;

const REFERENCES = 3;
type Command =
  | { readonly kind: 'record'; readonly on: number; readonly ref: number; readonly lease: boolean }
  | { readonly kind: 'update'; readonly on: number; readonly ref: number; readonly state: PaymentIntentState }
  | { readonly kind: 'delete'; readonly ref: number };

const ref = fc.nat(REFERENCES - 1);
const on = fc.nat(1);
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('record' as const), on, ref, lease: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      on,
      ref,
      state: fc.constantFrom<PaymentIntentState>('sending', 'unknown', 'accepted', 'completed', 'refused'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), ref }) },
);

test('two journals answer every intent with the fixed fields of its own recording, under any interleaving', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(command, { minLength: 1, maxLength: 5 }), { maxLength: 6 }),
      async (rounds) => {
        const prefix = `model-${++runs}:`;
        const journals = [0, 1].map(() => createRedisJournal({ client: redis.nodeRedis, prefix }));
        const referenceId = (index: number) => `ref-${index}`;
        /** What each recording sent, by the creation number its body carries. */
        const recordings = new Map<number, { referenceId: string; recordedBy: string }>();
        let creations = 0;
        const answers: PaymentIntent[] = [];
        const run = async (step: Command) => {
          if (step.kind === 'delete') {
            await redis.nodeRedis.del(`${prefix}intent:${referenceId(step.ref)}`);
            return;
          }
          const journal = journals[step.on] as (typeof journals)[number];
          if (step.kind === 'record') {
            const creation = ++creations;
            const recordedBy = `call-${creation}`;
            recordings.set(creation, { referenceId: referenceId(step.ref), recordedBy });
            answers.push(
              await journal.record({
                referenceId: referenceId(step.ref),
                endpoint: 'withdraw',
                body: { creation },
                recordedBy,
                metadata: { creation: String(creation) },
                ...(step.lease ? { sendingLeaseMs: 30_000 } : {}),
              }),
            );
            return;
          }
          const status =
            step.state === 'completed' ? 'completed' : step.state === 'accepted' ? 'pending' : undefined;
          const answer = await journal.update(referenceId(step.ref), {
            state: step.state,
            reason: 'model',
            ...(status === undefined ? {} : { transactionStatus: status, transactionId: `tx-${step.ref}` }),
          });
          if (answer !== undefined) answers.push(answer);
        };
        // Each round's commands run at once; rounds follow one another.
        for (const round of rounds) await Promise.all(round.map(run));
        for (const answer of answers) {
          const creation = Number((answer.body as { creation: number }).creation);
          expect(recordings.get(creation)).toEqual({
            referenceId: answer.referenceId,
            recordedBy: answer.recordedBy,
          });
          expect(answer.metadata).toEqual({ creation: String(creation) });
        }
        for (let index = 0; index < REFERENCES; index++) {
          for (const journal of journals) {
            const now = await journal.update(referenceId(index), { reason: 'settled' });
            expect(now).toStrictEqual(await journal.get(referenceId(index)));
          }
        }
      },
    ),
    { numRuns: 150 },
  );
});
