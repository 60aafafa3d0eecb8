/**
 * The paying process of the outbox soak: on a PostgreSQL journal whose `onSettled` writes each
 * settlement's event to the outbox (examples/outbox), it recovers what the last run left open, runs
 * the sweeper, and pays (withdrawals and covered deposits) until it is killed. Environment:
 * WALLET_BASE_URL, DATABASE_URL, RUN (a unique run number), PAY=0 to only recover and sweep.
 */
import { WalletClient } from 'merchant-wallet';
import { createPostgresJournal } from 'merchant-wallet/postgres';
import pg from 'pg';
import { outboxOnSettled } from '../../../examples/outbox/outbox.js';
import { DURABLE_API_KEY, PAYERS } from './payers.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const wallet = new WalletClient({
  apiKey: DURABLE_API_KEY,
  baseUrl: process.env.WALLET_BASE_URL,
  journal: createPostgresJournal({ db: pool }),
  maxRetries: 1,
  timeoutMs: 2_000,
  settleLeaseMs: 2_000,
  onSettled: outboxOnSettled(),
});
const run = process.env.RUN ?? '0';
// The payer rides at the end of the reference id: a deposit is re-sent with its user's token.
const tokenFor = (referenceId: string) => PAYERS.find((payer) => referenceId.endsWith(payer.name))?.token;

await wallet.recover({ olderThanMs: 1_000, userTokenFor: (intent) => tokenFor(intent.referenceId) });
void wallet.supervise({
  signal: new AbortController().signal,
  intervalMs: 200,
  userTokenFor: (intent) => tokenFor(intent.referenceId),
  sendingGraceMs: 1_000,
  firstCheckMs: 500,
  maxCheckIntervalMs: 2_000,
  leaseMs: 3_000,
});
process.stdout.write('ready\n');

if (process.env.PAY !== '0') {
  let next = 0;
  const lane = async () => {
    for (;;) {
      const n = next++;
      const payer = PAYERS[n % 4 === 0 ? 1 : 0];
      const reference_id = `ob-${run}-${n}-${payer.name}`;
      const amount = 1 + ((n * 7919) % 500) / 100;
      try {
        if (n % 2 === 0)
          await wallet.deposit({ reference_id, amount, currency: 'KES' }, { userToken: payer.token });
        else await wallet.withdraw({ reference_id, email: payer.email, amount, currency: 'KES' });
      } catch {
        // Refusals and unknown outcomes are in the journal; the sweeper resolves the unknown ones.
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, lane));
}
