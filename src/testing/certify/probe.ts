/** What the endpoint answered to one request of `certify`. */
export interface ProbeAnswer {
  /** The HTTP status, when an answer came in time. */
  readonly status: number | undefined;
  /** Why no answer came (timeout, connection refused, reset). */
  readonly error: string | undefined;
  /** How long the answer took, in real ms. */
  readonly ms: number;
  /** The `Retry-After` header, when present. */
  readonly retryAfter: string | undefined;
  /** What the merchant's effect count was when the answer arrived (in-process mode only). */
  readonly effectsAtAnswer: number | undefined;
}

/** How `certify` sends: where, within what time, and how it counts effects (in-process mode). */
export interface Prober {
  readonly url: string;
  readonly timeoutMs: number;
  readonly effects: (() => Promise<number>) | undefined;
}

/** Whether an answer is a 2xx. */
export const ok = (answer: ProbeAnswer): boolean =>
  answer.status !== undefined && answer.status >= 200 && answer.status < 300;

/** "HTTP 503" or the reason no answer came. */
export const describeAnswer = (answer: ProbeAnswer): string =>
  answer.status === undefined ? `no answer (${answer.error})` : `HTTP ${answer.status}`;

/** Sends `body` as a webhook would (POST, JSON, no redirects followed), or another method; never throws. */
export async function probe(
  prober: Prober,
  body: string | undefined,
  method: 'POST' | 'GET' = 'POST',
): Promise<ProbeAnswer> {
  const started = performance.now();
  const signal = AbortSignal.timeout(prober.timeoutMs);
  try {
    const response = await fetch(prober.url, {
      method,
      headers: { 'content-type': 'application/json', 'user-agent': 'merchant-wallet-sandbox certify' },
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
      signal,
    });
    await response.arrayBuffer().catch(() => undefined);
    const ms = performance.now() - started;
    const effectsAtAnswer = await prober.effects?.();
    return {
      status: response.status,
      error: undefined,
      ms,
      retryAfter: response.headers.get('retry-after') ?? undefined,
      effectsAtAnswer,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const why = signal.aborted ? `no answer within ${prober.timeoutMs} ms` : (cause ?? (error as Error).name);
    return {
      status: undefined,
      error: why,
      ms: performance.now() - started,
      retryAfter: undefined,
      effectsAtAnswer: undefined,
    };
  }
}

/**
 * Sends `body` until it is acknowledged, as a sender retrying a 503 or 409 would: at most `rounds`
 * more times, after `Retry-After` (capped at 200 ms, the test's time being real). Answers every attempt.
 */
export async function probeUntilAcknowledged(prober: Prober, body: string, first: ProbeAnswer, rounds = 10) {
  const answers = [first];
  let last = first;
  for (
    let round = 0;
    round < rounds && !ok(last) && last.status !== undefined && last.status >= 409;
    round++
  ) {
    const wait = Math.min(200, Number(last.retryAfter ?? '0') * 1000 || 50);
    await new Promise((resolve) => setTimeout(resolve, wait));
    last = await probe(prober, body);
    answers.push(last);
  }
  return answers;
}
