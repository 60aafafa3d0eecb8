import { WalletConfigError } from '../../errors.js';
import { isHttpUrl } from '../../limits.js';
import { sandboxInternals } from '../sandbox.js';
import type { Sandbox } from '../sandbox-types.js';
import {
  ackAfterEffect,
  burst,
  concurrentCopies,
  copyWaitsForFirst,
  getNotProcessed,
  outOfOrder,
  replayMuchLater,
  routeAcceptsPost,
  slowReadBack,
} from './checks-genuine.js';
import {
  forgedAmount,
  forgedCompleted,
  forgedCurrency,
  forgedReference,
  forgedUnknownTransaction,
  madeUpToken,
  malformedJson,
  oversizedBody,
  unknownEventType,
} from './checks-hostile.js';
import { CertifyRun } from './context.js';
import { CertifyFixtures } from './fixtures.js';
import type { CertifyCheckId, CertifyCheckResult, CertifyReport, CertifyVerdict } from './types.js';

/** Options of {@link certifyEndpoint}. */
export interface CertifyEndpointOptions {
  /** The merchant's webhook endpoint. */
  url: string;
  /** The merchant the endpoint reads transactions back as. @default 'app_demo_shop' */
  appId?: string;
  /** The sender's timeout: an answer later than this counts as none, 100 to 60000 ms. @default 5000 */
  timeoutMs?: number;
  /**
   * Counts the merchant's effects (fulfilments: one per completed payment), e.g. rows of a table.
   * Given by `certifyHandler`; without it only answers are graded (the remote mode).
   */
  effects?: () => number | Promise<number>;
}

type Check = (run: CertifyRun) => Promise<CertifyCheckResult>;

/** Checks that run only when a genuine event gets in: without that, they would all fail for one reason. */
const GATED: readonly [CertifyCheckId, Check][] = [
  ['burst', burst],
  ['concurrent-copies', concurrentCopies],
  ['copy-waits-for-first', copyWaitsForFirst],
  ['ack-after-effect', ackAfterEffect],
  ['replay-much-later', replayMuchLater],
  ['out-of-order', outOfOrder],
  ['forged-completed', forgedCompleted],
  ['forged-unknown-transaction', forgedUnknownTransaction],
  ['forged-amount', forgedAmount],
  ['forged-currency', forgedCurrency],
  ['forged-reference', forgedReference],
  ['malformed-json', malformedJson],
  ['oversized-body', oversizedBody],
  ['unknown-event-type', unknownEventType],
  ['made-up-token', madeUpToken],
  ['slow-read-back', slowReadBack],
];

const REMOTE_NOTE =
  "Remote mode: only the endpoint's answers are graded. Whether a forged event or a copy took effect cannot be seen from outside; run certifyHandler in your test suite to count effects.";
const IN_PROCESS_NOTE = "In-process mode: answers and the merchant's effects are graded.";

function checkOptions(options: CertifyEndpointOptions) {
  if (typeof options !== 'object' || options === null)
    throw new WalletConfigError('options', 'must be an object');
  const { url, appId = 'app_demo_shop', timeoutMs = 5_000, effects } = options;
  if (!isHttpUrl(url)) throw new WalletConfigError('url', 'must be an absolute http(s) URL');
  if (typeof appId !== 'string') throw new WalletConfigError('appId', 'must be a string');
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000) {
    throw new WalletConfigError('timeoutMs', 'must be an integer from 100 to 60000 ms');
  }
  if (effects !== undefined && typeof effects !== 'function') {
    throw new WalletConfigError('effects', 'must be a function returning a count');
  }
  return { url, appId, timeoutMs, effects };
}

/**
 * Grades the merchant's webhook endpoint at `options.url` against this sandbox: at least 16 checks
 * (genuine events under load and as copies, replays, forgeries, malformed, oversized and unknown
 * bodies, a made-up token, a slow status endpoint), each `pass`, `warn` or `fail` with a fix. The
 * endpoint must read transactions back from this sandbox with the merchant's API key. Deposits are
 * made for the sandbox user `certify@sandbox.test`, and the sandbox clock moves 3 days forward.
 * @throws {WalletConfigError} naming the option at fault; nothing is sent then.
 */
export async function certifyEndpoint(
  sandbox: Sandbox,
  options: CertifyEndpointOptions,
): Promise<CertifyReport> {
  const { url, appId, timeoutMs, effects } = checkOptions(options);
  const fixtures = new CertifyFixtures(sandboxInternals(sandbox), appId);
  const count = effects === undefined ? undefined : async () => Number(await effects());
  const run = new CertifyRun({ url, timeoutMs, effects: count }, fixtures, sandbox);
  const checks = [await routeAcceptsPost(run), await getNotProcessed(run)];
  const gateOpen = checks[0]?.verdict !== 'fail';
  if (gateOpen) for (const [, check] of GATED) checks.push(await check(run));
  const totals: Record<CertifyVerdict, number> = { pass: 0, warn: 0, fail: 0 };
  for (const check of checks) totals[check.verdict]++;
  return {
    url,
    mode: effects === undefined ? 'remote' : 'in-process',
    checks,
    notRun: gateOpen ? [] : GATED.map(([id]) => id),
    totals,
    note: effects === undefined ? REMOTE_NOTE : IN_PROCESS_NOTE,
  };
}
