import { forgedBody } from '../forge/forgery.js';
import { transactionEvent } from '../model/transactions.js';
import { type CertifyRun, result } from './context.js';
import { describeAnswer, ok, probeUntilAcknowledged } from './probe.js';
import type { CertifyCheckId, CertifyCheckResult } from './types.js';

const unique = () => Math.random().toString(36).slice(2, 10);

/**
 * A forgery must take no effect. A refusal (4xx, or 5xx to be retried) passes; a 2xx passes only
 * in-process, with no effect, and warns remotely, where the effect cannot be seen.
 */
async function gradeForgery(run: CertifyRun, id: CertifyCheckId, body: string, then?: string) {
  const before = await run.effects();
  const answer = await run.post(body);
  const extra = run.counts ? (await run.effectsAfterWatch()) - before : 0;
  let detail = `forged: ${describeAnswer(answer)}${run.counts ? `, ${extra} effect(s)` : ''}`;
  if (answer.status === undefined) return result(id, 'fail', detail);
  if (extra > 0) return result(id, 'fail', detail);
  const verdict: 'pass' | 'warn' = ok(answer) && !run.counts ? 'warn' : 'pass';
  if (verdict === 'warn') detail += ': acknowledged, and the remote mode cannot see whether it took effect';
  if (then === undefined) return result(id, verdict, detail);
  // The genuine event after it must still take effect: the forgery used up no dedupe key.
  const genuine = await probeUntilAcknowledged(run.prober, then, await run.post(then), 3);
  const last = genuine.at(-1);
  const got = run.counts ? (await run.effectsReaching(before + 1)) - before : 1;
  detail += `; then the genuine event: ${last ? describeAnswer(last) : 'not sent'}${run.counts ? `, ${got} effect(s)` : ''}`;
  if (!genuine.some(ok) || got !== 1) return result(id, 'fail', detail);
  return result(id, verdict, detail);
}

export function forgedCompleted(run: CertifyRun): Promise<CertifyCheckResult> {
  const pending = run.fixtures.pending();
  const claimed = { ...transactionEvent(pending), transaction_status: 'completed' };
  return gradeForgery(run, 'forged-completed', JSON.stringify(claimed)).finally(() =>
    run.fixtures.settle(pending, 'failed'),
  );
}

export function forgedUnknownTransaction(run: CertifyRun): Promise<CertifyCheckResult> {
  const { body } = forgedBody('unknown-transaction', run.fixtures.settled(), {
    bytes: 0,
    unique: unique(),
    email: '',
  });
  return gradeForgery(run, 'forged-unknown-transaction', body);
}

/** A changed field of an event not delivered yet, then the genuine event. */
function changedField(
  run: CertifyRun,
  id: CertifyCheckId,
  kind: 'changed-amount' | 'changed-currency' | 'changed-reference',
) {
  const genuine = run.fixtures.settled();
  const { body } = forgedBody(kind, genuine, { bytes: 0, unique: unique(), email: '' });
  return gradeForgery(run, id, body, JSON.stringify(genuine));
}

export const forgedAmount = (run: CertifyRun) => changedField(run, 'forged-amount', 'changed-amount');
export const forgedCurrency = (run: CertifyRun) => changedField(run, 'forged-currency', 'changed-currency');
export const forgedReference = (run: CertifyRun) =>
  changedField(run, 'forged-reference', 'changed-reference');

/** A body that cannot be an event: 4xx passes, 2xx warns (acknowledged garbage), 5xx or silence fails. */
async function gradeRefusable(run: CertifyRun, id: CertifyCheckId, body: string, twoXx: 'pass' | 'warn') {
  const before = await run.effects();
  const answer = await run.post(body);
  const extra = run.counts ? (await run.effectsAfterWatch()) - before : 0;
  const detail = `${describeAnswer(answer)}${run.counts ? `, ${extra} effect(s)` : ''}`;
  if (answer.status === undefined || answer.status >= 500 || extra > 0) return result(id, 'fail', detail);
  if (ok(answer)) return result(id, twoXx, detail);
  return result(id, answer.status >= 400 ? 'pass' : 'fail', detail);
}

export function malformedJson(run: CertifyRun): Promise<CertifyCheckResult> {
  const { body } = forgedBody('malformed-json', run.fixtures.settled(), { bytes: 0, unique: '', email: '' });
  return gradeRefusable(run, 'malformed-json', body, 'warn');
}

export function oversizedBody(run: CertifyRun): Promise<CertifyCheckResult> {
  const { body } = forgedBody('oversized', run.fixtures.settled(), {
    bytes: 1_048_576,
    unique: '',
    email: '',
  });
  return gradeRefusable(run, 'oversized-body', body, 'warn');
}

export function unknownEventType(run: CertifyRun): Promise<CertifyCheckResult> {
  const { body } = forgedBody('unknown-event', run.fixtures.settled(), { bytes: 0, unique: '', email: '' });
  return gradeRefusable(run, 'unknown-event-type', body, 'pass');
}

export async function madeUpToken(run: CertifyRun): Promise<CertifyCheckResult> {
  const { body } = forgedBody('made-up-token', run.fixtures.settled(), {
    bytes: 0,
    unique: unique(),
    email: 'alice@example.com',
  });
  const answer = await run.post(body);
  if (answer.status === undefined || answer.status >= 500) {
    return result(
      'made-up-token',
      'fail',
      `${describeAnswer(answer)}: a 5xx or no answer makes the sender retry it`,
    );
  }
  if (!ok(answer)) return result('made-up-token', 'pass', `${describeAnswer(answer)}: refused`);
  return result(
    'made-up-token',
    'warn',
    `${describeAnswer(answer)}: acknowledged; nothing from outside can tell whether the token is now trusted`,
  );
}
