import type { DueQuery, PaymentIntent, PaymentJournal } from '../../../index.js';
import { isDue } from '../../../journal/due.js';
import { DEFAULT_SCHEDULE } from '../../../settlement/schedule.js';
import { type CheckResult, type DoctorCheck, fail, pass, skip } from '../check.js';

/** The error's code or name, for a store that did not answer: never its message, which may quote the URL. */
function storeError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'error';
}

/** The store the journal lives on is at the schema this package needs. */
export const storeSchemaCheck: DoctorCheck = {
  id: 'store-schema',
  title: 'stores migrated to the current schema',
  async run({ config, store }): Promise<CheckResult> {
    if (config.storeUrl === undefined)
      return skip('no store is set (WALLET_STORE_URL): memory stores have no schema');
    try {
      const opened = await store();
      return opened === undefined ? skip('no store') : await opened.schema();
    } catch (error) {
      if (error instanceof Error && /^WALLET_STORE_URL/.test(error.message)) {
        return fail(
          'store_url_invalid',
          error.message,
          'set WALLET_STORE_URL to the PostgreSQL or Redis URL the wallet uses',
        );
      }
      return fail(
        'store_unreachable',
        `the store did not answer (${storeError(error)})`,
        'check WALLET_STORE_URL (host, port, user, database) and that the pg or redis package is installed',
      );
    }
  },
};

/** What the sweeper would claim, judged with the default schedule; final payments are left out (settled only with `onSettled`). */
function dueQuery(): DueQuery {
  const { sendingGraceMs, firstCheckMs, stuckAfterMs } = DEFAULT_SCHEDULE;
  return {
    lease: '',
    leaseMs: 0,
    limit: 0,
    merchant: undefined,
    sendingGraceMs,
    firstCheckMs,
    stuckAfterMs,
    settle: false,
  };
}

/** How long ago, in minutes, for messages. */
const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;

/**
 * The sweeper has passed lately: no intent has been due for longer than `sweeperStaleAfterMs`. A
 * sweeper that runs claims a due intent within its interval (5 s by default) and sets when it is
 * next due, so an intent left due for many minutes means no sweeper runs against this journal.
 */
export const sweeperCheck: DoctorCheck = {
  id: 'sweeper',
  title: "sweeper's last pass recent",
  needs: ['store-schema'],
  async run({ config, deps, store }): Promise<CheckResult> {
    let journal: PaymentJournal | undefined = deps.journal;
    if (journal === undefined && config.storeUrl !== undefined) journal = await (await store())?.journal();
    if (journal === undefined) return skip('no journal to read (WALLET_STORE_URL)');
    const staleAfterMs = config.sweeperStaleAfterMs ?? 15 * 60_000;
    const now = deps.now();
    const open = (
      await Promise.all((['sending', 'unknown', 'accepted'] as const).map((state) => journal.list(state)))
    ).flat();
    const query = dueQuery();
    const due = open.filter((intent) => isDue(intent, query, now));
    const overdue = due.filter((intent: PaymentIntent) => isDue(intent, query, now - staleAfterMs));
    if (overdue.length > 0) {
      const oldest = Math.min(...overdue.map((intent) => Date.parse(intent.updatedAt)));
      return fail(
        'sweeper_stale',
        `${overdue.length} intent(s) due for more than ${minutes(staleAfterMs)} and not looked at; the oldest unchanged for ${minutes(now - oldest)}`,
        'run the sweeper: wallet.supervise({ signal }) in one process at least (start() of the wallet does), or sweepOnce() from your job engine every few seconds',
      );
    }
    if (due.length > 0)
      return pass(`${due.length} intent(s) due, none for longer than ${minutes(staleAfterMs)}`);
    return pass(`nothing due in ${open.length} open intent(s): no sign of a stopped sweeper`);
  },
};
