import { type CertifyRun, NOT_SEEN_REMOTELY, result } from './context.js';
import { describeAnswer, ok, type ProbeAnswer, probe, probeUntilAcknowledged } from './probe.js';
import type { CertifyCheckResult } from './types.js';

/** Counts of answers by outcome: "50× HTTP 200, 2× no answer (...)". */
function tally(answers: readonly ProbeAnswer[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers)
    counts.set(describeAnswer(answer), (counts.get(describeAnswer(answer)) ?? 0) + 1);
  return [...counts].map(([what, n]) => `${n}× ${what}`).join(', ');
}

/** Checks the effect count in-process: `expected` more than `before`. */
async function effectVerdict(run: CertifyRun, before: number, expected: number) {
  if (!run.counts) return { fine: true, said: '' };
  const after = await run.effectsReaching(before + expected);
  const got = after - before;
  return { fine: got === expected, said: `; ${got} effect(s), ${expected} expected` };
}

export async function routeAcceptsPost(run: CertifyRun): Promise<CertifyCheckResult> {
  const before = await run.effects();
  const answer = await run.post(run.fixtures.settled());
  if (ok(answer)) {
    // Its effect, if any, lands before the next check counts from a baseline.
    if (run.counts) await run.effectsReaching(before + 1);
    return result('route-accepts-post', 'pass', `${describeAnswer(answer)} in ${Math.round(answer.ms)} ms`);
  }
  const status = answer.status;
  const why =
    status === undefined
      ? ''
      : status >= 300 && status < 400
        ? ': a redirect (to a login page?)'
        : status === 401 || status === 403
          ? ': refused (CSRF protection or authentication?)'
          : status === 404 || status === 405
            ? ': the route does not take POST'
            : '';
  return result('route-accepts-post', 'fail', `${describeAnswer(answer)}${why}`);
}

export async function getNotProcessed(run: CertifyRun): Promise<CertifyCheckResult> {
  const answer = await probe(run.prober, undefined, 'GET');
  const detail = `GET: ${describeAnswer(answer)}`;
  return result('get-not-processed', ok(answer) ? 'warn' : 'pass', detail);
}

export async function burst(run: CertifyRun): Promise<CertifyCheckResult> {
  const events = Array.from({ length: 50 }, () => run.fixtures.settled());
  const before = await run.effects();
  const answers = await Promise.all(events.map((event) => run.post(event)));
  const slowest = Math.round(Math.max(...answers.map((a) => a.ms)));
  const effect = await effectVerdict(run, before, 50);
  const fine = answers.every(ok) && effect.fine;
  return result('burst', fine ? 'pass' : 'fail', `${tally(answers)}; slowest ${slowest} ms${effect.said}`);
}

/** Ten copies of one event at once, then each refused copy again until acknowledged, as a sender would. */
function copies(run: CertifyRun) {
  return run.once('copies', async () => {
    const event = JSON.stringify(run.fixtures.settled());
    const before = await run.effects();
    const firsts = await Promise.all(Array.from({ length: 10 }, () => run.post(event)));
    const all = await Promise.all(firsts.map((first) => probeUntilAcknowledged(run.prober, event, first)));
    return { before, firsts, all };
  });
}

export async function concurrentCopies(run: CertifyRun): Promise<CertifyCheckResult> {
  const { before, firsts, all } = await copies(run);
  const acknowledged = all.filter((answers) => answers.some(ok)).length;
  const effect = await effectVerdict(run, before, 1);
  const detail = `first answers ${tally(firsts)}; ${acknowledged}/10 acknowledged after retries${effect.said}`;
  return result('concurrent-copies', acknowledged === 10 && effect.fine ? 'pass' : 'fail', detail);
}

export async function copyWaitsForFirst(run: CertifyRun): Promise<CertifyCheckResult> {
  if (!run.counts) return result('copy-waits-for-first', 'warn', NOT_SEEN_REMOTELY);
  const { before, all } = await copies(run);
  const early = all.flat().filter((answer) => ok(answer) && (answer.effectsAtAnswer ?? 0) <= before).length;
  return early === 0
    ? result('copy-waits-for-first', 'pass', 'every 2xx came after the effect')
    : result('copy-waits-for-first', 'fail', `${early} cop(ies) acknowledged before any effect was written`);
}

export async function ackAfterEffect(run: CertifyRun): Promise<CertifyCheckResult> {
  if (!run.counts) return result('ack-after-effect', 'warn', NOT_SEEN_REMOTELY);
  const before = await run.effects();
  const answer = await run.post(run.fixtures.settled());
  if (!ok(answer)) return result('ack-after-effect', 'fail', describeAnswer(answer));
  const atAnswer = (answer.effectsAtAnswer ?? 0) - before;
  const later = (await run.effectsReaching(before + 1)) - before;
  const detail = `${atAnswer} effect(s) when the 2xx arrived, ${later} a moment later`;
  return result('ack-after-effect', atAnswer === 1 && later === 1 ? 'pass' : 'fail', detail);
}

export async function replayMuchLater(run: CertifyRun): Promise<CertifyCheckResult> {
  const event = run.fixtures.settled();
  const start = await run.effects();
  const first = await run.post(event);
  const before = run.counts ? await run.effectsReaching(start + 1) : 0;
  run.sandbox.clock.advance(3 * 24 * 60 * 60 * 1000);
  const again = await run.post(event);
  const extra = run.counts ? (await run.effectsAfterWatch()) - before : 0;
  const detail = `first ${describeAnswer(first)}, 3 days later ${describeAnswer(again)}${run.counts ? `; ${extra} more effect(s)` : ''}`;
  return result('replay-much-later', ok(first) && ok(again) && extra === 0 ? 'pass' : 'fail', detail);
}

export async function outOfOrder(run: CertifyRun): Promise<CertifyCheckResult> {
  const earlier = run.fixtures.settled('completed');
  const later = run.fixtures.settled('failed');
  const before = await run.effects();
  const second = await run.post(later);
  const first = await run.post(earlier);
  const effect = await effectVerdict(run, before, 1);
  const detail = `the later "failed" first: ${describeAnswer(second)}, then the earlier "completed": ${describeAnswer(first)}${effect.said}`;
  return result('out-of-order', ok(first) && ok(second) && effect.fine ? 'pass' : 'fail', detail);
}

export async function slowReadBack(run: CertifyRun): Promise<CertifyCheckResult> {
  const event = run.fixtures.settled();
  const fault = run.sandbox.faults.inject({
    route: 'status',
    kind: 'latency',
    ms: 1_000,
    times: Number.POSITIVE_INFINITY,
  });
  const before = await run.effects();
  let answers: ProbeAnswer[];
  try {
    answers = await probeUntilAcknowledged(run.prober, JSON.stringify(event), await run.post(event), 3);
  } finally {
    fault.remove();
  }
  const inTime = answers.every((answer) => answer.status !== undefined);
  const effect = await effectVerdict(run, before, 1);
  const detail = `${tally(answers)}; slowest ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms${effect.said}`;
  return result('slow-read-back', inTime && answers.some(ok) && effect.fine ? 'pass' : 'fail', detail);
}
