/**
 * The merchant process of `npm run soak:crash`: recovers what the last run left open, then makes
 * deposits and withdrawals against the sandbox until it is killed. Environment: WALLET_BASE_URL,
 * DATABASE_URL, RUN (a unique run number), FINAL=1 to recover and exit.
 */
import pg from 'pg';
import { WalletClient } from '../../src/index.js';
import { createPostgresJournal } from '../../src/stores/postgres/index.js';
import { CONCURRENCY, SOAK_API_KEY, TOKEN_BY_USER, USERS } from './setup.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: CONCURRENCY + 2 });
const journal = createPostgresJournal({ db: pool });
const wallet = new WalletClient({
  apiKey: SOAK_API_KEY,
  baseUrl: process.env.WALLET_BASE_URL,
  journal,
  maxRetries: 1,
  timeoutMs: 2_000,
});
const run = process.env.RUN ?? '0';

// The user rides in the reference id, since deposits need the user's token to be re-sent.
const userOf = (referenceId: string) => referenceId.split('-').at(-1) as keyof typeof TOKEN_BY_USER;
const report = await wallet.recover({ userTokenFor: (intent) => TOKEN_BY_USER[userOf(intent.referenceId)] });
process.stdout.write(`${JSON.stringify({ recovered: report.counts })}\n`);
if (process.env.FINAL === '1') {
  await pool.end();
  process.exit(0);
}

let next = 0;
async function loop(lane: number): Promise<never> {
  for (;;) {
    const n = next++;
    const user = USERS[(n + lane) % USERS.length] as (typeof USERS)[number];
    const reference_id = `crash-${run}-${n}-${user.name}`;
    const amount = 1 + ((n * 7919) % 2_000) / 100;
    try {
      if (n % 2 === 0) {
        await wallet.deposit({ reference_id, amount, currency: 'KES' }, { userToken: user.token });
      } else {
        await wallet.withdraw({ reference_id, email: user.email, amount, currency: 'KES' });
      }
    } catch {
      // Refusals and unknown outcomes are in the journal; recover() settles the unknown ones.
    }
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: CONCURRENCY }, (_, lane) => loop(lane)));
